"""Computing the standings (``compute``): the points of every result, the best groups of each
entrant, the tally behind the tie-breaks, and the rows in order of merit."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import groupby
from math import lcm

from .records import ZERO, Adjustment, PlacementTable, Result, Row, Standings, Value
from .schemes import DEFAULT_PLACEMENT_POINTS, SCHEMES
from .tie_breaks import TIE_BREAKS, Tally


def _placement_table(overrides: Mapping[int, Sequence[Value]] | None) -> PlacementTable:
    merged = {**DEFAULT_PLACEMENT_POINTS, **(overrides or {})}
    table: dict[int, tuple[Fraction, ...]] = {}
    for size, points in merged.items():
        if len(points) != size:
            raise ValueError(f"a table of {size} needs {size} placement points, not {len(points)}")
        table[size] = tuple(Fraction(p) for p in points)
    return table


def _natural_order(groups: Iterable[Hashable]) -> list[Hashable]:
    groups = list(groups)
    try:
        return sorted(groups)  # type: ignore[type-var]
    except TypeError:
        return sorted(groups, key=repr)


def _check_game(game: int, results: list[Result]) -> None:
    first = results[0]
    if len(results) > first.competitors:
        raise ValueError(f"game {game}: {len(results)} results at a table of {first.competitors}")
    if len({r.entrant for r in results}) != len(results):
        raise ValueError(f"game {game}: an entrant has more than one result")
    group, competitors, lowest_wins = first.group, first.competitors, first.lowest_wins
    for r in results:
        if r.competitors != competitors or r.lowest_wins != lowest_wins or r.group != group:
            raise ValueError(f"game {game}: results disagree on group, table size or lowest_wins")


class _Running:
    """One entrant's figures while the results are read (mutable, private to ``compute``)."""

    __slots__ = (
        "card_points",
        "game_score",
        "games",
        "groups",
        "hands_won",
        "meetings",
        "met",
        "wins",
    )

    def __init__(self) -> None:
        self.game_score = self.wins = self.hands_won = self.card_points = self.games = 0
        self.groups: dict[Hashable, int] = {}  # scaled points per group
        self.meetings: list[tuple[int, tuple[int, ...]]] = []  # (scaled points, opponents)
        self.met: list[int] = []  # every opponent met, once per meeting


_NO_GAMES = _Running()  # the figures of an entrant with no games: never modified


def _order(
    entrants: Iterable[int], tally: Tally, keys: Sequence[str]
) -> tuple[list[list[int]], dict[int, dict[str, Value]]]:
    """Order ``entrants`` by points then ``keys``; return (tied groups in order, values)."""
    values: dict[int, dict[str, Value]] = {e: {} for e in entrants}
    points = tally.scaled_points
    ordered = sorted(values, key=lambda e: (-points[e], e))
    groups = [list(g) for _, g in groupby(ordered, key=points.__getitem__)]
    for key in keys:
        compute_value = TIE_BREAKS[key].value
        refined: list[list[int]] = []
        for group in groups:
            got = compute_value(tally, group)
            for entrant in group:
                values[entrant][key] = got[entrant]
            if len(group) == 1:
                refined.append(group)
                continue
            group = sorted(group, key=lambda e: (-got[e], e))
            refined.extend(list(g) for _, g in groupby(group, key=got.__getitem__))
        groups = refined
    return groups, values


