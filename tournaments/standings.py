"""Standings of a league or tournament, recomputed from plain game results.

Nothing here is stored or edited by hand: the standings table of a competition is computed
afresh from the records of its games every time it is shown, so a corrected hand anywhere flows
through to the totals, the tie-breaks and the ranks. The module is pure Python (standard library
only), takes frozen dataclasses in and gives frozen dataclasses out, and is deterministic: the
same records give the same table whatever their order.

Vocabulary
----------
entrant
    A competitor of the competition, identified by an ``int``: a player, or a fixed pair in
    Briscola for pairs (then a table has two competitors although four people sit at it).
game
    One game played at one table, identified by an ``int``. Pass *all* the results of every game
    you pass at all: shared places and implied opponents are worked out from them.
group
    The round (tournament) or club night (league) a game belongs to; any hashable value. Groups
    are the unit of attendance (``min_groups``) and of best-N-of-M (``best_of``).
place
    An entrant's 1-based place at its table, 1 being the best. Equal results share a place, in
    competition style: ``1, 2, 2, 4``. A place shared by *k* entrants covers *k* places.
score
    The game's own total for the entrant, in the ruleset's own units. In Turkish the lowest
    total wins (penalty points): such results carry ``lowest_wins=True``.
result
    One entrant's outcome in one game (:class:`Result`).
adjustment
    Points an organizer gives or takes directly (a forfeit, a penalty, a correction), added on
    top of the scheme's points (:class:`Adjustment`). An adjustment is never dropped by
    ``best_of`` and counts neither as a game played nor as attendance.

All points are :class:`fractions.Fraction` so that shared places split points exactly and no
rounding error accumulates; formatting them is the caller's business.

Points schemes (``SCHEMES``)
----------------------------
``placement``
    Points by place, per table size. Defaults: 2 competitors 2/0 (so a draw, both placed 1st,
    gives 1 each); 3 seats 4/2/0; 4 seats 3/2/1/0; 5 seats 4/3/2/1/0; 6 seats 5/4/3/2/1/0. The
    organizer may override the points of any table size (``placement_points={3: (4, 2, 0)}``);
    sizes not overridden keep the defaults. Entrants sharing a place share equally the points of
    the places they cover: two tied 2nd at a table of four get (2 + 1) / 2 = 3/2 each.
``fair_placement``
    Placement points that weigh every table size alike: the share of the other competitors at
    the table one finished ahead of, out of 100. First place is worth 100 and last 0 at every
    size (4 seats: 100, 66 2/3, 33 1/3, 0; 3 seats: 100, 50, 0), so a win at a table of four is
    worth what it is worth at a table of three. Shared places share as under ``placement``;
    ``placement_points`` overrides do not apply.
``game_score``
    The sum of the games' own totals. A ``lowest_wins`` (Turkish) total counts negatively, so
    that in the standings a higher number is always better. Mixing rulesets in one league under
    this scheme adds up unlike units; prefer ``placement`` for mixed leagues.
``matches_won``
    1 point per game won alone (place 1, not shared), 1/2 per shared first place (a draw,
    however many share it), 0 otherwise.

Ranking and tie-breaks (``TIE_BREAKS``)
---------------------------------------
Entrants are ordered by their points (the scheme's points over the counted groups, plus
adjustments), then by the tie-breaks the organizer lists, in the organizer's order; each
tie-break only separates entrants still tied on everything before it. For every tie-break a
higher value is better.

``points``
    The points themselves (named so an order or a display may include them explicitly).
``game_score``
    The sum of the games' own totals, Turkish totals inverted (as for the ``game_score`` scheme).
``wins``
    The number of first places, shared ones included.
``head_to_head``
    Computed within each group of entrants still tied when it is applied, and only there: the
    scheme's points each of them earned in the games where they sat with at least one other
    member of that tied group. An entrant alone in its group at that point shows 0.
``opponents_strength``
    Buchholz style: the sum of the final points of every opponent met, one term per meeting (an
    opponent met three times counts three times). Opponents outside the standings count 0.
``hands_won``, ``card_points``
    Briscola: the sums of hands won and of card points (results without them count 0).
``games_played``
    The number of games played; more games rank higher.

The statistics behind the tie-breaks cover every game played; ``best_of`` only selects the
groups whose points make up the primary points.

Entrants tied on points and on every listed tie-break share a rank, and the following rank is
skipped (competition ranking ``1, 2, 2, 4``). Within a shared rank, rows are listed by entrant
id, for a stable display; the rank stays shared.

League options
--------------
``best_of=N``
    Count only each entrant's best N groups, by the entrant's points in the group; between
    groups with equal points the earlier one (in the groups' natural order, or by ``repr`` when
    groups cannot be compared) counts. ``Row.counted_groups`` lists the groups that counted.
``min_groups=M``
    An entrant must have played in at least M groups to be ranked. The others are listed after
    the ranked ones, in the same order of merit, with ``rank=None`` and ``ranked=False``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby, repeat
from math import lcm
from types import MappingProxyType

__all__ = [
    "DEFAULT_PLACEMENT_POINTS",
    "DEFAULT_SCHEME",
    "DEFAULT_TIE_BREAKS",
    "FAIR_FIRST",
    "GAME_UNIT_TIE_BREAKS",
    "SCHEMES",
    "TIE_BREAKS",
    "Adjustment",
    "Result",
    "Row",
    "Scheme",
    "Standings",
    "Tally",
    "TieBreak",
    "compute",
    "fair_row",
]

Value = Fraction | int
PlacementTable = Mapping[int, tuple[Fraction, ...]]

ZERO = Fraction(0)

#: What a new competition uses (a stored competition keeps what it was created with).
DEFAULT_SCHEME = "fair_placement"
#: Tie-breaks that separate entrants tied on points (``points`` itself separates nobody).
DEFAULT_TIE_BREAKS = ("wins", "opponents_strength")
#: Tie-breaks whose figures are in the game's own units: summed over different games they add
#: unlike things (Briscola hands won to Terziglio points). Hands won and card points exist
#: for Briscola only, and are compared between Briscola games alone.
GAME_UNIT_TIE_BREAKS = frozenset({"game_score"})

DEFAULT_PLACEMENT_POINTS: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {
        2: (2, 0),
        3: (4, 2, 0),
        4: (3, 2, 1, 0),
        5: (4, 3, 2, 1, 0),
        6: (5, 4, 3, 2, 1, 0),
    }
)


# --------------------------------------------------------------------------------------------
# Records in
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    """One entrant's outcome in one game."""

    entrant: int
    game: int
    group: Hashable
    place: int
    competitors: int
    score: int
    lowest_wins: bool = False
    opponents: tuple[int, ...] = ()
    hands_won: int | None = None
    card_points: int | None = None
    ruleset: str = ""

    def __post_init__(self) -> None:
        if self.competitors < 2:
            raise ValueError(f"a table has at least 2 competitors, not {self.competitors}")
        if not 1 <= self.place <= self.competitors:
            raise ValueError(f"place {self.place} is not between 1 and {self.competitors}")
        if self.entrant in self.opponents:
            raise ValueError(f"entrant {self.entrant} cannot be its own opponent")
        if len(self.opponents) >= self.competitors:
            raise ValueError(
                f"{len(self.opponents)} opponents at a table of {self.competitors} competitors"
            )


