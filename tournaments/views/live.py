"""The live streams of a competition: its public screens (standings, projector, bracket, public
round and team standings), the organizer's round page, and the desk.

``competition_stream`` answers as the public pages do (``public_or_404``: a private competition
is 404 but to its club's members). What each reader gets:

- a spectator (no role in the club): ``standings`` events carry the table itself, rendered once
  per version, language and size for every spectator of this process (``fragment``), so that a
  thousand spectators cost a thousand socket writes and no request. A burst of new standings
  within ``LIVE_COALESCE_MS`` is one render and one event (the latest version wins; an older or
  equal version than the one a stream last sent is never sent). A competition made private ends
  its spectators' streams (``gone``);
- a member: every event as published (``standings`` with its version, ``competition``,
  ``table``): their pages fetch what they show through their own access rules and ETags.

``desk_stream`` is the desk's (owners and organizers): the competition's recorded changes.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.http import Http404, HttpRequest
from django.utils import translation
from django.views.decorators.http import require_GET

from scoring import live
from scoring.live.streams import Outgoing, open_stream, read
from scoring.views.live import Opening, Refused, authenticate_stream, decide
from tournaments import selectors
from tournaments.extensions import COMPETITION_RELATED
from tournaments.models import Competition
from tournaments.views.access import organizer_or_404, public_or_404
from tournaments.views.standings_cache import snapshot_stamp, standings_html

#: The render under way (or waiting for its burst to end) per (loop, competition, language, big).
_pending: dict[tuple, asyncio.Future] = {}
#: The tables are rendered one after the other in one thread of the process: rendered side by
#: side (each language and size of each competition at once, after a table finishes) they only
#: took turns at the interpreter's lock, each several times slower (bench/live.py).
_renderer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-render")
_tasks: set[asyncio.Task] = set()
#: When each of those renders last started (the loop's clock), for the coalescing window;
#: forgotten past ``_RENDERED_LIMIT`` tables.
_rendered_at: dict[tuple, float] = {}
_RENDERED_LIMIT = 1024


def _render(competition_id: int, language: str, big: bool) -> tuple[int, str] | None:
    """The public standings table as every spectator gets it; None once not public."""
    competition = (
        Competition.objects.select_related("club", *COMPETITION_RELATED)
        .filter(pk=competition_id)
        .first()
    )
    if competition is None or not competition.public:
        return None
    request = HttpRequest()  # holds the snapshot read once, as a page's request does
    with translation.override(language):
        stamp = snapshot_stamp(request, competition)
        html = standings_html(request, competition, None, stamp=stamp, big=big, shared=False)
        return stamp[0], str(html)


async def fragment(competition_id: int, language: str, big: bool) -> tuple[int, str] | None:
    """The spectators' table after a burst of changes, rendered at most once every
    ``LIVE_COALESCE_MS`` per table: the first change after a quiet spell renders at once (a
    table finishing alone is not held back: bench/live.py measured the standings 250 ms later
    on every spectator's screen when each change waited), a change within the spell waits for
    its end, and every caller meanwhile shares that one render of the latest version. The HTML
    itself comes from the render cache every web process shares (``standings_cache``)."""
    loop = asyncio.get_running_loop()
    key = (id(loop), competition_id, language, big)
    future = _pending.get(key)
    if future is None:
        future = loop.create_future()
        _pending[key] = future

        async def run() -> None:
            try:
                wait = _rendered_at.get(key, -1e9) + settings.LIVE_COALESCE_MS / 1000
                if wait > loop.time():
                    await asyncio.sleep(wait - loop.time())
                if len(_rendered_at) > _RENDERED_LIMIT:
                    _rendered_at.clear()  # forgetting only lets one render come sooner
                _rendered_at[key] = loop.time()
                del _pending[key]  # a change from now on starts a new burst
                result = await read(_render, competition_id, language, big, executor=_renderer)
                future.set_result(result)
            except BaseException as problem:  # every waiter hears of it
                # Only this burst's own entry: once deleted above, a change may already have
                # started the next burst (popping its entry made that one fail with a KeyError,
                # bench/live.py, when a render failed for want of a database connection).
                if _pending.get(key) is future:
                    del _pending[key]
                future.set_exception(problem)
                raise

        _tasks.add(task := loop.create_task(run()))
        task.add_done_callback(_tasks.discard)
    return await asyncio.shield(future)


def _open_competition(request, club_slug: str, slug: str):
    opening = Opening(request)
    authenticate_stream(request, opening)
    competition, role = public_or_404(request, club_slug, slug)
    # The language the page would speak (the visitor's, else the club's), chosen in this
    # thread: the table is rendered in it.
    opening.language = translation.get_language() or settings.LANGUAGE_CODE
    return competition, role, opening


def _competition_state(competition_id: int) -> dict:
    competition = Competition.objects.get(pk=competition_id)
    stamp = selectors.snapshot_stamp(competition)
    return {"id": competition_id, "version": stamp[0] if stamp else None}


@require_GET
async def competition_stream(request, club_slug: str, slug: str):
    """``text/event-stream`` of a competition: ``hello`` / ``reload`` with the standings'
    version (and, for a spectator, the table itself), then ``standings``, ``competition`` and
    ``table`` events."""
    try:
        competition, role, opening = await decide(
            _open_competition, request, club_slug, slug, missing="No such competition."
        )
    except Refused as refusal:
        return refusal.answer
    spectator = role is None
    language = opening.language
    big = request.GET.get("big") == "1"
    sent = [0]  # the standings version this stream last sent

    async def table() -> dict:
        rendered = await fragment(competition.pk, language, big)
        if rendered is None:
            return {"id": competition.pk, "version": None}
        sent[0] = max(sent[0], rendered[0])
        return {"id": competition.pk, "version": rendered[0], "html": rendered[1]}

    async def first() -> dict:
        if spectator:
            return await table()
        return await read(_competition_state, competition.pk)

    async def shape(event):
        if not spectator:
            return Outgoing(event.kind, event.data)
        if event.kind == "competition" and not event.data.get("public", True):
            return Outgoing("gone", {"id": competition.pk}, final=True)
        if event.kind == "standings":
            if event.data.get("version", 0) <= sent[0]:
                return None
            data = await table()
            if data["version"] is None:
                return Outgoing("gone", {"id": competition.pk}, final=True)
            if data["version"] < event.data.get("version", 0):
                return None  # an older table than announced: the next event brings it
            return Outgoing("standings", data)
        return Outgoing(event.kind, event.data)

    return await open_stream(
        request,
        opening,
        channel=live.competition_channel(competition.pk),
        first=first,
        shape=shape,
    )


def _open_desk(request, club_slug: str, slug: str):
    opening = Opening(request)
    authenticate_stream(request, opening)
    competition, _role = organizer_or_404(request, club_slug, slug, manage=True)
    return competition, opening


@require_GET
async def desk_stream(request, club_slug: str, slug: str):
    """``text/event-stream`` of a competition's desk (its owners and organizers): a
    ``competition`` event at each recorded change (registrations, check-ins, fees...)."""
    try:
        competition, opening = await decide(
            _open_desk,
            request,
            club_slug,
            slug,
            missing="No such competition.",
            forbidden="Only the club's organizers follow the desk.",
        )
    except Refused as refusal:
        return refusal.answer

    async def first() -> dict:
        return {"id": competition.pk}

    async def shape(event):
        return Outgoing(event.kind, event.data) if event.kind == "competition" else None

    return await open_stream(
        request,
        opening,
        channel=live.competition_channel(competition.pk),
        first=first,
        shape=shape,
    )


def _slugs(request, competition_id: int) -> tuple[str, str]:
    # A bad token is a 401 before anything is looked up, as on every operation of the API.
    authenticate_stream(request, Opening(request))
    row = Competition.objects.filter(pk=competition_id).values("club__slug", "slug").first()
    if row is None:
        raise Http404
    return row["club__slug"], row["slug"]


@require_GET
async def competition_stream_by_id(request, competition_id: int):
    """The API's address of ``competition_stream``: ``/api/v1/competitions/<id>/events/``."""
    try:
        club_slug, slug = await decide(
            _slugs, request, competition_id, missing="No such competition."
        )
    except Refused as refusal:
        return refusal.answer
    return await competition_stream(request, club_slug, slug)
