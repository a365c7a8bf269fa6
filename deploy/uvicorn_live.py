"""The stream server: uvicorn serving only the live streams (``python deploy/uvicorn_live.py``).

gunicorn keeps the pages (deploy/gunicorn.conf.py); nginx sends every address ending in
``/events/`` here (deploy/nginx.conf, ``location ~ /events/$``). The stream views are async
Django views (scoring/live/): one process holds thousands of idle streams on its event loop,
where a gunicorn thread would be held by each (deploy/README.md "Live streams", docs/scaling.md).

Environment (the site's, /etc/segnapunti/env):

- ``LIVE_BIND``: the address it listens on, ``127.0.0.1:8001`` unless set;
- ``LIVE_WORKERS``: processes, one per CPU this process may really use unless set (the same
  count as gunicorn's, from the container's quota and the CPU affinity);
- ``FORWARDED_ALLOW_IPS`` (the proxies trusted for ``X-Forwarded-For``/``-Proto``) and
  ``LOG_FORMAT`` as for gunicorn.

uvloop and httptools (both installed with uvicorn[standard], the ``prod`` extra). A stopping
process (SIGTERM: a restart, a deploy) ends the streams it holds after
``GRACEFUL_SECONDS``; every screen reconnects with its ``Last-Event-ID`` and gets what it
missed from Redis (bench/live.py restarts it mid-run and checks that no version is missed).
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Seconds a stopping process waits before it cuts the streams it holds (they never end alone).
GRACEFUL_SECONDS = 3
#: Connections waiting to be accepted: a restart brings every screen back within seconds.
BACKLOG = 4096


def _refuse(problem: str):
    sys.exit(f"Configuration error: {problem}")


def options(environ=os.environ) -> dict:
    """uvicorn.run's keyword arguments for this environment (one line naming a bad variable)."""
    gunicorn = runpy.run_path(str(HERE / "gunicorn.conf.py"))
    bind = environ.get("LIVE_BIND", "").strip() or "127.0.0.1:8001"
    host, sep, port = bind.rpartition(":")
    if not sep or not host or not port.isdecimal():
        _refuse(f"LIVE_BIND must be host:port, got {bind!r}")
    raw = environ.get("LIVE_WORKERS", "").strip()
    if raw and (not raw.isdecimal() or int(raw) < 1):
        _refuse(f"LIVE_WORKERS must be a whole number of at least 1, got {raw!r}")
    workers = int(raw) if raw else gunicorn["usable_cpus"]()
    log_format = gunicorn["_format"]
    handler = {
        "class": "logging.StreamHandler",
        "formatter": log_format,
        "stream": "ext://sys.stdout",
    }
    return {
        "host": host.strip("[]"),
        "port": int(port),
        "workers": workers,
        "loop": "uvloop",
        "http": "httptools",
        # Django answers no lifespan messages.
        "lifespan": "off",
        "proxy_headers": True,
        "forwarded_allow_ips": gunicorn["forwarded_allow_ips"],
        # Under nginx's keepalive_timeout of the upstream (4 s), as for gunicorn.
        "timeout_keep_alive": 5,
        "timeout_graceful_shutdown": GRACEFUL_SECONDS,
        "backlog": BACKLOG,
        "access_log": True,
        "log_config": {
            "version": 1,
            "disable_existing_loggers": False,
            "formatters": gunicorn["logconfig_dict"]["formatters"],
            "handlers": {"console": handler},
            "loggers": {
                name: {"level": "INFO", "handlers": ["console"], "propagate": False}
                for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
            },
        },
    }


def main() -> None:
    import uvicorn

    sys.path.insert(0, str(HERE.parent))
    os.chdir(HERE.parent)
    uvicorn.run("config.asgi:application", **options())


if __name__ == "__main__":
    main()
