"""The live stream of a circuit's public page (``circuits.live`` publishes on it)."""

from __future__ import annotations

from django.views.decorators.http import require_GET

from circuits.live import circuit_channel
from circuits.views import public_circuit_or_404
from scoring.live.streams import open_stream
from scoring.views.live import Opening, Refused, authenticate_stream, decide


def _open_circuit(request, club_slug: str, slug: str):
    opening = Opening(request)
    authenticate_stream(request, opening)
    return public_circuit_or_404(request, club_slug, slug), opening


@require_GET
async def circuit_stream(request, club_slug: str, slug: str):
    """``text/event-stream`` of a circuit's standings (as its public page may be read): a
    ``standings`` event (``id``, ``competition``, ``version``) when one of its competitions'
    standings change; the page fetches the circuit's table again."""
    try:
        circuit, opening = await decide(
            _open_circuit, request, club_slug, slug, missing="No such circuit."
        )
    except Refused as refusal:
        return refusal.answer

    async def first() -> dict:
        return {"id": circuit.pk}

    return await open_stream(
        request,
        opening,
        channel=circuit_channel(circuit.pk),
        first=first,
    )
