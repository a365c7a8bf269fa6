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
an ``Accept`` that JSON answers, no ``?format=``, and an ``Idempotency-Key``. Anything else goes
DRF's whole way from the start.

A refusal by the service (a hand the rules refuse, a game abandoned or locked, a caller who may
not write, a key reused) is answered here, once: the API's exception handler
(``scoring.api.errors``) makes the answer from the view and the request, as it does on DRF's
way, and it is rendered and given DRF's headers as there, so the body, status and headers are
the same (tests/scoring/test_quick_hand_refusals.py). Sending it DRF's way instead would run
``record_hand`` and the rules engine a second time for the most common error of the busiest
endpoint. A refusal before the service (a bad token, a key too long, a malformed body) still
goes DRF's whole way: nothing was decided yet, and DRF orders those answers (who may write is
judged before the input) and adds their headers (``WWW-Authenticate``).
"""

from __future__ import annotations

import io

from django.conf import settings
from django.http import HttpResponse
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings

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
    except Declined:
        raise
    except Exception:  # a refusal before the service: DRF's to answer, in its one shape
        raise Declined from None
    try:
        result = services.record_hand(game=game_id, document=document, by=by, idempotency_key=key)
    except Exception as exc:
        return refusal(view, request, game_id, exc)
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


def refusal(view, request, game_id: int, exc: Exception) -> HttpResponse:
    """The answer DRF's way gives to ``exc`` raised by the service: the exception handler's
    response, rendered by the JSON renderer with the view's headers (``APIView.handle_exception``
    and ``finalize_response``). What the handler does not map is a bug: raised, a 500."""
    context = {"view": view, "args": (), "kwargs": {"game_id": game_id}, "request": request}
    response = api_settings.EXCEPTION_HANDLER(exc, context)
    if response is None:
        raise exc
    response.exception = True
    response.accepted_renderer = JSONRenderer()
    response.accepted_media_type = "application/json"
    response.renderer_context = {"view": view, "args": (), "kwargs": context["kwargs"]}
    response.renderer_context["request"] = request
    for name, value in view.default_response_headers.items():
        response[name] = value
    return response.render()
