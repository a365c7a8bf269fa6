"""The live stream of a registration's e-mailed link (``registration.live``)."""

from __future__ import annotations

from django.http import Http404
from django.views.decorators.http import require_GET

from registration.live import registration_channel
from registration.models import LinkPurpose
from registration.services import find_link, link_refusal
from scoring.live.streams import open_stream
from scoring.views.live import Opening, Refused, decide


def _open_registration(request, token: str):
    opening = Opening(request)
    link = find_link(token)
    purposes = {LinkPurpose.CONFIRM, LinkPurpose.PARTNER, LinkPurpose.MANAGE}
    if link is None or link.registration is None or link_refusal(link, purposes) is not None:
        raise Http404
    return link.registration_id, opening


@require_GET
async def registration_stream(request, token: str):
    """``text/event-stream`` of a registration's e-mailed link (a player without an account):
    a ``table`` event when a round seats its entry, as My games hears on the user's channel."""
    try:
        registration_id, opening = await decide(
            _open_registration, request, token, missing="No such link."
        )
    except Refused as refusal:
        return refusal.answer

    async def first() -> dict:
        return {"registration": registration_id}

    return await open_stream(
        request, opening, channel=registration_channel(registration_id), first=first
    )