@dataclass(frozen=True, slots=True)
class Adjustment:
    """Points given (or, negative, taken) directly by the organizer, on top of the scheme's."""

    entrant: int
    group: Hashable
    points: Fraction | int
    reason: str = ""


# --------------------------------------------------------------------------------------------
# Points schemes
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scheme:
    """A way of turning one result into points.

    ``points(result, shared, table)`` gets the result, how many entrants share its place at that
    table (1 when alone) and the placement points per table size in force. ``depends_on(result,
    shared)`` names what the points depend on: results with equal keys get equal points, and
    ``points`` is called once per distinct key.
    """

    key: str
    label: str
    points: Callable[[Result, int, PlacementTable], Fraction]
    depends_on: Callable[[Result, int], Hashable]


def _placement(result: Result, shared: int, table: PlacementTable) -> Fraction:
    try:
        row = table[result.competitors]
    except KeyError:
        raise ValueError(f"no placement points for tables of {result.competitors}") from None
    covered = row[result.place - 1 : result.place - 1 + shared]
    return sum(covered, ZERO) / shared


#: What first place is worth at every table size under ``fair_placement``.
FAIR_FIRST = 100


def fair_row(size: int) -> tuple[Fraction, ...]:
    """``fair_placement`` points by place at a table of ``size``: the share of the other
    competitors beaten, out of 100 (4 seats: 100, 66 2/3, 33 1/3, 0; 3 seats: 100, 50, 0)."""
    return tuple(Fraction(FAIR_FIRST * (size - place), size - 1) for place in range(1, size + 1))


def _fair_placement(result: Result, shared: int, table: PlacementTable) -> Fraction:
    covered = fair_row(result.competitors)[result.place - 1 : result.place - 1 + shared]
    return sum(covered, ZERO) / shared


def _game_score(result: Result, shared: int, table: PlacementTable) -> Fraction:
    return Fraction(-result.score if result.lowest_wins else result.score)


def _matches_won(result: Result, shared: int, table: PlacementTable) -> Fraction:
    if result.place != 1:
        return ZERO
    return Fraction(1) if shared == 1 else Fraction(1, 2)


