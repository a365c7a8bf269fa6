"""The short way of a phone's hand POST: the same checks and the same service, without DRF's
request machinery.

A hand POST from a phone is the API's hottest request: a token, a JSON body, JSON back. DRF's
dispatch around it (its Request wrapper, content negotiation, the authenticator loop, the
permission and throttle checks, its Response and renderer) cost about as much CPU as the rules
and the validation together (bench/profile_hand.py), while deciding nothing for such a request.
Here the request the phones send is served by the same pieces called directly: the token by
``CachedTokenAuthentication``, the body by the API's ``JSONParser`` (its size, depth and
character limits), the hand by ``services.record_hand`` (the lock, the audit event, the
idempotency record), and the answer is rendered by DRF's ``JSONRenderer`` with the headers DRF
would add.

Only a request that can go this way does: a POST with ``Authorization: Token``, a JSON body,
an ``Accept`` that JSON answers, no ``?format=``, and an ``Idempotency-Key``. Anything else, and
any refusal on the way (a bad token, a malformed body, a hand the rules refuse, a caller who may
not write), goes DRF's whole way from the start instead, so every error keeps its one shape and
status: a refusal changed nothing (``record_hand`` writes in one transaction), and a resend of
a hand that did go in gets its first answer (its idempotency record).
"""

from __future__ import annotations

import io

from django.conf import settings
from django.http import HttpResponse
from rest_framework.renderers import JSONRenderer

from scoring import access, services
from scoring.api.authentication import CachedTokenAuthentication
from scoring.api.negotiation import JSON_ACCEPTS
from scoring.api.parsers import JSONParser
from scoring.models import Via
from scoring.validators import control_character


def goes_quickly(meta) -> bool:
    """Whether the request is one a phone sends, that the short way serves."""
    return (
        meta.get("HTTP_AUTHORIZATION", "").startswith("Token ")
        and meta.get("CONTENT_TYPE", "").split(";", 1)[0].strip() == "application/json"
        and meta.get("HTTP_ACCEPT", "").strip() in JSON_ACCEPTS
        and "format=" not in meta.get("QUERY_STRING", "")
        and bool(meta.get("HTTP_IDEMPOTENCY_KEY", "").strip())
    )


class Declined(Exception):
    """The short way does not serve this request: DRF's whole way does."""


def enter_hand(view, request, game_id: int, key_max: int) -> HttpResponse:
    """Serve the hand POST ``request`` on ``game_id`` the short way, or raise Declined (having
    changed nothing) for DRF to serve it."""
    meta = request.META
    key = meta["HTTP_IDEMPOTENCY_KEY"].strip()
    if len(key) > key_max or control_character(key):
        raise Declined
    try:
        token = meta["HTTP_AUTHORIZATION"].split()
        if len(token) != 2:
            raise Declined
        user, _token = CachedTokenAuthentication().authenticate_credentials(token[1])
        request.user = user
        document = JSONParser().parse(
            io.BytesIO(request.body),
            "application/json",
            {"encoding": request.encoding or settings.DEFAULT_CHARSET},
        )
        by = access.actor_for_game_id(request, game_id, via=Via.API)
        result = services.record_hand(game=game_id, document=document, by=by, idempotency_key=key)
    except Declined:
        raise
    except Exception:  # every refusal is DRF's to answer, in its one shape
        raise Declined from None
    response = HttpResponse(
        JSONRenderer().render(result.payload), status=201, content_type="application/json"
    )
    response["Location"] = f"/api/v1/games/{game_id}/hands/{result.payload['number']}/"
    if result.replayed:
        response["Idempotent-Replayed"] = "true"
    if "etag" in result.payload:
        response["ETag"] = result.payload["etag"]
    for name, value in view.default_response_headers.items():
        response[name] = value
    return response
