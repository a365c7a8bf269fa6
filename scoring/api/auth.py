"""The API token: ``POST /api/v1/auth/token/`` with a username and password, throttled like the
login page (``scoring.throttles``): a try made while the account or the address must wait is a
429 with ``Retry-After``, in the one error shape, and the password is not even checked."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ErrorDetail, Throttled

from scoring import throttles
from scoring.api.common import ERRORS
from scoring.messages import message


class ObtainToken(ObtainAuthToken):
    @extend_schema(
        summary="A token for the Authorization header (Token <key>)",
        description="Wrong passwords are throttled per account and per address, with a "
        "growing wait (429 with Retry-After).",
        responses={200: ObtainAuthToken.serializer_class, 400: ERRORS, 429: ERRORS},
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
        response = super().post(request, *args, **kwargs)
        guard.succeed()
        return response


obtain_token = ObtainToken.as_view()
