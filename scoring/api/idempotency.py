"""``Idempotency-Key`` on every write of the API (docs/api.md, "Idempotency"): a view mixin.

A view that mixes in :class:`Idempotent` (every write view of scoring, tournaments,
registration, teams and circuits) accepts an optional ``Idempotency-Key`` header on its POST,
PUT, PATCH and DELETE, the way Stripe does:

* the key belongs to who sends it (the account; an anonymous caller's address, hashed) and to
  the operation (method and path): the same key on another operation is another request;
* the first request runs; its answer, when it is a success (2xx, 3xx), is kept with the headers
  that matter (``Location``, ``ETag``) for ``IDEMPOTENCY_TTL_HOURS`` (48 h by default), and a
  resend of the key gets it again with ``Idempotent-Replayed: true``, whatever changed since;
* a refusal (4xx) or a crash (5xx) is not kept: nothing was done, so a resend (fixed or not) is
  judged again, on the state then;
* the same key with another body or query: 422 ``reused``; while the first request is still
  being answered: 409 ``in_flight``; a key that is blank, longer than ``KEY_MAX`` or holds a
  control character: 400 ``invalid``, all naming ``Idempotency-Key``.

The key is judged once DRF knows the caller (``initial``: authentication, permission classes,
throttles), before the view itself runs. A method listed in ``own_idempotency`` keeps its own
first answers (the hand POST: ``services.record_hand``, in the hand's transaction).
:class:`~scoring.api.idempotency_schema.AutoSchema` declares the header on every operation of
such a view. The records are ``scoring.services.idempotency``'s.
"""

from __future__ import annotations

import hashlib
import json
from contextlib import suppress
from typing import Any

from django.http.request import RawPostDataException
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.utils.encoders import JSONEncoder

from scoring.api.errors import Refused
from scoring.services import IdempotencyConflict, idempotency
from scoring.validators import control_character

HEADER = "Idempotency-Key"
KEY_MAX = 255
#: The methods whose requests may carry a key.
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: The headers of a first answer that its replay sends again.
KEPT_HEADERS = ("Location", "ETag")


class Replay(Exception):
    """The first answer to this request's key: answered instead of running the view."""

    def __init__(self, response: Response):
        self.response = response
        super().__init__("replay")


def accepts_key(view: Any, method: str) -> bool:
    """Whether ``view`` takes an ``Idempotency-Key`` on ``method`` through this mixin."""
    method = method.upper()
    return (
        isinstance(view, Idempotent)
        and method in WRITES
        and method not in getattr(view, "own_idempotency", ())
    )


class Idempotent:
    """Mix into an ``APIView`` (before it): its writes take an ``Idempotency-Key``."""

    #: Methods whose service keeps its own first answers (not this mixin's).
    own_idempotency: frozenset[str] = frozenset()
    _claimed: idempotency.Claimed | None = None

    def initial(self, request, *args, **kwargs):
        self._claimed = None
        super().initial(request, *args, **kwargs)
        if not accepts_key(self, request.method):
            return
        key = request.headers.get(HEADER)
        if key is None:
            return
        key = checked_key(key)
        try:
            found = idempotency.claim(
                client=client_of(request),
                operation=f"{request.method} {request.path}",
                key=key,
                fingerprint=fingerprint(request),
            )
        except IdempotencyConflict:
            raise Refused(422, HEADER, "reused", reason="request") from None
        except idempotency.InFlight:
            raise Refused(409, HEADER, "in_flight") from None
        if isinstance(found, idempotency.Answer):
            raise Replay(replayed(found))
        self._claimed = found

    def handle_exception(self, exc):
        if isinstance(exc, Replay):
            return exc.response
        try:
            return super().handle_exception(exc)
        except BaseException:
            self._forget()
            raise

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        claimed, self._claimed = self._claimed, None
        if claimed is None:
            return response
        if 200 <= response.status_code < 400 and isinstance(response, Response):
            idempotency.remember(
                claimed,
                status_code=response.status_code,
                body=json.loads(json.dumps(response.data, cls=JSONEncoder)),
                headers={name: response[name] for name in KEPT_HEADERS if name in response},
            )
        else:
            idempotency.release(claimed)
        return response

    def _forget(self) -> None:
        claimed, self._claimed = self._claimed, None
        if claimed is not None:
            idempotency.release(claimed)


def checked_key(key: str) -> str:
    """The key sent, refused (400) when blank, too long or holding a control character."""
    key = key.strip()
    if not key or len(key) > KEY_MAX or control_character(key):
        raise Refused.rule(HEADER, "invalid", reason="idempotency_key", max=KEY_MAX)
    return key


def client_of(request) -> str:
    """Whose keys: the account, or (anonymous) the caller's address as the throttles read it
    (behind ``NUM_PROXIES`` proxies), hashed."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    address = BaseThrottle().get_ident(request)
    return "address:" + hashlib.sha256(address.encode()).hexdigest()[:40]


def fingerprint(request) -> str:
    """A hash of the query and the body (a JSON body as its value: spacing and key order aside)."""
    try:
        raw = request._request.body
    except RawPostDataException:  # already read by DRF: its parsed value
        body: Any = request.data
    else:
        body = raw.decode("latin-1")
        if request.content_type.split(";", 1)[0].strip() == "application/json":
            with suppress(ValueError, RecursionError):  # not JSON: the view refuses it
                body = json.loads(raw)
    query = sorted(request.query_params.lists())
    text = json.dumps([query, body], sort_keys=True, cls=JSONEncoder, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def replayed(answer: idempotency.Answer) -> Response:
    response = Response(answer.body, status=answer.status_code, headers=answer.headers)
    response["Idempotent-Replayed"] = "true"
    return response
