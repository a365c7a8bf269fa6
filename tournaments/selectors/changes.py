"""What a published round's changes (``services.changes``) have to put right: the seated
entries that cannot play their table, and, for a withdrawn entry, the tables where it is still
seated.

An entry cannot play its table when it has withdrawn, or when it is absent: the round took a
check-in and the entry is not checked in. Only the tables still open to a change count (no hand
yet, not settled): a table that has started keeps its players.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.models import GameStatus
from tournaments.models import CheckIn, Entry, EntryStatus, Round, RoundStatus, Table, TableSeat

WITHDRAWN, ABSENT = "withdrawn", "absent"


def _open(table: Table) -> bool:
    game = table.game
    return not table.forfeited and (
        game is None or (game.status == GameStatus.IN_PROGRESS and not game.hand_count)
    )


def table_sizes(round_: Round) -> tuple[int, ...]:
    """How many entries a table of the round may seat (a pair is one entry of two players)."""
    competition = round_.competition
    if competition.pairs:
        return (2,)
    return competition.game_sizes(round_.ruleset)


def sizes_without(sizes: Sequence[int], fewer: int, allowed: Sequence[int]) -> list[int] | None:
    """The tables' ``sizes`` with ``fewer`` seats taken off, one at a time from the largest
    table that may lose one (to a size in ``allowed``); None when no table can."""
    sizes = list(sizes)
    for _ in range(fewer):
        shrinkable = [i for i, n in enumerate(sizes) if n - 1 in allowed]
        if not shrinkable:
            return None
        largest = max(shrinkable, key=lambda i: (sizes[i], -i))
        sizes[largest] -= 1
    return sizes


def _redraw_leaves_out_withdrawn(round_: Round, tables: list[Table]) -> bool:
    """Whether drawing the open tables again (``services.redraw_tables``) can leave every
    withdrawn entry out: the tables keep their number, so each withdrawn seat must come off a
    table that may be one smaller (a pairs table of two may not)."""
    open_tables = [t for t in tables if _open(t)]
    if len(open_tables) < 2:
        return False
    seats = [list(t.seats.all()) for t in open_tables]
    withdrawn = sum(s.entry.status == EntryStatus.WITHDRAWN for table in seats for s in table)
    return sizes_without([len(t) for t in seats], withdrawn, table_sizes(round_)) is not None


def seat_warnings(round_: Round, tables: list[Table]) -> list[dict[str, Any]]:
    """A published round's seated entries that cannot play, table by table: ``table`` (its
    number), ``entry``, ``name``, ``state`` (``withdrawn`` or ``absent``) and ``redraw``
    (whether drawing the tables again fixes it: it leaves the withdrawn out, when the table
    sizes allow, and keeps the absent). ``tables``: the round's tables with their games and
    seats' entries loaded (``round_tables``). One query (the check-ins) when the round is
    published, none otherwise."""
    if round_.status != RoundStatus.PUBLISHED:
        return []
    present = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
    redraw = _redraw_leaves_out_withdrawn(round_, tables)
    warnings = []
    for table in tables:
        if not _open(table):
            continue
        for seat in table.seats.all():
            entry = seat.entry
            if entry.status == EntryStatus.WITHDRAWN:
                state = WITHDRAWN
            elif present and entry.pk not in present:
                state = ABSENT
            else:
                continue
            warnings.append(
                {
                    "table": table.number,
                    "entry": entry.pk,
                    "name": entry.name,
                    "state": state,
                    "redraw": redraw and state == WITHDRAWN,
                }
            )
    return warnings


def open_seats_of(entry: Entry) -> list[dict[str, int]]:
    """Where ``entry`` is seated at a table of a published round still open to a change:
    ``round`` and ``table`` numbers, by round. What a withdrawal leaves to put right."""
    seats = (
        TableSeat.objects.filter(entry=entry, table__round__status=RoundStatus.PUBLISHED)
        .select_related("table__game", "table__round")
        .order_by("table__round__number", "table__number")
    )
    return [
        {"round": s.table.round.number, "table": s.table.number}
        for s in seats
        if _open(s.table) and s.table.round.deleted_at is None
    ]
