"""Every list the API answers is paged by a cursor: ``{"next", "previous", "results"}``.

One class, :class:`Pages` (DRF's ``CursorPagination``), for every list operation of every app:

- the envelope, not a ``Link`` header: generated clients read the body's typed fields (the
  schema declares ``Paginated…List`` components), a header would be invisible to them, and a
  browser's ``fetch`` reads it without CORS exposure rules;
- ``?page_size=`` from 1 to :data:`MAX_PAGE_SIZE` (default :data:`PAGE_SIZE`); anything else is
  a 400 naming ``page_size``, never silently clamped;
- a cursor is signed (``django.core.signing``) with the list's path in its salt: one that this
  list did not give out (edited, forged, another list's) is a 400 naming ``cursor``, never
  DRF's 404 "Invalid cursor" nor a database error on a forged position;
- every list has a stable order ending in a unique field, so a page never repeats or skips a
  row however the rows before it change.

A list read from the database (``page_of_queryset``) is paged by DRF's own cursor (a position
on the ordering's first field). A list a selector assembles in Python (rulesets, ratings, a
competition's rounds with their tables...) is paged by ``page_of_rows`` on a sort key that the
view names: a tuple of the row's values ending in its unique id, kept in the cursor.
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.core import signing
from django.utils.translation import gettext_lazy as _
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from scoring.api.errors import Refused

#: The rows of a page unless ``?page_size=`` says otherwise.
PAGE_SIZE = 50
#: The most rows one page may hold.
MAX_PAGE_SIZE = 200
#: The query parameters of paging, which strict query readers leave to this module.
PARAMETERS = ("cursor", "page_size")

Key = tuple[Any, ...]


class Pages(CursorPagination):
    page_size = PAGE_SIZE
    max_page_size = MAX_PAGE_SIZE
    page_size_query_param = "page_size"
    ordering = ("-pk",)
    cursor_query_description = _(
        "The `next` or `previous` link's cursor, as given: leave it out for the first page."
    )
    page_size_query_description = _("Rows per page.")

    def __init__(self, ordering: Sequence[str] | None = None):
        if ordering is not None:
            self.ordering = tuple(ordering)

    # The request's paging ------------------------------------------------------------------

    def get_page_size(self, request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not raw.isdigit() or not 1 <= int(raw) <= self.max_page_size:
            raise Refused.rule("page_size", "range", min=1, max=self.max_page_size, value=raw)
        return int(raw)

    def _salt(self) -> str:
        return f"segnapunti.api.page:{self.request.path}"

    def decode_cursor(self, request) -> Cursor | None:
        encoded = request.query_params.get(self.cursor_query_param)
        if encoded is None:
            return None
        try:
            tokens = signing.loads(encoded, salt=f"segnapunti.api.page:{request.path}")
            offset, reverse, position = tokens["o"], tokens["r"], tokens["p"]
        except (signing.BadSignature, TypeError, KeyError, ValueError):
            raise Refused.rule("cursor", "invalid", reason="cursor") from None
        if not isinstance(offset, int) or not 0 <= offset <= self.offset_cutoff:
            raise Refused.rule("cursor", "invalid", reason="cursor")
        return Cursor(offset=offset, reverse=bool(reverse), position=position)

    def encode_cursor(self, cursor: Cursor) -> str:
        tokens = {"o": cursor.offset, "r": cursor.reverse, "p": cursor.position}
        encoded = signing.dumps(tokens, salt=self._salt(), compress=True)
        return replace_query_param(self.base_url, self.cursor_query_param, encoded)

    # Rows assembled in Python --------------------------------------------------------------

    def paginate_rows(self, rows: Iterable[Any], request, *, key: Callable[[Any], Key]) -> list:
        """The page of ``rows`` (in the order of ``key``, unique per row) the request asks."""
        self.request = request
        self.page_size = self.get_page_size(request)
        self.base_url = request.build_absolute_uri()
        cursor = self.decode_cursor(request)
        ordered = sorted(rows, key=key)
        keys = [key(row) for row in ordered]
        start, end = 0, self.page_size
        if cursor is not None:
            position = self._key_of(cursor)
            try:
                if cursor.reverse:
                    end = bisect_left(keys, position)
                    start = max(0, end - self.page_size)
                else:
                    start = bisect_right(keys, position)
                    end = start + self.page_size
            except TypeError:  # a key of another shape: not this list's cursor
                raise Refused.rule("cursor", "invalid", reason="cursor") from None
        end = min(end, len(keys))
        self._links = (
            self._link(keys[end - 1], False) if end < len(keys) and end > start else None,
            self._link(keys[start], True) if 0 < start < len(keys) else None,
        )
        return ordered[start:end]

    def _key_of(self, cursor: Cursor) -> Key:
        try:
            value = json.loads(cursor.position)
        except (TypeError, ValueError):
            value = None
        if not isinstance(value, list):
            raise Refused.rule("cursor", "invalid", reason="cursor")
        return tuple(value)

    def _link(self, key: Key, reverse: bool) -> str:
        position = json.dumps(list(key), separators=(",", ":"))
        return self.encode_cursor(Cursor(offset=0, reverse=reverse, position=position))

    def rows_response(self, data: list) -> Response:
        following, preceding = self._links
        return Response({"next": following, "previous": preceding, "results": data})

    # The schema ----------------------------------------------------------------------------

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        link = {"type": "string", "nullable": True, "format": "uri"}
        return {
            "type": "object",
            "required": ["next", "previous", "results"],
            "properties": {
                "next": link | {"description": "The next page's address; null on the last page."},
                "previous": link
                | {"description": "The previous page's address; null on the first page."},
                "results": schema,
            },
        }

    def get_schema_operation_parameters(self, view) -> list[dict[str, Any]]:
        cursor, size = super().get_schema_operation_parameters(view)
        size["schema"] |= {"minimum": 1, "maximum": self.max_page_size, "default": self.page_size}
        return [cursor, size]


def page_of_rows(request, rows: Iterable[Any], *, key: Callable[[Any], Key], serialize) -> Response:
    """The answer of a list assembled in Python: the page of ``rows`` ordered by ``key``
    (a tuple ending in a unique value), each row made into its JSON by ``serialize``."""
    pages = Pages()
    page = pages.paginate_rows(rows, request, key=key)
    return pages.rows_response(serialize(page))


def page_of_queryset(request, queryset, *, ordering: Sequence[str], serialize) -> Response:
    """The answer of a list read from the database, in ``ordering`` (ending in a unique
    field): DRF's cursor on the ordering's first field."""
    pages = Pages(ordering)
    page = pages.paginate_queryset(queryset, request)
    return pages.get_paginated_response(serialize(page))
