"""The manual pairing editor: an organizer moves any entry of a round not yet started to any
seat, one move at a time (``move_entry``).

A move names the entry, the table it goes to (0: a bye, in a draft) and its seat there (1 deals
first; one past the last seat: it joins the table). A seat already taken is given up by its
occupant, who takes the mover's old place (its seat, or its bye): the tables keep their sizes.
A move to a free seat changes two tables' sizes, and a move within a table changes only who
deals first.

The tables after the move are checked as a whole (``check_tables``): every table's size inside
the competition's range (a pair is one entry; a table of pairs seats two), no entry twice, no
withdrawn entry seated. A refusal names its field (``entry``, ``table``, ``seat``): HTTP 400 at
the API, the message next to the field on the round page; nothing changes.

A draft's tables are stored again with their quality figures measured again (the panel of the
round page). A published round moves only between tables whose games have no hand yet (409
otherwise), and never in a format whose matches are fixed (a bracket, a round robin): its games
are seated again in place (same table links and PINs, as ``changes.swap_published``), its
figures measured again, the tables changed listed for their cards to be printed again, and their
entries e-mailed when the competition says so. Each move is audited (``move_entry``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.services import Actor, violation
from tournaments import scheduling
from tournaments.models import Entry, EntryStatus, Round, RoundStatus
from tournaments.services._common import locked_round, record_event, require_manager
from tournaments.services._tables import store_tables
from tournaments.services.changes import (
    _announce,
    _entry_id,
    _published,
    _refuse_started,
    _reseat,
    _set_seats,
    _table_sizes,
    _tables,
)
from tournaments.services.draw import _round_as_schedule, measured_again

#: The table number of a bye in a move.
BYE = 0


def _number(value, field: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 10:
        return int(value)
    raise violation(field, "type", expected="integer")


def moved(current: scheduling.Round, entry: int, table: int, seat: int | None) -> scheduling.Round:
    """``current`` with ``entry`` moved to ``seat`` (1-based; None: the end) of ``table``
    (1-based; ``BYE``: a bye), the seat's occupant taking the entry's old place. An entry not
    in ``current`` comes in from outside the round (it leaves no place behind). Pure: the
    sizes are checked by ``check_tables``."""
    tables = [list(t) for t in current.tables]
    byes = list(current.byes)
    if table != BYE and not 1 <= table <= len(tables):
        raise violation("table", "range", min=1, max=len(tables), value=table)
    source = next((t for t in tables if entry in t), None)
    if table == BYE:
        if source is None and entry in byes:
            raise violation("table", "not_allowed", reason="already_there")
        if source is not None:
            source.remove(entry)
        return scheduling.Round(tuple(map(tuple, tables)), (*byes, entry))
    target = tables[table - 1]
    if source is target:  # another seat at the same table: who deals first changes
        if seat is not None and not 1 <= seat <= len(target):
            raise violation("seat", "range", min=1, max=len(target), value=seat)
        target.remove(entry)
        target.insert(len(target) if seat is None else seat - 1, entry)
        return scheduling.Round(tuple(map(tuple, tables)), tuple(byes))
    last = len(target) + 1
    seat = last if seat is None else seat
    if not 1 <= seat <= last:
        raise violation("seat", "range", min=1, max=last, value=seat)
    occupant = target[seat - 1] if seat < last else None
    if entry in byes:
        byes.remove(entry)
    if occupant is None:
        target.append(entry)
        if source is not None:
            source.remove(entry)
    else:
        target[seat - 1] = entry
        if source is not None:
            source[source.index(entry)] = occupant
        else:  # from a bye (or from outside the round): the occupant takes the bye
            byes.append(occupant)
    return scheduling.Round(tuple(map(tuple, tables)), tuple(byes))


def check_tables(
    tables: Sequence[Sequence[int]],
    sizes: Sequence[int],
    withdrawn: dict[int, str],
    before: Sequence[Sequence[int]] = (),
) -> None:
    """Refuse tables that cannot be played: an entry twice (``entry``), a withdrawn entry
    seated at a table that changed (``entry``, naming it), a changed table whose size is not
    one of ``sizes`` (``table``, naming it). A table as it was ``before`` is left as it is
    (a withdrawn entry already seated there is for ``changes.replace_entry`` to take out)."""
    seen: set[int] = set()
    for seats in tables:
        for entry in seats:
            if entry in seen:
                raise violation("entry", "not_allowed", reason="seated_twice", value=entry)
            seen.add(entry)
    kept = {frozenset(t) for t in before}
    for number, seats in enumerate(tables, start=1):
        if frozenset(seats) in kept:
            continue
        if found := next((e for e in seats if e in withdrawn), None):
            raise violation("entry", "not_allowed", reason="withdrawn_entry", name=withdrawn[found])
        if len(seats) not in sizes:
            raise violation(
                "table",
                "not_allowed",
                reason="table_size",
                table=number,
                value=len(seats),
                min=min(sizes),
                max=max(sizes),
            )


def _measured(round_: Round, edited: scheduling.Round) -> dict[str, Any]:
    """The quality figures of ``round_`` seated as ``edited``: over every drawn round when the
    draft rounds were planned together (rotation), else against the rounds played before. No
    draw time: a move is not a draw."""
    together = round_.method == "rotation" and round_.status == RoundStatus.DRAFT
    return measured_again(round_, edited, list(edited.players), together=together)


def _entry(round_: Round, entry_id: int) -> Entry:
    found = round_.competition.entries.filter(pk=entry_id).first()
    if found is None:
        raise violation("entry", "not_found", value=entry_id)
    return found


def move_entry(*, round_: Round, entry, table, seat=None, by: Actor) -> Round:
    """Move ``entry`` (an id) to ``seat`` of ``table`` in ``round_`` (a draft, or a published
    round at tables with no hand yet); see the module's docstring."""
    competition = round_.competition
    require_manager(by, competition.club)
    entry = _entry_id(entry, "entry")
    table = _number(table, "table")
    seat = None if seat in (None, "") else _number(seat, "seat")
    if round_.status == RoundStatus.PUBLISHED:
        return _move_published(round_, entry, table, seat, by)
    with locked_round(round_, RoundStatus.DRAFT, "published"):
        current = _round_as_schedule(round_)
        moving = _entry(round_, entry)
        if moving.status == EntryStatus.WITHDRAWN and table != BYE:
            raise violation("entry", "not_allowed", reason="withdrawn_entry", name=moving.name)
        edited = moved(current, entry, table, seat)
        check_tables(
            edited.tables, _table_sizes(competition, round_), _withdrawn(round_), current.tables
        )
        before = round_.metrics or {}
        metrics = _measured(round_, edited)
        store_tables(round_, edited.tables, edited.byes, metrics, round_.method, round_.seed)
        record_event(
            competition,
            by,
            "move_entry",
            round_=round_,
            number=round_.number,
            entry=entry,
            table=table,
            seat=seat,
            repeated_before=before.get("repeated_pairs"),
            repeated_after=metrics["repeated_pairs"],
        )
    return round_


