"""The deprecation convention of docs/api.md ("Versions and changes"): an operation to be removed
says so in the schema and in every answer, until its sunset date.

    class OldThing(APIView):
        @deprecated(since=date(2027, 1, 10), sunset=date(2027, 7, 10),
                    successor="/api/v1/new-thing/")
        @extend_schema(...)
        def get(self, request): ...
"""

from __future__ import annotations

import functools
from datetime import UTC, date, datetime
from email.utils import format_datetime
from typing import Any

from drf_spectacular.utils import extend_schema


def _epoch(day: date) -> int:
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp())


def deprecation_headers(since: date, sunset: date, successor: str | None) -> dict[str, str]:
    """``Deprecation`` (RFC 9745: since when, as ``@<seconds>``), ``Sunset`` (RFC 8594: an HTTP
    date) and a ``Link`` to what replaces the operation."""
    headers = {
        "Deprecation": f"@{_epoch(since)}",
        "Sunset": format_datetime(
            datetime(sunset.year, sunset.month, sunset.day, tzinfo=UTC), usegmt=True
        ),
    }
    if successor:
        headers["Link"] = f'<{successor}>; rel="successor-version"'
    return headers


def deprecated(*, since: date, sunset: date, successor: str | None = None):
    """Marks a view method deprecated: ``deprecated: true`` in the schema (its description says
    the sunset and what replaces it: written beside it, in ``extend_schema``), and the headers
    on each of its answers, refusals included. A sunset less than six months after ``since`` is
    refused when the module is imported."""
    if (sunset - since).days < 182:
        raise ValueError("A deprecated operation stays at least six months before its sunset.")
    headers = deprecation_headers(since, sunset, successor)

    def decorate(method):
        @functools.wraps(method)
        def answer(view, request, *args: Any, **kwargs: Any):
            try:
                response = method(view, request, *args, **kwargs)
            except Exception as refusal:  # the refusal as DRF answers it, with the headers too
                response = view.handle_exception(refusal)
            for name, value in headers.items():
                response[name] = value
            return response

        return extend_schema(deprecated=True)(answer)

    return decorate
