"""One shape for every API error: ``{"errors": [{"hand", "field", "code", "message"}, ...]}``.

Rule problems raised by services become HTTP 400 with the field named; DRF's own validation
errors are flattened into the same list, so a client has one format to read.
"""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.exceptions import APIException, ParseError, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.messages import as_errors
from scoring.rules import RuleViolation


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


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleViolation):
        return Response({"errors": as_errors(exc.problems)}, status=status.HTTP_400_BAD_REQUEST)
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
