"""Changing a published round on the day: two entries swapped between tables, an absent entry
replaced by a late entrant or by a bye, the tables that have not started drawn again, and the
round taken back to a draft. Every change is refused where a game it touches already has a
hand (``has_hands``): a table that has started stays as it is. Refusals of the data's state
(a hand entered, a round not being played) are ``Conflict``s (HTTP 409); bad values are
``RuleViolation``s naming their field (400).

A change never seats a withdrawn entry: a swap or a replacement naming one is refused by its
field (``withdrawn_entry``); a redraw leaves the withdrawn entries of the open tables out, one
seat fewer each (refused, naming the table, when the others cannot fill the tables that way:
the withdrawn entry is then replaced first). The withdrawn entry stays seated only where its
table has started or was settled.

The games are not started again: ``scoring.services.reseat_game`` seats the new players at the
same game, so its page, its table link and PIN (and the phones already holding them) follow the
change. Each change locks the competition and the round (``_common.lock``), then the
games it touches, in table order; it records its event (``tables``: the table cards to print
again, ``selectors.tables_to_reprint``) and e-mails the entries whose table changed after commit, when the competition says so.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from django.db import transaction

from scoring import services as scoring
from scoring.models import GameStatus
from scoring.services import Actor, Conflict, queue, violation
from tournaments import selectors
from tournaments.models import (
    Bye,
    CheckIn,
    Competition,
    Entry,
    EntryStatus,
    Round,
    RoundStatus,
    Table,
    TableSeat,
)
from tournaments.services._common import lock, lock_round_games, record_event, require_manager
from tournaments.services._tables import table_options, table_players
from tournaments.services.standings import refresh_standings_later

#: How many shuffles a redraw tries before keeping the one with the fewest repeated meetings.
REDRAW_TRIES = 200


def _tables(round_: Round) -> list[Table]:
    """The round's tables, games and seats (entries in dealing order) loaded, by number."""
    return list(
        round_.tables.select_related("game")
        .prefetch_related("seats__entry__player", "seats__entry__partner")
        .order_by("number")
    )


def _entries(table: Table) -> list[Entry]:
    return [s.entry for s in sorted(table.seats.all(), key=lambda s: s.position)]


def _started(table: Table) -> str | None:
    """Why ``table`` can no longer change (a message reason), or None."""
    if table.forfeited:
        return "forfeited"
    game = table.game
    if game is not None and (game.status != GameStatus.IN_PROGRESS or game.hands.exists()):
        return "has_hands"
    return None


def _refuse_started(table: Table, field: str) -> None:
    """Refuse a change of ``table`` once it is settled or its game has a hand (a refusal of
    the data's state: HTTP 409)."""
    if reason := _started(table):
        raise Conflict(field, "not_allowed", reason=reason, table=table.number)


@contextmanager
def _published(round_: Round, *, matches_too: bool = False) -> Iterator[Competition]:
    """The transaction of a change: the competition and the round locked and re-read
    (``_common.lock``), refused (409) unless the round is being played, and (unless
    ``matches_too``) for the two-sided matches a format fixes (a bracket, a round robin)."""
    with transaction.atomic():
        competition = lock(round_)
        if round_.status != RoundStatus.PUBLISHED:
            raise Conflict("round", "not_allowed", reason="not_changeable")
        if not matches_too and (competition.two_sided or competition.bracket_round(round_.number)):
            raise Conflict("round", "not_allowed", reason="fixed_matches")
        # Then the round's games, in id order, before anything about them decides: a hand
        # inserted but not yet committed holds its game's row, so the change waits for it and
        # then sees it (``has_hands``), instead of abandoning or reseating a game that holds a
        # hand the phone was told was stored (docs/architecture.md, "Locks").
        lock_round_games(round_)
        yield competition


def _entry_id(value, field: str) -> int:
    if isinstance(value, Entry):
        return value.pk
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    raise violation(field, "type", expected="integer")


def _seated(tables: Sequence[Table], entry_id: int, field: str) -> Table:
    for table in tables:
        if any(s.entry_id == entry_id for s in table.seats.all()):
            return table
    raise violation(field, "not_found", value=entry_id)


def _refuse_withdrawn(table: Table, entry_id: int, field: str) -> None:
    """A withdrawn entry takes no seat (refused by ``field``, naming it)."""
    entry = next(s.entry for s in table.seats.all() if s.entry_id == entry_id)
    if entry.status == EntryStatus.WITHDRAWN:
        raise violation(field, "not_allowed", reason="withdrawn_entry", name=entry.name)


def _set_seats(table: Table, entry_ids: Sequence[int]) -> None:
    TableSeat.objects.filter(table=table).delete()
    TableSeat.objects.bulk_create(
        TableSeat(table=table, position=i, entry_id=e) for i, e in enumerate(entry_ids)
    )