SCHEMES: dict[str, Scheme] = {
    scheme.key: scheme
    for scheme in (
        Scheme(
            "placement",
            "Placement points",
            _placement,
            lambda result, shared: (result.competitors, result.place, shared),
        ),
        Scheme(
            "fair_placement",
            "Placement points, fair across table sizes",
            _fair_placement,
            lambda result, shared: (result.competitors, result.place, shared),
        ),
        Scheme(
            "game_score",
            "Game score",
            _game_score,
            lambda result, shared: (result.score, result.lowest_wins),
        ),
        Scheme(
            "matches_won",
            "Games won",
            _matches_won,
            lambda result, shared: (result.place == 1, shared == 1),
        ),
    )
}


# --------------------------------------------------------------------------------------------
# Tie-breaks
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tally:
    """What the tie-breaks are computed from, for every entrant of the standings.

    For speed, points are also held as integers over one common denominator, ``scale``:
    ``scaled_points[e] == points[e] * scale``. ``meetings[e]`` has one ``(points earned * scale,
    opponents)`` pair per game ``e`` played; ``opponents_met[e]`` every opponent ``e`` met, once
    per meeting.
    """

    scale: int
    points: Mapping[int, Fraction]
    scaled_points: Mapping[int, int]
    game_score: Mapping[int, int]
    wins: Mapping[int, int]
    hands_won: Mapping[int, int]
    card_points: Mapping[int, int]
    games_played: Mapping[int, int]
    meetings: Mapping[int, tuple[tuple[int, tuple[int, ...]], ...]]
    opponents_met: Mapping[int, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class TieBreak:
    """A tie-break: ``value(tally, tied)`` gives the value of each of the ``tied`` entrants.

    ``tied`` is a group of entrants still tied when the tie-break is applied; only
    ``head_to_head`` depends on it. Higher values rank higher.
    """

    key: str
    label: str
    value: Callable[[Tally, Sequence[int]], Mapping[int, Value]]


def _lookup(attribute: str) -> Callable[[Tally, Sequence[int]], Mapping[int, Value]]:
    def value(tally: Tally, tied: Sequence[int]) -> Mapping[int, Value]:
        table = getattr(tally, attribute)
        return {entrant: table[entrant] for entrant in tied}

    return value


def _head_to_head(tally: Tally, tied: Sequence[int]) -> Mapping[int, Value]:
    members = set(tied)
    if len(members) < 2:
        return dict.fromkeys(tied, ZERO)
    return {
        entrant: Fraction(
            sum(
                points
                for points, opponents in tally.meetings[entrant]
                if not members.isdisjoint(opponents)
            ),
            tally.scale,
        )
        for entrant in tied
    }


def _opponents_strength(tally: Tally, tied: Sequence[int]) -> Mapping[int, Value]:
    strength = tally.scaled_points.get
    return {
        entrant: Fraction(sum(map(strength, met, repeat(0, len(met)))), tally.scale)
        for entrant, met in ((entrant, tally.opponents_met[entrant]) for entrant in tied)
    }


TIE_BREAKS: dict[str, TieBreak] = {
    tie_break.key: tie_break
    for tie_break in (
        TieBreak("points", "Points", _lookup("points")),
        TieBreak("game_score", "Game score", _lookup("game_score")),
        TieBreak("wins", "Wins", _lookup("wins")),
        TieBreak("head_to_head", "Head to head", _head_to_head),
        TieBreak("opponents_strength", "Opponents' strength", _opponents_strength),
        TieBreak("hands_won", "Hands won", _lookup("hands_won")),
        TieBreak("card_points", "Card points", _lookup("card_points")),
        TieBreak("games_played", "Games played", _lookup("games_played")),
    )
}


# --------------------------------------------------------------------------------------------
# Records out
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    """One entrant's line of the standings."""

    entrant: int
    rank: int | None
    ranked: bool
    points: Fraction
    games_played: int
    groups_played: int
    wins: int
    values: dict[str, Value] = field(hash=False)
    counted_groups: tuple[Hashable, ...] = ()
    #: The scheme's points of each group played, in the groups' order (counted or not).
    group_points: tuple[tuple[Hashable, Fraction], ...] = field(default=(), hash=False)


@dataclass(frozen=True, slots=True)
class Standings:
    """The standings: ``rows`` by rank (unranked last), ``columns`` the tie-breaks' (key, label)."""

    rows: tuple[Row, ...]
    columns: tuple[tuple[str, str], ...]
    scheme: str

    def row(self, entrant: int) -> Row:
        """The row of ``entrant`` (``KeyError`` when it is not in the standings)."""
        for row in self.rows:
            if row.entrant == entrant:
                return row
        raise KeyError(entrant)


# --------------------------------------------------------------------------------------------
# Computation
# --------------------------------------------------------------------------------------------


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
