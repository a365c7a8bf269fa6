"""Reads of the director's calls: the open ones of a competition (the organizer's round page and
desk), and the one a table's phones show."""

from __future__ import annotations

import datetime as dt

from tournaments.models import DirectorCall, RoundStatus, Table

#: How long a table's phones still say that its last call was resolved.
RESOLVED_SHOWN = dt.timedelta(minutes=10)


def table_of_game(game_id: int) -> Table | None:
    """The competition table playing this game, its round, competition and club loaded."""
    return (
        Table.objects.select_related("round__competition__club")
        .filter(game_id=game_id, round__deleted_at=None)
        .first()
    )


def open_calls(competition_id: int, round_id: int | None = None) -> list[DirectorCall]:
    """The calls still open, the longest waiting first (of one round when ``round_id``)."""
    calls = DirectorCall.objects.filter(
        table__round__competition_id=competition_id,
        table__round__status=RoundStatus.PUBLISHED,
        resolved_at=None,
    )
    if round_id is not None:
        calls = calls.filter(table__round_id=round_id)
    return list(calls.select_related("table__round").order_by("called_at", "pk"))


def call_shown(table: Table, now: dt.datetime) -> DirectorCall | None:
    """What the table's phones show: its open call, else one resolved a moment ago."""
    call = DirectorCall.objects.filter(table=table).order_by("-first_called_at", "-pk").first()
    if call is None or (call.resolved_at is not None and now - call.resolved_at > RESOLVED_SHOWN):
        return None
    return call
