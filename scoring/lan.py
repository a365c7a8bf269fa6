"""Where phones at the table can reach this server when it runs on a laptop at the club.

``make run HOST=0.0.0.0:8000`` serves on every interface; the home page, opened on the laptop
itself, then names the address phones should open (``phone_address``). Nothing is sent on the
network: the local address is the one the system would use for a route out (a UDP socket is
"connected" without a packet), and the check that the server answers there is a TCP connection
to this machine.
"""

from __future__ import annotations

import ipaddress
import socket

from django.conf import settings

#: TEST-NET-1 (RFC 5737): never routed, only used to ask which local address a route would use.
PROBE = ("192.0.2.1", 9)


def lan_address() -> str | None:
    """This machine's address on the local network, or None (no network, loopback only)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def answers(address: str, port: int) -> bool:
    """Whether this server also listens on ``address`` (it was started on 0.0.0.0)."""
    try:
        with socket.create_connection((address, port), timeout=0.3):
            return True
    except OSError:
        return False


def is_local(host: str) -> bool:
    name = (
        host.rsplit(":", 1)[0].strip("[]") if not host.startswith("[") else host[1:].split("]")[0]
    )
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def phone_address(request) -> dict | None:
    """For a page opened on the serving machine itself (127.0.0.1 or localhost): the address
    phones should open (``url``), or None as ``url`` when the server listens on loopback only
    (the page then says how to serve on the local network). None for any other request, and
    always None on a production server (``DEBUG`` off, or ``SITE_URL`` set: the table links
    use that address, and ``make run`` is not how it is started)."""
    if settings.SITE_URL_SET or not settings.DEBUG or not is_local(request.get_host()):
        return None
    address = lan_address()
    host = request.get_host()
    tail = host.rsplit("]", 1)[-1]
    port = int(tail.rsplit(":", 1)[1]) if ":" in tail else (443 if request.is_secure() else 80)
    if address is None or not answers(address, port):
        return {"url": None, "port": port}
    return {"url": f"http://{address}:{port}/", "port": port}
