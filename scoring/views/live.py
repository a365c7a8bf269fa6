"""The live streams of scoring: a game's (the phones at the table, the scoreboard, a spectator's
game page, an API client) and a player's own (My games). Each answers only those who may read
the thing, as its page does (404 otherwise), and follows ``scoring.live.streams``.

The decision is made once, when the stream opens, through the same lookups as the pages
(``game_or_404``): a stream then costs no query while it is idle. What could end the right to
read later ends the stream instead: a logout (the session's channel), a revoked token (the
token's), a renewed table link (the game's ``link`` event, for a stream opened on the link's
strength), an account deactivated (the user's channel), the session's own expiry (checked at
each heartbeat).

API clients authenticate with ``Authorization: Token <key>``, as everywhere in the API; a
browser's session works too.
"""

from __future__ import annotations

import asyncio
import time

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.views.decorators.http import require_GET
from rest_framework import exceptions

from scoring import access, live
from scoring.api.authentication import CachedTokenAuthentication
from scoring.live.streams import END, Outgoing, open_stream, read, refused
from scoring.models import Game
from scoring.throttles import client_address
from scoring.views.access import game_or_404


class Opening:
    """What a stream view decided in its one trip to the database."""

    def __init__(self, request) -> None:
        self.control: list[str] = []
        self.deadline: float | None = None
        self.by_link = False
        self.address = client_address(request)


def authenticate_stream(request, opening: Opening) -> None:
    """``Authorization: Token <key>`` names the user (401 otherwise); else the session's."""
    header = request.headers.get("Authorization", "")
    if header:
        scheme, _, key = header.partition(" ")
        if scheme.lower() != "token" or not key.strip():
            raise exceptions.AuthenticationFailed("Give the token as 'Authorization: Token …'.")
        user, _token = CachedTokenAuthentication().authenticate_credentials(key.strip())
        request.user = user
        opening.control.append(live.token_channel(key.strip()))
        opening.control.append(live.user_channel(user.pk))
        return
    session = getattr(request, "session", None)
    if session is None or session.session_key is None:
        return
    if request.user.is_authenticated:
        opening.control.append(live.session_channel(session.session_key))
        opening.control.append(live.user_channel(request.user.pk))
    opening.deadline = session.get_expiry_date().timestamp()


class Refused(Exception):
    """A stream view's lookups said no: ``answer`` is the refusal to send."""

    def __init__(self, answer) -> None:
        self.answer = answer


#: Stream openings making their lookups at once, per event loop (a process has one): each
#: takes a database connection, and a room reconnecting together (a restart, Redis back) must
#: not take more than PostgreSQL gives; the others wait their turn, a few milliseconds each.
OPENINGS_AT_ONCE = 8
_openings: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}


def _turns() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    if loop not in _openings:
        for gone in [other for other in _openings if other.is_closed()]:
            del _openings[gone]
        _openings[loop] = asyncio.Semaphore(OPENINGS_AT_ONCE)
    return _openings[loop]


async def decide(open_, request, *args, missing: str, forbidden: str = "Not yours to follow."):
    """``open_(request, *args)`` in the request's own thread (the page's lookups, its session),
    its connections closed after, at most ``OPENINGS_AT_ONCE`` at a time; ``Refused`` with the
    answer when it says no: 404 (``missing``), 403 (``forbidden``) or 401 (a bad token)."""
    try:
        async with _turns():
            return await read(open_, request, *args, thread_sensitive=True)
    except Http404:
        raise Refused(refused(404, missing)) from None
    except PermissionDenied:
        raise Refused(refused(403, forbidden)) from None
    except exceptions.AuthenticationFailed as problem:
        raise Refused(refused(401, str(problem.detail))) from None


def _table_deadline(request, game_id: int) -> float | None:
    opened = (request.session.get(access.TABLE_SESSION_KEY) or {}).get(str(game_id)) or {}
    try:
        return float(opened["at"]) + settings.TABLE_SESSION_HOURS * 3600
    except (KeyError, TypeError, ValueError):
        return None


def _open_game(request, game_id: int):
    opening = Opening(request)
    authenticate_stream(request, opening)
    game, role = game_or_404(request, game_id)
    opening.by_link = role is None and game.pk in access.table_games(request)
    if opening.by_link:
        ends = _table_deadline(request, game.pk)
        if ends is not None:
            opening.deadline = min(filter(None, (opening.deadline, ends)))
    return game, opening


def _game_state(game_id: int) -> dict:
    row = Game.objects.filter(pk=game_id).values("version", "status").first() or {}
    return {"id": game_id, "version": row.get("version"), "status": row.get("status")}


@require_GET
async def game_stream(request, game_id: int):
    """``text/event-stream`` of a game: ``hello`` / ``reload`` with its version and status,
    then a ``game`` event at each change (``id``, ``version``, ``status``, ``change``)."""
    try:
        game, opening = await decide(_open_game, request, game_id, missing="No such game.")
    except Refused as refusal:
        return refusal.answer

    async def first() -> dict:
        return await read(_game_state, game.pk)

    async def shape(event):
        if event.kind == "link":
            # A renewed table link: a stream opened on the old one's strength ends with it.
            return END if opening.by_link else None
        return Outgoing(event.kind, event.data)

    return await open_stream(
        request,
        opening,
        channel=live.game_channel(game.pk),
        first=first,
        shape=shape,
    )


def _open_own(request):
    opening = Opening(request)
    authenticate_stream(request, opening)
    if not request.user.is_authenticated:
        raise Http404
    return request.user.pk, opening


@require_GET
async def my_stream(request):
    """``text/event-stream`` of the signed-in player's own news: a ``table`` event when a
    round seats them (``competition``, ``round``, ``table``, ``url``)."""
    try:
        user_id, opening = await decide(
            _open_own, request, missing="Sign in to follow your own games."
        )
    except Refused as refusal:
        return refusal.answer

    async def first() -> dict:
        return {"user": user_id, "at": int(time.time())}

    return await open_stream(
        request,
        opening,
        channel=live.user_channel(user_id),
        first=first,
    )
