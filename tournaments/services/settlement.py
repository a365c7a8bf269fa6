"""Settling what play did not: a table forfeited with points given instead, and an adjustment
of an entry's points (who goes through a forfeited knockout match is read by
``selectors.match_outcomes``).

Forfeits and adjustments are audited (``Adjustment`` rows and a ``CompetitionEvent``) and refresh
the standings snapshot after commit. Both lock the competition (and the round) first and decide
on what they read under the lock: a table is settled once, however many organizers press.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction

from scoring import services as scoring
from scoring.models import Game, GameStatus
from scoring.services import Actor, violation
from tournaments.models import (
    Adjustment,
    Competition,
    Entry,
    Round,
    RoundStatus,
    Table,
)
from tournaments.services._common import (
    lock,
    locked_round,
    record_event,
    require_manager,
    required_reason,
)
from tournaments.services.standings import refresh_standings_later


def _decimal(value: Any, field_: str) -> Decimal:
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise violation(field_, "type", expected="integer") from None
    if not number.is_finite() or abs(number) > 10_000:
        raise violation(field_, "range", min=-10_000, max=10_000, value=str(value))
    return number


def _given(points: Mapping[Any, Any] | None, seated: set[int]) -> dict[int, Decimal]:
    """The points given to entries of a table, by entry id (an int, or its digits): each entry
    seated there, each value a number within the limits."""
    given: dict[int, Decimal] = {}
    for key, value in (points or {}).items():
        if isinstance(key, int) and not isinstance(key, bool):
            entry_id = key
        elif isinstance(key, str) and key.strip().isdigit():
            entry_id = int(key)
        else:
            raise violation(f"points.{key}", "type", expected="integer")
        if entry_id not in seated:
            raise violation(f"points.{key}", "not_found", value=key)
        given[entry_id] = _decimal(value, f"points.{key}")
    return given


def _adjustment(
    competition: Competition, round_: Round | None, entry_id: int, points: Decimal, reason: str, by
) -> Adjustment:
    return Adjustment.objects.create(
        competition=competition,
        round=round_,
        entry_id=entry_id,
        points=points,
        reason=reason,
        by=by.user,
    )


def forfeit_table(
    *, table: Table, by: Actor, reason: str, points: Mapping[int, Any] | None = None
) -> Table:
    """The organizer settles a table that cannot finish: its game is abandoned (its hands stay
    readable), and each entry may be given points instead, with the reason (audited)."""
    round_ = table.round
    competition = round_.competition
    require_manager(by, competition.club)
    reason = required_reason(reason)
    if points is not None and not isinstance(points, Mapping):
        raise violation("points", "type", expected="object")
    with locked_round(round_, RoundStatus.PUBLISHED, "not_published"):
        # The table as it is now (tables change only under the round's lock), then its game's
        # row: hands are written under the game's lock, not the round's.
        table.refresh_from_db()
        table.round = round_
        if table.game_id is not None:
            table.game = Game.objects.select_for_update(no_key=True, of=("self",)).get(
                pk=table.game_id
            )
        if table.forfeited:
            raise violation("table", "not_allowed", reason="forfeited")
        if table.game is not None and table.game.status == GameStatus.FINISHED:
            raise violation("table", "not_allowed", reason="finished")
        seated = set(table.seats.values_list("entry_id", flat=True))
        given = _given(points, seated)
        if competition.bracket_round(round_.number):
            # Somebody must go through: the entry given more points wins the match.
            totals = sorted((given.get(e, Decimal(0)) for e in seated), reverse=True)
            if len(totals) < 2 or totals[0] == totals[1]:
                raise violation("points", "required", reason="knockout_winner")
        if table.game is not None and table.game.status == GameStatus.IN_PROGRESS:
            scoring.abandon_game(game=table.game, by=by, reason=reason)
        table.forfeited = True
        table.forfeit_reason = reason
        table.save(update_fields=["forfeited", "forfeit_reason"])
        for entry_id, value in given.items():
            _adjustment(competition, round_, entry_id, value, reason, by)
        record_event(
            competition,
            by,
            "forfeit_table",
            round_=round_,
            reason=reason,
            table=table.number,
            points={str(k): str(v) for k, v in given.items()},
        )
    refresh_standings_later(competition)
    return table


def adjust(
    *,
    competition: Competition,
    entry: Entry,
    points: Any,
    reason: str,
    by: Actor,
    round_: Round | None = None,
) -> Adjustment:
    require_manager(by, competition.club)
    reason = required_reason(reason)
    if entry.competition_id != competition.pk:
        raise violation("entry", "not_found", value=entry.pk)
    value = _decimal(points, "points")
    with transaction.atomic():
        # Serialised with the competition's other writes (withdrawals, forfeits, the draw).
        lock(competition if round_ is None else round_)
        adjustment = _adjustment(competition, round_, entry.pk, value, reason, by)
        record_event(
            competition,
            by,
            "adjust",
            round_=round_,
            entry=entry.pk,
            points=str(value),
            reason=reason,
        )
    refresh_standings_later(competition)
    return adjustment
