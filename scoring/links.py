"""Absolute links that leave the site (QR codes, e-mails, share buttons), made in one place.

``SITE_URL`` wins when it is set explicitly. Otherwise a link made while answering a request uses
the address that request came in on, so that a laptop serving the club's Wi-Fi hands out an
address the phones can open; a page opened on the laptop itself as localhost uses the laptop's
address on the local network (``scoring.lan``). A link made with no request (a background task)
uses ``SITE_URL``'s default.
"""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import urlencode

import segno
from django.conf import settings
from django.core import signing
from django.urls import reverse

from scoring import lan
from scoring.models import TableLink


def site_url(request, path: str) -> str:
    """The absolute address of ``path`` that the players' phones reach."""
    if settings.SITE_URL_SET or request is None:
        return settings.SITE_URL + path
    if lan.is_local(request.get_host()):
        # Opened on the serving laptop itself: phones need its address on the club's network.
        phones = lan.phone_address(request)
        if phones and phones["url"]:
            return phones["url"].rstrip("/") + path
    return request.build_absolute_uri(path)


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
