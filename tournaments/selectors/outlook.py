"""Who can still win a league: the question put to the pure ``tournaments.standings.outlook``
from what the standings already computed (each entry's points per night played, the
adjustments) and the nights left: a round drawn but not finished is played at its unfinished
tables; a round not drawn yet, or only planned, may be attended by any active entry, at the
table sizes of the league's games. Four queries (the open rounds, the last round, the tables
counted already, the seats). ``outlook_of`` gives ``None`` when there is no outlook: not a
league, nothing left to play, finalized, or points that have no bound (game scores).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import combinations
from typing import Any

from django.db.models import Max

from scoring.models import NOT_ACCEPTED, GameStatus
from tournaments import standings as pure_standings
from tournaments.models import Competition, Format, Kind, RoundStatus, Table, TableSeat
from tournaments.standings import outlook as pure


def _sizes(competition: Competition) -> tuple[int, ...]:
    """The table sizes, in competitors, that the league's games allow."""
    sizes: set[int] = set()
    for ruleset in competition.rulesets:
        allowed, _ideal, _sitting_out = competition.table_policy(ruleset)
        sizes.update(allowed)
    return tuple(sorted(sizes))


def _nights_left(competition: Competition, active: tuple[int, ...], sizes) -> list[pure.Night]:
    """The nights still to play: the tables of the open rounds whose game does not count yet
    (drawn nights), the open rounds without tables and the rounds only planned (not drawn)."""
    open_rounds = dict(
        competition.rounds.exclude(status=RoundStatus.CLOSED).values_list("pk", "number")
    )
    last = competition.rounds.aggregate(last=Max("number"))["last"] or 0
    tables = Table.objects.filter(round_id__in=open_rounds, forfeited=False)
    counted = set(
        tables.filter(game__status=GameStatus.FINISHED)
        .exclude(game__hands__acceptance__in=NOT_ACCEPTED)
        .values_list("pk", flat=True)
    )
    drawn: dict[int, dict[int, list[int]]] = {number: {} for number in open_rounds.values()}
    has_tables: set[int] = set()
    for table_id, round_id, entry in (
        TableSeat.objects.filter(table__in=tables)
        .order_by("table_id", "position")
        .values_list("table_id", "table__round_id", "entry_id")
    ):
        number = open_rounds[round_id]
        has_tables.add(number)
        if table_id not in counted:
            drawn[number].setdefault(table_id, []).append(entry)
    nights = []
    if competition.format == Format.ROUND_ROBIN:
        return nights + _round_robin_left(competition, active, drawn)
    for number in sorted(drawn):
        if number in has_tables:
            if drawn[number]:
                nights.append(pure.Night(number, tables=tuple(map(tuple, drawn[number].values()))))
        else:
            nights.append(pure.Night(number, entrants=active, sizes=sizes))
    for number in range(last + 1, (competition.planned_rounds or 0) + 1):
        nights.append(pure.Night(number, entrants=active, sizes=sizes))
    return nights


def _round_robin_left(competition: Competition, active, drawn) -> list[pure.Night]:
    """A round robin's games left are known, whatever the rounds they fall in: every pair of
    active entries that has not met (twice for a double round robin), the tables drawn and not
    counted yet included. Each is its own night: an entry plays one game a round."""
    met: dict[tuple[int, int], int] = defaultdict(int)
    seats: dict[int, list[int]] = defaultdict(list)
    for table_id, entry in TableSeat.objects.filter(
        table__round__competition=competition
    ).values_list("table_id", "entry_id"):
        seats[table_id].append(entry)
    for pair in seats.values():
        if len(pair) == 2:
            met[(min(pair), max(pair))] += 1
    for tables in drawn.values():  # drawn, not counted yet: still to play
        for pair in tables.values():
            if len(pair) == 2:
                met[(min(pair), max(pair))] -= 1
    times = 2 if competition.double_round else 1
    return [
        pure.Night(("game", a, b, n), tables=((a, b),))
        for a, b in combinations(active, 2)
        for n in range(times - met[(a, b)])
    ]


def outlook_of(
    competition: Competition,
    computed: pure_standings.Standings,
    active: tuple[int, ...],
    adjustments,
) -> dict[int, dict[str, Any]] | None:
    """Each entry's outlook as plain data ({entry id: {"status", "best", "worst", "exact",
    "ranks_exact", "reason"}}), from the overall standings ``computed`` (exact points per night),
    the ``active`` entries' ids and the competition's ``adjustments``; None when there is none
    to give."""
    if competition.kind != Kind.LEAGUE or competition.finalized_at or competition.bracket_format:
        return None
    sizes = _sizes(competition)
    nights = _nights_left(competition, active, sizes)
    if not nights:
        return None
    # the sizes of the tables as drawn too (an organizer may have seated one differently)
    drawn_sizes = {len(table) for night in nights for table in night.tables}
    try:
        rows_by_size = pure.rows_for(
            competition.scheme,
            sorted(set(sizes) | drawn_sizes),
            {int(k): tuple(v) for k, v in (competition.placement_points or {}).items()} or None,
        )
    except ValueError:
        return None
    played = {row.entrant: [points for _g, points in row.group_points] for row in computed.rows}
    bonus: dict[int, Fraction] = defaultdict(Fraction)
    for adjustment in adjustments:
        bonus[adjustment.entrant] += Fraction(adjustment.points)
    try:
        got = pure.outlook(
            played,
            nights,
            rows=rows_by_size,
            best_of=competition.best_of,
            bonus=bonus,
            min_groups=competition.min_rounds,
        )
    except ValueError:
        return None
    return {entry: o.as_json() for entry, o in got.items()}


def add_outlook(
    competition: Competition, table: dict[str, Any], computed, active, adjustments
) -> bool:
    """Give each row of the overall ``table`` (``standings_of``) its ``outlook`` when there is
    one (``outlook_of``); True when there is."""
    outlook = outlook_of(competition, computed, active, adjustments)
    if outlook is None:
        return False
    for row in table["rows"]:
        row["outlook"] = outlook[row["entry"]]
    return True