def _reseat(competition: Competition, round_: Round, tables: Iterable[Table], by: Actor, why: str):
    """Seat each changed table's game again with its seats as now stored (table order)."""
    for table in sorted(tables, key=lambda t: t.number):
        if table.game is None:
            continue
        stored = round_.tables.prefetch_related(
            "seats__entry__player", "seats__entry__partner"
        ).get(pk=table.pk)
        scoring.reseat_game(
            game=table.game,
            players=table_players(competition, _entries(stored)),
            options=table_options(competition, round_, stored),
            by=Actor.system(via="page") if by.user is None else by,
            reason=why,
        )


def _announce(competition: Competition, round_: Round, entry_ids: Iterable[int]) -> None:
    ids = sorted(set(entry_ids))
    if competition.notify_entrants and ids:
        queue.mail_on_commit("tournaments.tasks.announce_round", round_.pk, ids)


def swap_published(*, round_: Round, a, b, by: Actor) -> Round:
    """Swap entries ``a`` and ``b`` (ids) between two tables of a published round whose games
    have no hand yet; the two games are seated again (same table links)."""
    competition = round_.competition
    require_manager(by, competition.club)
    a, b = _entry_id(a, "a"), _entry_id(b, "b")
    with _published(round_):
        tables = _tables(round_)
        table_a, table_b = _seated(tables, a, "a"), _seated(tables, b, "b")
        if table_a.pk == table_b.pk:
            raise violation("b", "not_allowed", reason="same_table")
        _refuse_withdrawn(table_a, a, "a")
        _refuse_withdrawn(table_b, b, "b")
        _refuse_started(table_a, "a")
        _refuse_started(table_b, "b")
        for table, out, into in ((table_a, a, b), (table_b, b, a)):
            _set_seats(table, [into if e.pk == out else e.pk for e in _entries(table)])
        _reseat(competition, round_, (table_a, table_b), by, "Two players swapped tables")
        record_event(
            competition,
            by,
            "swap_published",
            round_=round_,
            number=round_.number,
            a=a,
            b=b,
            tables=sorted([table_a.number, table_b.number]),
        )
        _announce(competition, round_, [*_ids(table_a), *_ids(table_b)])
    return round_


def _ids(table: Table) -> list[int]:
    return list(TableSeat.objects.filter(table=table).values_list("entry_id", flat=True))


def replace_entry(*, round_: Round, absent, by: Actor, late=None) -> Round:
    """Replace ``absent`` (an entry seated at a table with no hand yet) by ``late``, an active
    entry with no seat in this round (its bye, if any, is taken back); or, with ``late=None``,
    by a bye: the table plays with one fewer, if its game allows that many players. The absent
    entry is no longer checked in."""
    competition = round_.competition
    require_manager(by, competition.club)
    absent = _entry_id(absent, "absent")
    late = None if late in (None, "") else _entry_id(late, "late")
    with _published(round_):
        tables = _tables(round_)
        table = _seated(tables, absent, "absent")
        _refuse_started(table, "absent")
        seated = [e.pk for e in _entries(table)]
        if late is None:
            kept = [e for e in seated if e != absent]
            if competition.pairs or len(kept) not in competition.game_sizes(round_.ruleset):
                raise violation(
                    "late", "required", reason="too_few", table=table.number, value=len(kept)
                )
        else:
            placed = {s.entry_id for t in tables for s in t.seats.all()}
            found = competition.entries.filter(pk=late).select_related("player", "partner").first()
            if late in placed or found is None:
                raise violation("late", "not_found", value=late)
            if found.status != EntryStatus.ACTIVE:
                raise violation("late", "not_allowed", reason="withdrawn_entry", name=found.name)
            kept = [late if e == absent else e for e in seated]
            Bye.objects.filter(round=round_, entry_id=late).delete()
            if CheckIn.objects.filter(round=round_).exists():
                CheckIn.objects.get_or_create(round=round_, entry_id=late)
        CheckIn.objects.filter(round=round_, entry_id=absent).delete()
        _set_seats(table, kept)
        _reseat(competition, round_, (table,), by, "An absent player replaced")
        record_event(
            competition,
            by,
            "replace_entry",
            round_=round_,
            number=round_.number,
            absent=absent,
            late=late,
            tables=[table.number],
        )
        _announce(competition, round_, kept)
    return round_


