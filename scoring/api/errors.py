"""One shape for every API error: ``{"errors": [{"hand", "field", "code", "message"}, ...]}``,
and the one place where a refusal becomes an HTTP status (REST_FRAMEWORK's EXCEPTION_HANDLER).

=========================================  ======  =========================================
raised                                     status  error
=========================================  ======  =========================================
``Locked`` (a locked game or competition)   409    ``locked``, why and who can reopen it
``Conflict`` (the game's state refuses it)  409    e.g. ``already_entered``, ``game_abandoned``
``RuleViolation`` (rules, services, input)  400    one per problem, ``scoring.messages``
``Refused`` (a view's own precondition)    given   its field and code
``NotAllowed`` (a service's refusal)        403    ``permission_denied``, the view's sentence
``HandNotFound``                            404    ``not_found`` on ``number``
``DoesNotExist``, ``Http404``               404    ``not_found``
``VersionConflict``                         412    ``stale`` on ``If-Match``, ``current_version``
``IdempotencyConflict``                     422    ``reused`` on ``Idempotency-Key``
DRF's own (parse errors, authentication)    theirs flattened into the same list
``RequestDataTooBig`` (Django's body limit)  413    ``too_large`` on ``document``
=========================================  ======  =========================================

What never reaches a DRF view (no URL matched, a crash, Django's own 400/413) answers in the
same shape through :func:`error_body`, which ``config.middleware.ApiErrors`` uses for every
error response under ``/api/``.

A caller who may not even read an object must get a 404, not a 403. Most views make sure of
that before they call a service (``tournaments.api.common.readable_competition``...); the game
writes, whose query count is pinned, let the service refuse first and answer ``may_read`` here.
The view names what was refused with its ``not_allowed_message``. Anything else is a bug and
stays a 500.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status
from rest_framework.exceptions import (
    APIException,
    NotFound,
    ParseError,
    PermissionDenied,
    ValidationError,
)
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.messages import as_errors, message
from scoring.rules import Problem, RuleViolation
from scoring.services import (
    Conflict,
    HandNotFound,
    IdempotencyConflict,
    NotAllowed,
    VersionConflict,
)

DEFAULT_NOT_ALLOWED = gettext_lazy("You may not change this.")


class Refused(Exception):
    """A refusal a view decides before any service runs (a header missing...): ``problem``
    worded by ``scoring.messages``, answered with ``status_code``."""

    def __init__(self, status_code: int, field: str, code: str, **params: Any):
        self.status_code = status_code
        self.problem = Problem(field, code, params)
        super().__init__(f"{field}: {code}")

    @classmethod
    def rule(cls, field: str, code: str, **params: Any) -> Refused:
        return cls(status.HTTP_400_BAD_REQUEST, field, code, **params)


def _one(status_code: int, field: str | None, code: str, text: str, **extra: Any) -> Response:
    error = {"hand": None, "field": field, "code": code, "message": str(text)} | extra
    return Response({"errors": [error]}, status=status_code)


def _flatten(detail: Any, path: str = "") -> list[dict[str, Any]]:
    if isinstance(detail, dict):
        items = []
        for key, value in detail.items():
            sub = key if not path else f"{path}.{key}"
            if key == "non_field_errors":
                sub = path or "document"
            items.extend(_flatten(value, sub))
        return items
    if isinstance(detail, list):
        if all(not isinstance(v, dict | list) for v in detail):
            return [
                {
                    "hand": None,
                    "field": path or "document",
                    "code": getattr(v, "code", "invalid"),
                    "message": str(v),
                }
                for v in detail
            ]
        items = []
        for index, value in enumerate(detail):
            items.extend(_flatten(value, f"{path}[{index}]"))
        return items
    return [
        {
            "hand": None,
            "field": path or "document",
            "code": getattr(detail, "code", "invalid"),
            "message": str(detail),
        }
    ]


def _mapped(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The response of a refusal raised by our own code, or None for anything else."""
    if isinstance(exc, Conflict):  # a RuleViolation, but not one the caller can fix by editing
        return Response({"errors": as_errors(exc.problems)}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, RuleViolation):
        return Response({"errors": as_errors(exc.problems)}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Refused):
        return Response({"errors": as_errors([exc.problem])}, status=exc.status_code)
    if isinstance(exc, NotAllowed):
        may_read = getattr(context.get("view"), "may_read", None)
        if may_read is not None and not may_read(context["request"], **context.get("kwargs", {})):
            return _one(status.HTTP_404_NOT_FOUND, None, "not_found", _("Not found."))
        text = getattr(context.get("view"), "not_allowed_message", None) or DEFAULT_NOT_ALLOWED
        return _one(status.HTTP_403_FORBIDDEN, None, "permission_denied", text)
    if isinstance(exc, HandNotFound):
        problem = Problem("number", "not_found", {"reason": "hand", "number": exc.number})
        return _one(status.HTTP_404_NOT_FOUND, "number", "not_found", message(problem))
    if isinstance(exc, ObjectDoesNotExist):  # a game, or a round deleted meanwhile
        return _one(status.HTTP_404_NOT_FOUND, None, "not_found", _("Not found."))
    if isinstance(exc, VersionConflict):
        params = {"number": exc.number, "version": exc.current}
        if exc.reason:
            params["reason"] = exc.reason
        problem = Problem("If-Match", "stale", params)
        return _one(
            status.HTTP_412_PRECONDITION_FAILED,
            "If-Match",
            "stale",
            message(problem),
            current_version=exc.current,
        )
    if isinstance(exc, IdempotencyConflict):
        problem = Problem("Idempotency-Key", "reused")
        return _one(422, "Idempotency-Key", "reused", message(problem))
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body(413), status=413)
    return None