def compute(
    results: Iterable[Result],
    *,
    scheme: str = "placement",
    tie_breaks: Sequence[str] = ("points", "wins", "opponents_strength"),
    placement_points: Mapping[int, Sequence[Value]] | None = None,
    best_of: int | None = None,
    min_groups: int = 0,
    adjustments: Iterable[Adjustment] = (),
    entrants: Iterable[int] = (),
) -> Standings:
    """Compute the standings from ``results`` (see the module docstring for the rules).

    ``entrants`` adds entrants with no results yet (they appear with 0 points and no games).
    Raises ``ValueError`` for an unknown scheme or tie-break, a repeated tie-break, bad league
    options, a placement table of the wrong length, or results of a game that contradict each
    other.
    """
    if scheme not in SCHEMES:
        raise ValueError(f"unknown points scheme {scheme!r}; known: {', '.join(SCHEMES)}")
    tie_breaks = tuple(tie_breaks)
    for key in tie_breaks:
        if key not in TIE_BREAKS:
            raise ValueError(f"unknown tie-break {key!r}; known: {', '.join(TIE_BREAKS)}")
    if len(set(tie_breaks)) != len(tie_breaks):
        raise ValueError("a tie-break is listed more than once")
    if best_of is not None and best_of < 1:
        raise ValueError(f"best_of must be at least 1, not {best_of}")
    if min_groups < 0:
        raise ValueError(f"min_groups cannot be negative, not {min_groups}")
    table = _placement_table(placement_points)
    points_of = SCHEMES[scheme].points

    by_game: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        by_game[result.game].append(result)

    # First pass: check each game, find shared places, compute each distinct points value once
    # (as an index into ``distinct``), and add up everything that does not depend on points.
    depends_on = SCHEMES[scheme].depends_on
    memo: dict[Hashable, int] = {}
    distinct: list[Fraction] = []
    running: dict[int, _Running] = {}
    seats: list[tuple[_Running, Hashable, int, tuple[int, ...]]] = []
    add_seat = seats.append
    for game, game_results in by_game.items():
        if len(game_results) > 1:  # one result alone cannot contradict itself
            _check_game(game, game_results)
        taken = [r.place for r in game_results]
        for r in game_results:
            place = r.place
            shared = taken.count(place)
            if place + shared - 1 > r.competitors:
                raise ValueError(f"game {game}: {shared} entrants share place {place}")
            memo_key = depends_on(r, shared)
            index = memo.get(memo_key)
            if index is None:
                index = memo[memo_key] = len(distinct)
                distinct.append(Fraction(points_of(r, shared, table)))
            opponents = r.opponents or tuple(o.entrant for o in game_results if o is not r)
            figures = running.get(r.entrant)
            if figures is None:
                figures = running[r.entrant] = _Running()
            figures.game_score += -r.score if r.lowest_wins else r.score
            figures.wins += place == 1
            figures.hands_won += r.hands_won or 0
            figures.card_points += r.card_points or 0
            figures.games += 1
            figures.met += opponents
            add_seat((figures, r.group, index, opponents))

    extra: dict[int, Fraction] = defaultdict(Fraction)
    for adjustment in adjustments:
        extra[adjustment.entrant] += Fraction(adjustment.points)

    # Exact integer arithmetic over one common denominator from here on.
    scale = lcm(*(f.denominator for f in distinct), *(f.denominator for f in extra.values()))
    scaled = [f.numerator * (scale // f.denominator) for f in distinct]

    # Second pass: the points of every seat, per group and per meeting.
    for figures, group, index, opponents in seats:
        points = scaled[index]
        per_group = figures.groups
        per_group[group] = per_group.get(group, 0) + points
        figures.meetings.append((points, opponents))

    group_points = {entrant: figures.groups for entrant, figures in running.items()}
    everyone = set(group_points) | set(extra) | set(entrants)
    all_groups = {g for per_group in group_points.values() for g in per_group}
    position = {g: i for i, g in enumerate(_natural_order(all_groups))}

    scaled_total: dict[int, int] = {}
    counted: dict[int, tuple[Hashable, ...]] = {}
    for entrant in everyone:
        per_group = group_points.get(entrant, {})
        chosen = list(per_group)
        if best_of is not None and len(chosen) > best_of:
            chosen.sort(key=lambda g: (-per_group[g], position[g]))
            chosen = chosen[:best_of]
        chosen.sort(key=position.__getitem__)
        counted[entrant] = tuple(chosen)
        bonus = extra.get(entrant, ZERO)
        scaled_total[entrant] = sum(per_group[g] for g in chosen) + bonus.numerator * (
            scale // bonus.denominator
        )
    total = {entrant: Fraction(points, scale) for entrant, points in scaled_total.items()}

    tally = Tally(
        scale=scale,
        points=total,
        scaled_points=scaled_total,
        game_score={e: running.get(e, _NO_GAMES).game_score for e in everyone},
        wins={e: running.get(e, _NO_GAMES).wins for e in everyone},
        hands_won={e: running.get(e, _NO_GAMES).hands_won for e in everyone},
        card_points={e: running.get(e, _NO_GAMES).card_points for e in everyone},
        games_played={e: running.get(e, _NO_GAMES).games for e in everyone},
        meetings={e: tuple(running.get(e, _NO_GAMES).meetings) for e in everyone},
        opponents_met={e: tuple(running.get(e, _NO_GAMES).met) for e in everyone},
    )

    eligible = [e for e in everyone if len(group_points.get(e, ())) >= min_groups]
    others = [e for e in everyone if len(group_points.get(e, ())) < min_groups]

    rows: list[Row] = []
    for members, ranked in ((eligible, True), (others, False)):
        groups, values = _order(members, tally, tie_breaks)
        position_in_table = 1
        for group in groups:
            for entrant in group:
                rows.append(
                    Row(
                        entrant=entrant,
                        rank=position_in_table if ranked else None,
                        ranked=ranked,
                        points=total[entrant],
                        games_played=tally.games_played[entrant],
                        groups_played=len(group_points.get(entrant, ())),
                        wins=tally.wins[entrant],
                        values=values[entrant],
                        counted_groups=counted[entrant],
                        group_points=tuple(
                            (g, Fraction(p, scale))
                            for g, p in sorted(
                                group_points.get(entrant, {}).items(),
                                key=lambda item: position[item[0]],
                            )
                        ),
                    )
                )
            position_in_table += len(group)

    return Standings(
        rows=tuple(rows),
        columns=tuple((key, TIE_BREAKS[key].label) for key in tie_breaks),
        scheme=scheme,
    )
