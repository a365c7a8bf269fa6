"""Who may read what, and who is acting: shared by pages and the API.

Writes are authorised again inside the services (``scoring.services``); this module answers the
questions a page or an API view asks before it calls one: may this request read the game, and
as which :class:`~scoring.services.Actor` does it write?
"""

from __future__ import annotations

import hashlib
import hmac
import time

from django.conf import settings
from django.http import Http404

from scoring.models import HAND_WRITERS, MANAGERS, Club, Game, GameStatus, TableLink, Via
from scoring.selectors import is_public_game, role_of
from scoring.services import Actor

#: The session's table links: ``{game id: {"link": digest of the link's token, "at": time}}``.
TABLE_SESSION_KEY = "table_links"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _table_sessions(request) -> dict[int, str]:
    """``{game id: game status}`` of the table links this session opened with the right PIN and
    that still hold: opened less than ``TABLE_SESSION_HOURS`` ago, with the link as it is now
    (a rotated link ends them). One query, once per request; ended ones leave the session."""
    cached = getattr(request, "_table_sessions", None)
    if cached is not None:
        return cached
    session = getattr(request, "session", None)
    stored = session.get(TABLE_SESSION_KEY, {}) if session is not None else {}
    stored = stored if isinstance(stored, dict) else {}
    now, hours = time.time(), settings.TABLE_SESSION_HOURS
    fresh = {
        int(game_id): opened["link"]
        for game_id, opened in stored.items()
        if str(game_id).isdigit()
        and isinstance(opened, dict)
        and isinstance(opened.get("link"), str)
        and 0 <= now - float(opened.get("at", 0)) < hours * 3600
    }
    result: dict[int, str] = {}
    if fresh:
        links = TableLink.objects.filter(game_id__in=fresh).values_list(
            "game_id", "token", "game__status"
        )
        for game_id, token, status in links:
            if hmac.compare_digest(_digest(token), fresh[game_id]):
                result[game_id] = status
    if session is not None and len(result) != len(stored):
        session[TABLE_SESSION_KEY] = {str(g): stored[str(g)] for g in result}
    request._table_sessions = result
    return result


def table_games(request) -> set[int]:
    """Games whose table link this session holds: their pages are readable."""
    return set(_table_sessions(request))


def table_writable(request) -> set[int]:
    """Games whose hands this session's table link may still write: not once finished (the
    table reads the final scores; corrections are the club's)."""
    return {g for g, status in _table_sessions(request).items() if status == GameStatus.IN_PROGRESS}


def table_answerable(request) -> set[int]:
    """Games whose waiting hands this session's table link may accept or reject: in progress,
    and finished too (the hand that decides a game is checked by the other side after the end;
    its result is provisional until then)."""
    open_ = (GameStatus.IN_PROGRESS, GameStatus.FINISHED)
    return {g for g, status in _table_sessions(request).items() if status in open_}


def open_table(request, link: TableLink) -> None:
    """The right PIN was typed: this session holds ``link`` from now on."""
    stored = dict(request.session.get(TABLE_SESSION_KEY) or {})
    stored[str(link.game_id)] = {"link": _digest(link.token), "at": time.time()}
    request.session[TABLE_SESSION_KEY] = stored
    request.__dict__.pop("_table_sessions", None)


def can_read_game(request, game: Game, role: str | None = None) -> bool:
    """Members of the game's club and the phones holding its table link read it; anyone else
    only while it is public as its club and its competition are now (``is_public_game``: a
    competition made private takes its games with it, whatever their ids)."""
    if role is None:
        role = role_of(request.user, game.club)
    if role is not None or game.pk in table_games(request):
        return True
    return is_public_game(game)


def can_read_club(request, club: Club, role: str | None = None) -> bool:
    return (
        club.results_public
        or (role if role is not None else role_of(request.user, club)) is not None
    )


def actor_for(
    request, game: Game | None = None, via: str = Via.PAGE, *, answering: bool = False
) -> Actor:
    """The actor a write is made as: the logged-in user, or the table link of ``game``."""
    game_id = game.pk if game is not None else None
    return actor_for_game_id(request, game_id, via=via, answering=answering)


def actor_for_game_id(
    request, game_id: int | None, via: str = Via.PAGE, *, answering: bool = False
) -> Actor:
    """``actor_for`` given the game's id only: a hand POST makes no Game to ask it (building
    a model instance costs about a twentieth of the request's CPU). ``answering``: for an
    answer to a waiting hand, which a table link still gives once the game is over."""
    tables = table_answerable(request) if answering else table_writable(request)
    table = game_id if game_id is not None and game_id in tables else None
    if request.user.is_authenticated:
        return Actor(user=request.user, via=via, client=f"user:{request.user.pk}", table_game=table)
    if table is not None:
        return Actor.for_table(table, via=Via.TABLE if via == Via.PAGE else via)
    if game_id is not None and game_id in table_games(request):
        # The table's link, but the game is over: no more writes, yet the same client, so that
        # a resend of the hand that finished it gets its first answer (services.record_hand).
        return Actor(via=Via.TABLE if via == Via.PAGE else via, client=f"table:{game_id}")
    return Actor(via=via, client="anonymous")


def is_manager(role: str | None) -> bool:
    return role in MANAGERS


def writes_hands(role: str | None) -> bool:
    """Owners, organizers and scorers; a ``member`` only reads."""
    return role in HAND_WRITERS


def can_write(request, game: Game, role: str | None) -> bool:
    """Whether this request may enter and correct the game's hands: a scorer or a manager of
    the club, or a phone holding the table's link while the game is in progress."""
    return writes_hands(role) or game.pk in table_writable(request)


def can_answer(request, game: Game, role: str | None) -> bool:
    """Whether this request may accept or reject the game's waiting hands: whoever may write
    them, and a phone holding the table's link after the game's end as well."""
    return writes_hands(role) or game.pk in table_answerable(request)


def readable_game_or_404(request, game: Game) -> str | None:
    """The requester's role in the game's club; 404 unless the game may be read."""
    role = role_of(request.user, game.club)
    if not can_read_game(request, game, role):
        raise Http404
    return role