#: The code and sentence of an error response that no view worded (DRF's own, translated).
_BY_STATUS: dict[int, tuple[str, Any]] = {
    400: (exceptions.ValidationError.default_code, exceptions.ValidationError.default_detail),
    401: (exceptions.NotAuthenticated.default_code, exceptions.NotAuthenticated.default_detail),
    403: (exceptions.PermissionDenied.default_code, exceptions.PermissionDenied.default_detail),
    404: (exceptions.NotFound.default_code, exceptions.NotFound.default_detail),
    406: (exceptions.NotAcceptable.default_code, exceptions.NotAcceptable.default_detail),
    429: (exceptions.Throttled.default_code, exceptions.Throttled.default_detail),
    503: (
        "unavailable",
        gettext_lazy("The service is briefly unavailable: try again in a moment."),
    ),
}


def error_body(status_code: int, method: str = "") -> dict[str, Any]:
    """The one error shape for a bare status: a crash (500), an unknown URL (404), a body over
    ``REQUEST_MAX_BYTES`` (413)..."""
    if status_code == 413:
        limit = settings.REQUEST_MAX_BYTES
        problem = Problem("document", "too_large", {"max": limit})
        return {"errors": as_errors([problem])}
    if status_code == 405:
        code, text = "method_not_allowed", exceptions.MethodNotAllowed(method or "?").detail
    elif status_code in _BY_STATUS:
        code, text = _BY_STATUS[status_code]
    elif status_code >= 500:
        code, text = APIException.default_code, APIException.default_detail
    else:
        code, text = "error", exceptions.APIException.default_detail
    return {"errors": [{"hand": None, "field": None, "code": code, "message": str(text)}]}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    mapped = _mapped(exc, context)
    if mapped is not None:
        return mapped
    if isinstance(exc, Http404):
        exc = NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError):
        response.data = {"errors": _flatten(exc.detail)}
    elif isinstance(exc, APIException):
        field = "document" if isinstance(exc, ParseError) else None
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
        response.data = {
            "errors": [{"hand": None, "field": field, "code": code, "message": str(exc.detail)}]
        }
    return response
