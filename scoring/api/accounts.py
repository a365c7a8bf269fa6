"""The API token: ``POST /api/v1/auth/token/`` with a username and password, throttled like the
login page (``scoring.throttles``): a try made while the account or the address must wait is a
429 with ``Retry-After``, in the one error shape, and the password is not even checked. A wrong
username or password is a 401 (``WWW-Authenticate: Token``); a body without them a 400. JSON
only: one request schema, which client generators import cleanly. ``DELETE`` revokes the caller's
token (the account's settings page does the same): every program holding it is refused from then
on, and the next ``POST`` makes a new one."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import (
    AuthenticationFailed,
    ErrorDetail,
    NotAuthenticated,
    Throttled,
    ValidationError,
)
from rest_framework.response import Response

from scoring import services, throttles
from scoring.api.common import ERRORS
from scoring.api.idempotency import Idempotent
from scoring.api.parsers import JSONParser
from scoring.api.schema import request_example
from scoring.messages import message


class ObtainToken(Idempotent, ObtainAuthToken):
    """DRF's token view, reading JSON through the bounded parser (and forms, as DRF documents),
    throttled, with its refusals in the schema; its DELETE revokes the caller's token."""

    anyone_may = ("POST",)
    parser_classes = [JSONParser]
    #: The POST keeps no first answer: it would be a credential kept (it answers the account's
    #: one token however often it is asked). The DELETE takes an ``Idempotency-Key``.
    own_idempotency = frozenset({"POST"})

    @extend_schema(
        summary="A token for the Authorization header (Token <key>)",
        description="No authentication needed. A wrong username or password is a 401; wrong "
        "passwords are throttled per account and per address, with a growing wait (429 with "
        "Retry-After).",
        request=inline_serializer(
            "Credentials",
            {"username": serializers.CharField(), "password": serializers.CharField()},
        ),
        examples=[request_example("Olga", {"username": "olga", "password": "correct horse"})],
        responses={
            200: inline_serializer("ApiToken", {"token": serializers.CharField()}),
            400: ERRORS,
            401: ERRORS,
            429: ERRORS,
        },
    )
    def post(self, request, *args, **kwargs):
        data = request.data if isinstance(request.data, dict) else {}
        guard = throttles.login_guard(request, data.get("username", ""))
        wait = guard.wait()
        if wait:
            refusal = Throttled(wait=wait)  # Retry-After comes from its wait
            refusal.detail = ErrorDetail(
                message(throttles.throttled("username", wait)), "throttled"
            )
            raise refusal
        guard.attempt()
        try:
            response = super().post(request, *args, **kwargs)
        except ValidationError as refused:
            if "authorization" not in str(refused.get_codes()):
                raise
            detail = refused.detail.get("non_field_errors", refused.detail)  # type: ignore[union-attr]
            raise AuthenticationFailed(
                str(detail[0] if isinstance(detail, list) else detail)
            ) from None
        guard.succeed()
        return response

    @extend_schema(
        summary="Revoke the caller's token",
        description="The token (or session) of the call is the account's: its token is deleted, "
        "so every program holding it gets 401 from then on. 204 also when the account had none "
        "(a session's call).",
        request=None,
        responses={204: None, 401: ERRORS},
    )
    def delete(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        services.revoke_token(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


obtain_token = ObtainToken.as_view()
