"""The round's clock at the tables: the "last hand" warning the director sets for the round, and
extra time the director gives one table (on top of the round timer, ``services.set_round_timer``).

Each write records its ``CompetitionEvent``; ``tournaments.live`` then tells every table's phones
(``clock`` on each game's channel) so that they ask for the clock again.
"""

from __future__ import annotations

from scoring.services import Actor, violation
from tournaments.models import Round, RoundStatus, Table
from tournaments.services._common import locked_round, record_event, require_manager

#: At most this many minutes, for the warning and for a table's extra time.
CLOCK_MINUTES_MAX = 120


def _minutes(field: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise violation(field, "type", expected="a whole number of minutes")
    if not 0 <= value <= CLOCK_MINUTES_MAX:
        raise violation(field, "range", min=0, max=CLOCK_MINUTES_MAX, value=value)
    return value


def set_last_hand(*, round_: Round, by: Actor, minutes) -> Round:
    """The tables' clocks say "last hand" ``minutes`` before the end (0: no warning)."""
    require_manager(by, round_.competition.club)
    minutes = _minutes("last_hand_minutes", minutes)
    with locked_round(round_, RoundStatus.PUBLISHED, "not_published") as competition:
        round_.last_hand_minutes = minutes or None
        round_.save(update_fields=["last_hand_minutes"])
        record_event(
            competition, by, "clock_last_hand", round_=round_, number=round_.number, minutes=minutes
        )
    return round_


def give_extra_time(*, table: Table, by: Actor, minutes) -> Table:
    """``minutes`` of extra time for this table only, in place of what it had (0: none)."""
    round_ = table.round
    require_manager(by, round_.competition.club)
    minutes = _minutes("extra_minutes", minutes)
    with locked_round(round_, RoundStatus.PUBLISHED, "not_published") as competition:
        table.refresh_from_db(fields=["extra_seconds"])
        before = table.extra_seconds // 60
        table.extra_seconds = minutes * 60
        table.save(update_fields=["extra_seconds"])
        record_event(
            competition,
            by,
            "clock_extra_time",
            round_=round_,
            number=round_.number,
            table=table.number,
            minutes=minutes,
            before=before,
        )
    return table
