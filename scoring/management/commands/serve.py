"""``manage.py serve [ADDRESS:PORT]``: the whole site under uvicorn, an ASGI server, as
``make run`` starts it on a club's laptop.

Under ASGI every page works as under runserver, and the live streams too (``scoring.live``):
without ``LIVE_REDIS_URL`` their events fan out inside this one process, which is why it runs
exactly one (a second process would not hear the first one's hands). Static files are served by
WhiteNoise, from the apps' folders while ``DEBUG`` is on. ``--reload`` restarts it when the code
changes (for development).
"""

from __future__ import annotations

import ipaddress

from django.core.management.base import CommandError

from scoring.management import base


def address_and_port(text: str) -> tuple[str, int]:
    """``127.0.0.1:8000``, ``0.0.0.0:8000``, ``[::1]:8000``, ``localhost:8000`` or ``8000``."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise CommandError(f"{text!r} is not an address and port, e.g. 127.0.0.1:8000")
    if host != "localhost":
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise CommandError(f"{host!r} is not an IP address (or localhost)") from None
    return host, int(port)


class Command(base.Command):
    help = "Serve the site and its live streams with uvicorn (one process): make run."

    def add_arguments(self, parser):
        parser.add_argument("address", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--reload", action="store_true", help="restart on code changes")

    def handle(self, *args, address: str, reload: bool, **options):
        import uvicorn  # only this command needs it (the tests and the other commands do not)

        host, port = address_and_port(address)
        shown = f"[{host}]" if ":" in host else host
        self.stdout.write(f"Segnapunti on http://{shown}:{port}/ (Ctrl+C stops it)")
        uvicorn.run(
            "config.asgi:application",
            host=host,
            port=port,
            workers=1,
            reload=reload,
            log_level="info",
            lifespan="off",
        )
