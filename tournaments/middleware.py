"""The spectators' poll of the public standings, answered before the middleware stack (issue
26, point 4: a thousand spectators on a results night must not slow the phones down).

A public standings page polls its table every 15 s (htmx, ``HX-Request``). For an anonymous
visitor every such poll of one competition is the same request: the same table, the same ETag,
the same headers. The first one a gunicorn process serves goes through Django as any request
does, and the answer is kept in that process (``Kept``); the next polls asking the same thing
are answered from it, a 304 to a poll that holds its ETag and the kept 200 to the others, after
one query proving it still current: the standings snapshot's version and time are still those
that named the table, and the competition is still public. That query is what a poll then
costs, instead of the whole middleware stack, the competition's query and the ETag's.

What makes two polls the same (``poll_key``): the scheme, the host, the path and query, the
``Accept-Language`` header and the language cookie (what picks the language), and no cookie but
the CSRF token and the language (no session: no member, no table link, no message waiting).
Only answers a view marked as shared are kept (``share``: the standings view marks its polled
table for an anonymous viewer, with the competition and the snapshot's stamp that name it), and
never an answer that sets a cookie.

Exact where it matters: a hand that changes the standings bumps the snapshot's version and the
next poll goes through Django at once; a competition made private answers 404 at once. The other
settings the table shows (its format, scheme, best-N, the club's public player pages) reach the
polls within ``LIFETIME`` seconds, as with a micro-cache in a reverse proxy; a database that
cannot answer the check sends the poll through Django, whose answer to an outage stands.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from functools import cache

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.http import parse_etags

from tournaments.models import Competition, StandingsSnapshot

#: Seconds a kept answer serves at most: how soon a setting the table shows reaches the polls.
LIFETIME = 10.0
#: Answers kept per process (competitions × languages × projector sizes on a busy night).
CAPACITY = 512

Stamp = tuple[int, datetime]


@dataclass(frozen=True)
class Kept:
    """An answer to a poll, kept with what names it."""

    competition: int
    stamp: Stamp
    etag: str
    headers: tuple[tuple[str, str], ...]
    content: bytes | None  # None when kept from a 304: it answers only polls holding its ETag
    until: float

    def answer(self, request: HttpRequest) -> HttpResponse | None:
        if self.etag in parse_etags(request.headers.get("If-None-Match", "")):
            response = HttpResponseNotModified()
            skipped = ("content-type", "content-length")
        elif self.content is None:
            return None
        else:
            response, skipped = HttpResponse(self.content), ("content-length",)
        for name, value in self.headers:
            if name.lower() not in skipped:
                response[name] = value
        # As CommonMiddleware would have set it.
        response["Content-Length"] = str(len(response.content))
        return response


_kept: OrderedDict[tuple, Kept] = OrderedDict()
_lock = threading.Lock()


def share(request: HttpRequest, competition: int, stamp: Stamp) -> None:
    """Mark the answer to this request as the same for every anonymous poll that asks the same
    thing, while ``competition``'s standings keep ``stamp`` (a view's ETag function calls it)."""
    request.shared_poll = (competition, stamp)


def poll_key(request: HttpRequest) -> tuple | None:
    """What two anonymous polls must share to get the same answer; None for any other request."""
    if request.method != "GET" or request.META.get("HTTP_HX_REQUEST") != "true":
        return None
    allowed = (settings.CSRF_COOKIE_NAME, settings.LANGUAGE_COOKIE_NAME)
    if any(name not in allowed for name in request.COOKIES):
        return None
    meta = request.META
    return (
        request.scheme,
        meta.get("HTTP_X_FORWARDED_HOST", ""),
        meta.get("HTTP_HOST") or meta.get("SERVER_NAME", ""),
        request.path,
        meta.get("QUERY_STRING", ""),
        meta.get("HTTP_ACCEPT_LANGUAGE", ""),
        request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, ""),
    )


def recall(key: tuple) -> Kept | None:
    with _lock:
        kept = _kept.get(key)
        if kept is None:
            return None
        if kept.until < time.monotonic():
            del _kept[key]
            return None
        _kept.move_to_end(key)
        return kept


def keep(key: tuple, request: HttpRequest, response: HttpResponse) -> None:
    shared = getattr(request, "shared_poll", None)
    etag = response.get("ETag")
    if (
        shared is None
        or etag is None
        or response.status_code not in (200, 304)
        or response.streaming
        or response.cookies
    ):
        return
    competition, stamp = shared
    kept = Kept(
        competition=competition,
        stamp=stamp,
        etag=etag,
        headers=tuple(response.items()),
        content=response.content if response.status_code == 200 else None,
        until=time.monotonic() + LIFETIME,
    )
    with _lock:
        previous = _kept.get(key)
        if kept.content is None and previous is not None and previous.etag == etag:
            return  # a 304 never replaces the 200 it confirms
        _kept[key] = kept
        _kept.move_to_end(key)
        while len(_kept) > CAPACITY:
            _kept.popitem(last=False)


def forget() -> None:
    """Drop every kept answer (tests)."""
    with _lock:
        _kept.clear()


@cache
def _stamp_query() -> str:
    snapshots, competitions = StandingsSnapshot._meta.db_table, Competition._meta.db_table
    return (
        f"SELECT s.version, s.computed_at FROM {snapshots} s "
        f"JOIN {competitions} c ON c.id = s.competition_id "
        "WHERE s.competition_id = %s AND c.public"
    )


def current(kept: Kept) -> bool:
    """Whether the competition is still public and its standings still carry the kept stamp:
    one query, written by hand since it is all a poll costs now."""
    try:
        with connection.cursor() as cursor:
            cursor.execute(_stamp_query(), [kept.competition])
            row = cursor.fetchone()
    except DatabaseError:
        return False
    if row is None:
        return False
    version, computed_at = row
    # SQLite hands the time back as text; PostgreSQL as the datetime the ORM reads.
    convert = getattr(connection.ops, "convert_datetimefield_value", lambda value, *_: value)
    computed_at = convert(computed_at, None, connection)
    return (version, computed_at) == kept.stamp


class SpectatorPolls:
    """Answers an anonymous poll from the answer kept for it while that is still current."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = poll_key(request)
        if key is None:
            return self.get_response(request)
        kept = recall(key)
        answer = kept.answer(request) if kept is not None else None
        if answer is not None and current(kept):
            return answer
        response = self.get_response(request)
        keep(key, request, response)
        return response
