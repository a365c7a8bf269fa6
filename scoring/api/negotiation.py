"""Content negotiation with a short way for what phones send.

DRF's negotiation parses the query string (for ``?format=``) and the ``Accept`` header into
media types on every request, then matches them against each renderer: about a twentieth of a
hand POST's CPU (bench/profile_hand.py). A phone's request names no format and accepts JSON or
anything (no ``Accept``, ``*/*``, ``application/json``): for those the answer is the first
renderer, JSON, which is what the full negotiation would choose. Anything else (a browser asking
for HTML, ``?format=api``, a suffix, parameters in the header) goes the whole way.
"""

from __future__ import annotations

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import JSONRenderer

#: ``Accept`` values that the first renderer (JSON) answers as DRF would.
JSON_ACCEPTS = frozenset({"", "*/*", "application/json"})


class ShortcutNegotiation(DefaultContentNegotiation):
    def select_renderer(self, request, renderers, format_suffix=None):
        if (
            not format_suffix
            and renderers
            and isinstance(renderers[0], JSONRenderer)
            and "format=" not in request._request.META.get("QUERY_STRING", "")
        ):
            accept = request._request.META.get("HTTP_ACCEPT", "").strip()
            if accept in JSON_ACCEPTS:
                first = renderers[0]
                return first, accept if accept == first.media_type else first.media_type
        return super().select_renderer(request, renderers, format_suffix)
