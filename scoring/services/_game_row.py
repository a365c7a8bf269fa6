"""The game row under a write: locked for the actor that may change it, refused once abandoned
or while locked (a closed round), and its cache of the engine's figures refreshed. Private to ``scoring.services``; shared by the
game writes (``games``) and the hand writes (``hands``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from django.db.models import Exists
from django.utils import timezone

from scoring import selectors
from scoring.etags import Tag, game_tag, hand_tag
from scoring.extensions import UNFINISHING_GUARDS
from scoring.models import HAND_WRITERS, Game, GameStatus, Hand, IdempotencyRecord
from scoring.rules import ScoredGame
from scoring.services.actors import (
    Actor,
    Conflict,
    Locked,
    VersionConflict,
    _authorize,
    _role_subquery,
)


def refuse_unfinishing(game: Game) -> None:
    """Run the ``UNFINISHING_GUARDS`` of the apps built on scoring for ``game`` (locked, still as
    stored): a write about to take it from finished to unfinished or abandoned is refused when
    one of them says so (a game of a closed round)."""
    if game.status == GameStatus.FINISHED:
        for guard in UNFINISHING_GUARDS:
            guard(game)


def _cache_fields(game: Game, scored: ScoredGame) -> None:
    """Copy the engine's figures into the game row's cache (refused by ``refuse_unfinishing``
    when they take a finished game back to unfinished)."""
    if game.status == GameStatus.FINISHED and scored.status != GameStatus.FINISHED:
        refuse_unfinishing(game)
    game.hand_count = scored.state.hands_played
    game.totals = list(scored.totals)
    game.card_points = None if scored.state.card_points is None else list(scored.state.card_points)
    game.last_dealer = scored.state.last_dealer
    if game.status != GameStatus.ABANDONED:
        was = game.status
        game.status = scored.status
        if scored.status == GameStatus.FINISHED and was != GameStatus.FINISHED:
            game.finished_at = timezone.now()
        elif scored.status == GameStatus.IN_PROGRESS:
            game.finished_at = None


CACHE_FIELDS = [
    "hand_count",
    "totals",
    "card_points",
    "last_dealer",
    "status",
    "finished_at",
    "version",
    "last_hand_serial",
]


def _locked(
    game: Game | int,
    by: Actor,
    *,
    table_link_may: bool = True,
    idempotency_key: str | None = None,
    roles: Sequence[str] = HAND_WRITERS,
) -> Game:
    """The game row, locked for the rest of the transaction, once ``by`` may change it: a
    member of the club holding one of ``roles``, or (unless ``table_link_may`` is false) the
    game's table link.
    One query: the actor's role, and whether ``idempotency_key`` was seen, come along as
    subqueries."""
    pk = game.pk if isinstance(game, Game) else game
    rows = (
        Game.objects.select_for_update(no_key=True, of=("self",))
        .select_related("club")
        .annotate(actor_role=_role_subquery(by.user))
    )
    if idempotency_key:
        seen = IdempotencyRecord.objects.filter(client=by.client, key=idempotency_key)
        rows = rows.annotate(seen_key=Exists(seen))
    locked = rows.get(pk=pk)
    _authorize(
        by,
        role=locked.actor_role,
        roles=roles,
        table_game=locked.pk if table_link_may else None,
    )
    return locked


def _refuse_if_abandoned(game: Game) -> None:
    """A game that is gone answers as gone: 409 (the game's state, not the hand's values), so that
    a phone keeps what it typed with the reason instead of taking it for a wrong hand."""
    if game.status == GameStatus.ABANDONED:
        raise Conflict("game", "game_abandoned", reason=game.abandon_reason)


def _refuse_if_reseated(game: Game, seating: int | None) -> None:
    """A hand typed for seats that changed since (``seating``: the game's seating version its
    page showed, None when the client did not say) is refused (409), naming who replaced whom,
    instead of being credited to whoever sits there now."""
    if seating is not None and seating != game.seating:
        raise Conflict("seating", "seating_changed", **selectors.seating_change(game, seating))


def _refuse_if_locked(game: Game) -> None:
    """Every hand write (and abandoning) is refused while the game is locked."""
    if game.locked_at is not None:
        raise Locked("game", game.lock_reason, **game.lock_context)


def _check_expected(game: Game, hand: Hand, expected: Collection[Tag]) -> None:
    """Raise VersionConflict unless one of the ``expected`` validators names ``hand`` (by its
    row, not its number) or ``game`` at its current version."""
    if hand_tag(hand) not in expected and game_tag(game) not in expected:
        raise VersionConflict(hand.number, hand.version)
