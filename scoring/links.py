"""Absolute links that leave the site (QR codes, e-mails, share buttons), made in one place.

``SITE_URL`` wins when it is set explicitly. Otherwise a link made while answering a request uses
the address that request came in on, so that a laptop serving the club's Wi-Fi hands out an
address the phones can open; a page opened on the laptop itself as localhost uses the laptop's
address on the local network (``scoring.lan``). A link made with no request at hand (an e-mail
built by a background task) uses the address of the request that caused it: ``RequestOrigin``
(a middleware) keeps the request being answered, ``request_origin()`` is its address, which a
service passes to the task it enqueues, and the task makes its links inside
``serving(origin)``. With neither (a beat task's resent mailing), ``SITE_URL``'s default.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from urllib.parse import urlencode

import segno
from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core import signing
from django.core.exceptions import DisallowedHost
from django.urls import reverse

from scoring import lan
from scoring.models import TableLink

#: The request being answered (``RequestOrigin``), or the address a task was given (``serving``).
_serving: ContextVar = ContextVar("segnapunti_serving", default=None)


def site_url(request, path: str) -> str:
    """The absolute address of ``path`` that the players' phones reach (with no ``request``:
    the one being answered, else the address a task was given, else ``SITE_URL``)."""
    if settings.SITE_URL_SET:
        return settings.SITE_URL + path
    if request is None:
        request = _serving.get()
        if isinstance(request, str) or request is None:
            return (request or settings.SITE_URL) + path
    if lan.is_local(request.get_host()):
        # Opened on the serving laptop itself: phones need its address on the club's network.
        phones = lan.phone_address(request)
        if phones and phones["url"]:
            return phones["url"].rstrip("/") + path
    return request.build_absolute_uri(path)


def request_origin() -> str:
    """The address (``scheme://host[:port]``) of the request being answered, for a task that
    makes links to carry (``serving``); ``""`` when ``SITE_URL`` is set or no request is."""
    current = _serving.get()
    if settings.SITE_URL_SET or current is None:
        return ""
    if isinstance(current, str):
        return current
    try:
        return site_url(current, "/").removesuffix("/")
    except DisallowedHost:
        return ""


@contextmanager
def serving(origin: str) -> Iterator[None]:
    """Links made without a request inside this block are on ``origin`` (a task's, given by
    ``request_origin`` when it was enqueued; ``""``: as before)."""
    token = _serving.set(origin or _serving.get())
    try:
        yield
    finally:
        _serving.reset(token)


class RequestOrigin:
    """Middleware: the request being answered is the one a task enqueued meanwhile makes its
    links on (``request_origin``)."""

    sync_capable = async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        if iscoroutinefunction(self):
            return self._acall(request)
        token = _serving.set(request)
        try:
            return self.get_response(request)
        finally:
            _serving.reset(token)

    async def _acall(self, request):
        token = _serving.set(request)
        try:
            return await self.get_response(request)
        finally:
            _serving.reset(token)


def table_url(link: TableLink, request=None) -> str:
    """The address a table's QR code opens."""
    return site_url(request, reverse("table-link", args=[link.token]))


#: Minutes an admission ticket (a table card's or a seated phone's "admit a phone" code) lasts.
ADMISSION_MINUTES = 15
ADMISSION_SALT = "segnapunti.table-admission"


def admission_ticket(link: TableLink) -> str:
    """A signed ticket that opens ``link``'s table without the PIN for ``ADMISSION_MINUTES``,
    even while wrong PINs lock the link: shown by the organizer's table card and by the phones
    already seated. A new link (``rotate_table_link``) voids it."""
    return signing.dumps({"link": link.pk, "token": _token_digest(link.token)}, salt=ADMISSION_SALT)


def admitted(link: TableLink, ticket: str) -> bool:
    try:
        data = signing.loads(ticket, salt=ADMISSION_SALT, max_age=ADMISSION_MINUTES * 60)
    except signing.BadSignature:  # SignatureExpired included
        return False
    return (
        isinstance(data, dict)
        and data.get("link") == link.pk
        and hmac.compare_digest(str(data.get("token")), _token_digest(link.token))
    )


def _token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def admission_url(link: TableLink, request=None) -> str:
    """The address that admits a phone to a table without its PIN (``admission_ticket``)."""
    return table_url(link, request) + "?" + urlencode({"admit": admission_ticket(link)})


def qr_svg(url: str) -> str:
    """``url`` as a QR code, an inline SVG that fills its box and keeps its shape: a
    ``viewBox`` and a width and height of 100 % (the box, ``.qr``, gives the size)."""
    svg = segno.make(url, error="m").svg_inline(scale=6, border=2, dark="#111827", omitsize=True)
    return svg.replace("<svg ", '<svg width="100%" height="100%" ', 1)


UNSUBSCRIBE_SALT = "segnapunti.results-unsubscribe"


def unsubscribe_token(player_id: int) -> str:
    """The signed token of a results e-mail's unsubscribe link: it names the player, so no login
    is needed, and it does not expire (an old e-mail's link still works). Opened twice it
    unsubscribes once (``scoring.services.players.unsubscribe``)."""
    return signing.dumps({"player": player_id}, salt=UNSUBSCRIBE_SALT)


def unsubscribed_player(token: str) -> int | None:
    """The player a token of ``unsubscribe_token`` names, None for a forged or mangled one."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    player = data.get("player") if isinstance(data, dict) else None
    return player if isinstance(player, int) and not isinstance(player, bool) else None


def unsubscribe_url(player_id: int, request=None) -> str:
    """The unsubscribe link of a results e-mail (``unsubscribe_token``)."""
    return site_url(request, reverse("unsubscribe", args=[unsubscribe_token(player_id)]))