def redraw_tables(*, round_: Round, by: Actor, seed: int | None = None) -> Round:
    """Draw again the tables of a published round whose games have no hand yet: their entries
    are shuffled among them (the same table sizes), the fewest repeated meetings with the rounds
    before kept out of ``REDRAW_TRIES`` shuffles of ``seed``; the tables with hands stay. A
    bracket's or a round robin's matches are fixed by their format and are not drawn again."""
    competition = round_.competition
    require_manager(by, competition.club)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise violation("seed", "type", expected="integer")
    with _published(round_):
        open_tables = [t for t in _tables(round_) if _started(t) is None]
        if len(open_tables) < 2:
            raise Conflict("round", "not_allowed", reason="nothing_to_redraw")
        seated = [_entries(t) for t in open_tables]
        current = [[e.pk for e in entries] for entries in seated]
        left_out = [
            (t, e)
            for t, entries in zip(open_tables, seated, strict=True)
            for e in entries
            if e.status == EntryStatus.WITHDRAWN
        ]
        sizes = _sizes_without(
            [len(seats) for seats in current],
            len(left_out),
            _table_sizes(competition, round_),
            left_out,
        )
        history = selectors.meetings(competition, before=round_.number)
        active = [
            [e.pk for e in entries if e.status != EntryStatus.WITHDRAWN] for entries in seated
        ]
        drawn = _shuffled(active, history, random.Random(seed), sizes)
        changed = [
            t
            for t, now, new in zip(open_tables, current, drawn, strict=True)
            if set(now) != set(new)
        ]
        for table, seats in zip(open_tables, drawn, strict=True):
            if table in changed:
                _set_seats(table, seats)
        _reseat(competition, round_, changed, by, "Tables drawn again")
        record_event(
            competition,
            by,
            "redraw_tables",
            round_=round_,
            number=round_.number,
            seed=seed,
            tables=[t.number for t in changed],
            left_out=sorted(e.pk for _t, e in left_out),
        )
        _announce(competition, round_, [e for t in changed for e in _ids(t)])
    return round_


def _table_sizes(competition: Competition, round_: Round) -> tuple[int, ...]:
    """How many entries a table of the round may seat (``selectors.table_sizes``)."""
    return selectors.table_sizes(round_)


def _sizes_without(
    sizes: list[int], fewer: int, allowed: Sequence[int], left_out: Sequence[tuple[Table, Entry]]
) -> list[int]:
    """The open tables' sizes with ``fewer`` seats taken off (``selectors.sizes_without``);
    refused, naming the first withdrawn entry and its table, when no table can lose one."""
    smaller = selectors.sizes_without(sizes, fewer, allowed)
    if smaller is None:
        table, entry = left_out[0]
        raise Conflict(
            "round", "not_allowed", reason="withdrawn_unfilled", table=table.number, name=entry.name
        )
    return smaller


def _shuffled(
    current: list[list[int]],
    history: dict[tuple[int, int], int],
    rng: random.Random,
    sizes: Sequence[int] | None = None,
) -> list[list[int]]:
    """The entries of ``current`` dealt again into tables of ``sizes`` (by default the same
    sizes): of the shuffles that change at least one table, the one with the fewest meetings
    already played."""
    pool = [e for seats in current for e in seats]
    sizes = [len(seats) for seats in current] if sizes is None else list(sizes)
    before = {frozenset(seats) for seats in current}
    best, best_cost = None, None
    for _ in range(REDRAW_TRIES):
        rng.shuffle(pool)
        tables, start = [], 0
        for size in sizes:
            tables.append(pool[start : start + size])
            start += size
        if {frozenset(t) for t in tables} == before:
            continue
        cost = sum(
            history.get((min(x, y), max(x, y)), 0)
            for t in tables
            for i, x in enumerate(t)
            for y in t[i + 1 :]
        )
        if best_cost is None or cost < best_cost:
            best, best_cost = [list(t) for t in tables], cost
    if best is None:  # every shuffle gave the same tables (one table's worth of entries)
        raise Conflict("round", "not_allowed", reason="nothing_to_redraw")
    return best


def unpublish_round(*, round_: Round, by: Actor, reason: str = "") -> Round:
    """Take a published round back to a draft, its tables kept as drawn: refused once any of
    its games has a hand or a table was settled, and while a later round is published. Its
    games are abandoned (they stay, readable, on the club's trail); publishing again starts new
    ones, with new table links."""
    competition = round_.competition
    require_manager(by, competition.club)
    reason = " ".join(str(reason or "").split())
    with _published(round_, matches_too=True):
        if (
            competition.rounds.filter(number__gt=round_.number)
            .exclude(status=RoundStatus.DRAFT)
            .exists()
        ):
            raise Conflict("round", "not_allowed", reason="later_round_playing")
        tables = _tables(round_)
        for table in tables:
            _refuse_started(table, "round")
        for table in tables:
            if table.game is not None:
                scoring.abandon_game(
                    game=table.game,
                    by=Actor.system(via="page") if by.user is None else by,
                    reason=f"Round {round_.number} unpublished",
                )
        Table.objects.filter(round=round_).update(game=None)
        round_.status = RoundStatus.DRAFT
        round_.published_at = None
        round_.timer_started_at = round_.timer_remaining = None
        round_.save(update_fields=["status", "published_at", "timer_started_at", "timer_remaining"])
        record_event(
            competition,
            by,
            "unpublish_round",
            round_=round_,
            number=round_.number,
            tables=len(tables),
            reason=reason,
        )
        # Unpublished round 1: an entry withdrawn since it was published now withdrew before the
        # start, and leaves the standings.
        refresh_standings_later(competition)
    return round_