def _withdrawn(round_: Round) -> dict[int, str]:
    return {
        e.pk: e.name
        for e in round_.competition.entries.filter(status=EntryStatus.WITHDRAWN).select_related(
            "player", "partner"
        )
    }


def _move_published(round_: Round, entry: int, table: int, seat: int | None, by: Actor) -> Round:
    """A move between (or within) the tables of a published round whose games have no hand
    yet: its games seated again in place."""
    if table == BYE:
        raise violation("table", "not_allowed", reason="bye_published")
    with _published(round_) as competition:
        tables = _tables(round_)
        current = scheduling.Round(
            tuple(
                tuple(s.entry_id for s in sorted(t.seats.all(), key=lambda s: s.position))
                for t in tables
            )
        )
        source = next((t for t in tables if any(s.entry_id == entry for s in t.seats.all())), None)
        if source is None:
            raise violation("entry", "not_found", value=entry)
        moving = next(s.entry for s in source.seats.all() if s.entry_id == entry)
        if moving.status == EntryStatus.WITHDRAWN:
            raise violation("entry", "not_allowed", reason="withdrawn_entry", name=moving.name)
        edited = moved(current, entry, table, seat)
        _refuse_started(source, "entry")
        _refuse_started(tables[table - 1], "table")
        check_tables(
            edited.tables, _table_sizes(competition, round_), _withdrawn(round_), current.tables
        )
        changed = [
            t
            for t, now, new in zip(tables, current.tables, edited.tables, strict=True)
            if now != new
        ]
        for t in changed:
            _set_seats(t, edited.tables[t.number - 1])
        _reseat(competition, round_, changed, by, "A player moved by the organizer")
        round_.metrics = _measured(round_, edited)
        round_.save(update_fields=["metrics"])
        record_event(
            competition,
            by,
            "move_entry",
            round_=round_,
            number=round_.number,
            entry=entry,
            table=table,
            seat=seat,
            tables=sorted(t.number for t in changed),
        )
        _announce(competition, round_, [e for t in changed for e in edited.tables[t.number - 1]])
    return round_
