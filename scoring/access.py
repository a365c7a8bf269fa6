"""Who may read what, and who is acting: shared by pages and the API.

Writes are authorised again inside the services (``scoring.services``); this module answers the
questions a page or an API view asks before it calls one: may this request read the game, and
as which :class:`~scoring.services.Actor` does it write?
"""

from __future__ import annotations

from django.http import Http404

from scoring.models import HAND_WRITERS, MANAGERS, Club, Game, GameStatus, Via
from scoring.selectors import role_of
from scoring.services import Actor

TABLE_SESSION_KEY = "table_games"


def table_games(request) -> set[int]:
    """Games whose table link (with the right PIN) this browser session has opened."""
    return set(request.session.get(TABLE_SESSION_KEY, [])) if hasattr(request, "session") else set()


def open_table(request, game: Game) -> None:
    games = table_games(request)
    games.add(game.pk)
    request.session[TABLE_SESSION_KEY] = sorted(games)


def can_read_game(request, game: Game, role: str | None = None) -> bool:
    if role is None:
        role = role_of(request.user, game.club)
    if role is not None or game.pk in table_games(request):
        return True
    if game.public_live:  # e.g. played at a public competition's table, even in a private club
        return True
    return game.club.results_public and game.status in (GameStatus.FINISHED, GameStatus.ABANDONED)


def can_read_club(request, club: Club, role: str | None = None) -> bool:
    return (
        club.results_public
        or (role if role is not None else role_of(request.user, club)) is not None
    )


def actor_for(request, game: Game | None = None, via: str = Via.PAGE) -> Actor:
    """The actor a write is made as: the logged-in user, or the table link of ``game``."""
    table = game.pk if game is not None and game.pk in table_games(request) else None
    if request.user.is_authenticated:
        return Actor(user=request.user, via=via, client=f"user:{request.user.pk}", table_game=table)
    if table is not None:
        return Actor.for_table(table, via=Via.TABLE if via == Via.PAGE else via)
    return Actor(via=via, client="anonymous")


def is_manager(role: str | None) -> bool:
    return role in MANAGERS


def writes_hands(role: str | None) -> bool:
    """Owners, organizers and scorers; a ``member`` only reads."""
    return role in HAND_WRITERS


def readable_game_or_404(request, game: Game) -> str | None:
    """The requester's role in the game's club; 404 unless the game may be read."""
    role = role_of(request.user, game.club)
    if not can_read_game(request, game, role):
        raise Http404
    return role
