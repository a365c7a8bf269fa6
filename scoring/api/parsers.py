"""The one JSON parser of both apps' APIs: size and depth capped before any parsing.

Python's ``json`` parser recurses once per nesting level, so a body of 100,000 ``[`` raises a
``RecursionError`` (a 500) before any serializer sees it. :class:`JSONParser` reads at most
``REQUEST_MAX_BYTES`` (413 beyond), then counts the nesting of the raw text in one pass, outside
strings (400 beyond ``JSON_MAX_DEPTH``), and only then parses. Every string of the result, keys
included, is then checked for what no database column can hold (NUL, lone surrogates), named
by its path (``players[2]``, ``hands.3.points``). Typed text gets the full check of
``scoring.validators`` in the fields that read it.

It is ``DEFAULT_PARSER_CLASSES`` and every view that sets ``parser_classes`` uses it.
"""

from __future__ import annotations

import codecs
import re
from typing import Any

from django.conf import settings
from rest_framework import parsers, status
from rest_framework.exceptions import ParseError
from rest_framework.utils import json

from scoring.rules.base import join

#: What matters for the nesting: brackets, and the quotes and backslashes around strings.
_STRUCTURE = re.compile(r'[\[\]{}"\\]')
#: What no column can store: PostgreSQL refuses NUL, and lone surrogates have no UTF-8.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def nesting_exceeds(text: str, limit: int) -> bool:
    """Whether the JSON ``text`` opens more than ``limit`` arrays/objects inside each other.
    One pass over the structural characters; brackets inside strings do not count."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth, in_string, escaped_at = 0, False, -1
    for found in _STRUCTURE.finditer(text):
        at, char = found.start(), found.group()
        if at == escaped_at:
            continue
        if in_string:
            if char == "\\":
                escaped_at = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def unstorable_at(value: Any, path: str = "") -> tuple[str, str] | None:
    """The path and code point (``U+0000``) of the first string that holds a character no
    column can store, keys included; None when there is none. The depth is already capped."""
    if isinstance(value, str):
        found = _UNSTORABLE.search(value)
        return None if found is None else (path, f"U+{ord(found.group()):04X}")
    if isinstance(value, dict):
        for key, item in value.items():
            here = join(path, key)
            found = unstorable_at(key, here) or unstorable_at(item, here)
            if found:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = unstorable_at(item, join(path, index))
            if found:
                return found
    return None


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, bounded: 413 over ``REQUEST_MAX_BYTES``, 400 ``too_deep`` over
    ``JSON_MAX_DEPTH``, 400 ``control_character`` for NUL or a lone surrogate."""

    def parse(self, stream, media_type=None, parser_context=None):
        # Imported here: DRF reads DEFAULT_PARSER_CLASSES while rest_framework.views loads,
        # which scoring.api_errors itself imports.
        from scoring.api.errors import Refused

        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        limit = settings.REQUEST_MAX_BYTES
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise Refused(
                status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, "document", "too_large", max=limit
            )
        try:
            text = codecs.decode(raw, encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        depth = settings.JSON_MAX_DEPTH
        if nesting_exceeds(text, depth):
            raise Refused.rule("document", "too_deep", max=depth)
        try:
            parse_constant = json.strict_constant if self.strict else None
            data = json.loads(text, parse_constant=parse_constant)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        found = unstorable_at(data)
        if found is not None:
            path, character = found
            raise Refused.rule(path or "document", "control_character", value=character)
        return data
