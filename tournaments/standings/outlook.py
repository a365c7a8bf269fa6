"""Who can still win: for a league or circuit with nights still to play, each entrant's outlook
(``outlook``): whether it has clinched first place, can still finish first, or cannot, and the
best and worst final rank still possible, computed over every completion of the nights left.

Definitions (docs/outlook.md explains them with examples)
---------------------------------------------------------
completion
    One way the nights left can go. A *drawn* night (``Night.tables``) is played at its tables:
    every entrant seated there plays, and each table ends in any order of its members, shared
    places included (equal results share a place, as in ``compute``). A night *not drawn yet*
    (``Night.entrants``) may be attended by any of its entrants or not; those who come sit at
    tables of one of the allowed sizes (``Night.sizes``), each of which ends in any order.
final points
    What ``compute`` would give: the best ``best_of`` nights (all without it) plus the
    organizer's adjustments (``bonus``).
rank
    Tie-breaks are not known in advance, so a rank is a range: ``best`` counts only the entrants
    with strictly more points (the entrant wins every tie), ``worst`` every entrant with at
    least as many (it loses every tie). With ``min_groups``, an entrant is ranked only when it
    played that many nights, and only ranked entrants count.
can still win (``CAN_WIN``)
    Some completion where the entrant is ranked and no ranked entrant has more points
    (``best == 1``).
clinched (``CLINCHED``)
    In every completion the entrant is ranked and alone on top (``worst == 1``): nobody even
    ties it, so no tie-break can take first place away.
cannot win (``CANNOT_WIN``)
    Neither: in every completion someone ranked has more points.

Method and exactness
--------------------
Bounds first, from pairs: for every two entrants, each night left is reduced to what the pair
can score there (independently, or jointly when they sit at the same drawn table), which
decides whether one can end at least level with, or above, the other. Those answers bound the
ranks safely: ``best`` is at least 1 + the entrants above in every completion, ``worst`` at
most 1 + those at least level in some completion. Then a witness is searched, an actual
completion reaching the bound (the entrant first alone at its tables and the others kept
below, for ``best``; the reverse for ``worst``): a depth-first search over the drawn tables
with pruning, and a greedy seating for the nights not drawn. A witness found makes the bound
exact; a search over drawn tables alone that ends without one proves the entrant cannot reach
it (``CANNOT_WIN``, exact). Otherwise (the node ``budget`` spent, or nights not drawn where the
greedy seating found nothing) the answer stays a safe bound, flagged ``exact=False`` with the
reason: never "cannot" for an entrant that could win, never "clinched" for one that could
lose.

Points come from a placement row per table size (``rows``), shared places sharing their
points, as under the ``placement``, ``fair_placement`` and ``matches_won`` schemes (``rows_for``
makes them). Points must not be negative and a row must not increase from one place to the
next. Schemes whose points are unbounded (``game_score``) have no outlook.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from math import lcm

from .outlook_search import Search, Spent
from .ranking import _placement_table
from .records import Result
from .schemes import SCHEMES

CLINCHED = "clinched"
CAN_WIN = "can_win"
CANNOT_WIN = "cannot_win"

#: Why an answer is a bound and not exact.
BUDGET = "budget"  # the search over the drawn tables was cut short
NOT_DRAWN = "not_drawn"  # nights not drawn yet: the seating tried found no witness

#: The largest table whose orders are enumerated (7 seats: 47,293 orders).
MAX_TABLE = 7

ZERO = Fraction(0)


@dataclass(frozen=True, slots=True)
class Night:
    """A night (round, tournament) still to play: drawn, with its ``tables`` (the entrants of
    each), or not drawn yet, with the ``entrants`` who may come and the table ``sizes``."""

    group: Hashable
    tables: tuple[tuple[int, ...], ...] = ()
    entrants: tuple[int, ...] = ()
    sizes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Outlook:
    """One entrant's outlook. ``best``/``worst`` are None for an entrant that cannot reach
    ``min_groups``. ``exact`` covers the status, ``ranks_exact`` the ranks; ``reason`` says why
    one is a bound."""

    entrant: int
    status: str
    best: int | None
    worst: int | None
    exact: bool
    ranks_exact: bool
    reason: str = ""

    def as_json(self) -> dict:
        """The outlook as the standings and the API carry it (the entrant is the key)."""
        return {
            "status": self.status,
            "best": self.best,
            "worst": self.worst,
            "exact": self.exact,
            "ranks_exact": self.ranks_exact,
            "reason": self.reason,
        }


def rows_for(
    scheme: str, sizes: Iterable[int], placement_points: Mapping[int, Sequence] | None = None
) -> dict[int, dict[tuple[int, int], Fraction]]:
    """The points of a seat by (place, shared) at each table size, under ``scheme`` (one of
    ``SCHEMES``; ``ValueError`` for ``game_score``, whose points are unbounded)."""
    if scheme == "game_score":
        raise ValueError("game scores are unbounded: no outlook")
    table = _placement_table(placement_points)
    points = SCHEMES[scheme].points
    rows: dict[int, dict[tuple[int, int], Fraction]] = {}
    for size in sizes:
        rows[size] = {
            (place, shared): Fraction(
                points(Result(0, 0, 0, place, size, 0), shared, table)  # only place/size matter
            )
            for place in range(1, size + 1)
            for shared in range(1, size - place + 2)
        }
    return rows


@cache
def orders(size: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every order of a table of ``size`` seats, shared places included: per seat its
    (place, shared)."""
    found = []
    for levels in product(range(size), repeat=size):
        used = sorted(set(levels))
        if used != list(range(len(used))):
            continue
        count = [levels.count(level) for level in used]
        start = [1 + sum(count[:level]) for level in used]
        found.append(tuple((start[level], count[level]) for level in levels))
    return tuple(found)


def best_n(values: Iterable[Fraction], n: int | None) -> Fraction:
    """The sum of the ``n`` best values (all of them when ``n`` is None)."""
    values = sorted(values, reverse=True)
    return sum(values if n is None else values[:n], ZERO)


Values = dict[int, int | None]  # night index -> points, scaled (None: not played)


class _League:
    """The question as plain lookups: what each entrant has, what each night offers it.
    Private to ``outlook``."""

    def __init__(self, played, nights, rows, best_of, bonus, min_groups, budget):
        # Exact integer arithmetic over one common denominator (Fractions are slow).
        figures = [Fraction(v) for got in played.values() for v in got]
        figures += [Fraction(v) for v in bonus.values()]
        figures += [Fraction(v) for row in rows.values() for v in row.values()]
        scale = lcm(*(f.denominator for f in figures))

        def scaled(value) -> int:
            value = Fraction(value)
            return value.numerator * (scale // value.denominator)

        self.entrants = sorted(played)
        self.played = {e: len(played[e]) for e in self.entrants}
        # only the best ``best_of`` nights played can count
        self.top = {
            e: sorted((scaled(v) for v in played[e]), reverse=True)[:best_of] for e in self.entrants
        }
        self.nights = list(nights)
        self.best_of, self.min_groups, self.budget = best_of, min_groups, budget
        self.spent = 0  # search nodes visited, all searches together
        self._domains: dict = {}
        self.bonus = {e: scaled(bonus.get(e, 0)) for e in self.entrants}
        self.rows = {size: {k: scaled(v) for k, v in row.items()} for size, row in rows.items()}
        for size, row in self.rows.items():
            if size > MAX_TABLE:
                raise ValueError(f"tables of {size}: at most {MAX_TABLE} seats")
            alone = [row[(place, 1)] for place in range(1, size + 1)]
            if alone[-1] < 0 or alone != sorted(alone, reverse=True):
                raise ValueError(f"placement points at tables of {size} rise or go below 0")
        self.seat: dict[tuple[int, int], tuple[int, ...]] = {}  # (night, entrant) -> table
        self.open: list[tuple[int, ...]] = []  # the sizes that fit each night not drawn
        for index, night in enumerate(self.nights):
            for table in night.tables:
                for e in table:
                    self.seat[(index, e)] = table
            self.open.append(tuple(s for s in night.sizes if s <= len(night.entrants)))
        self.options = {
            e: [self._options(e, i) for i in range(len(self.nights))] for e in self.entrants
        }
        self._high = {e: {i: o[0] for i, o in enumerate(self.options[e])} for e in self.entrants}
        self._low = {e: {i: o[-1] for i, o in enumerate(self.options[e])} for e in self.entrants}

    def _options(self, e: int, index: int) -> tuple[int | None, ...]:
        """What ``e`` may score on night ``index``, best first; None: it does not play."""
        table = self.seat.get((index, e))
        if table is not None:
            return tuple(sorted(set(self.rows[len(table)].values()), reverse=True))
        if e in self.nights[index].entrants and self.open[index]:
            got = {v for size in self.open[index] for v in self.rows[size].values()}
            return (*sorted(got, reverse=True), None)
        return (None,)

    def high(self, e: int) -> Values:
        """``e`` at its best every night (a copy)."""
        return dict(self._high[e])

    def low(self, e: int) -> Values:
        """``e`` at its worst every night, absent where it may be (a copy)."""
        return dict(self._low[e])

    def final(self, e: int, new: Values) -> int:
        """``e``'s final points (scaled) with the points ``new`` of the nights left."""
        got = [v for v in new.values() if v is not None]
        if self.best_of is None:
            return sum(self.top[e]) + sum(got) + self.bonus[e]
        got += self.top[e]
        got.sort(reverse=True)
        return sum(got[: self.best_of]) + self.bonus[e]

    def ranked(self, e: int, new: Values) -> bool:
        return self.played[e] + sum(v is not None for v in new.values()) >= self.min_groups

    # -- pairs ------------------------------------------------------------------------------

    def reach(self, a: int, b: int, strict: bool) -> bool:
        """Whether some completion (relaxed: each night for the pair alone) has ``a`` (ranked in
        some completion) with more points than ``b`` (``strict``) or at least as many."""
        mine, theirs = self.high(a), self.low(b)
        coupled = []
        for i in range(len(self.nights)):
            table = self.seat.get((i, a))
            if table is not None and b in table:
                pa, pb = table.index(a), table.index(b)
                values = self.rows[len(table)]
                pairs = {(values[o[pa]], values[o[pb]]) for o in orders(len(table))}
                coupled.append(
                    (
                        i,
                        [
                            p
                            for p in pairs
                            if not any(q != p and q[0] >= p[0] and q[1] <= p[1] for q in pairs)
                        ],
                    )
                )
        for choice in product(*(pairs for _i, pairs in coupled)):
            for (i, _pairs), (va, vb) in zip(coupled, choice, strict=True):
                mine[i], theirs[i] = va, vb
            gap = self.final(a, mine) - self.final(b, theirs)
            if gap > 0 or (gap == 0 and not strict):
                return True
        return False

    # -- witnesses --------------------------------------------------------------------------

    def own(self, x: int, best: bool) -> Values:
        """``x`` at its best (first alone at every table, at every night it may come to, at the
        size whose first place pays most) or its worst (last alone; at a night not drawn, last
        when that pays nothing, else absent, but present as often as it takes to be ranked)."""
        mine: Values = {}
        for i, night in enumerate(self.nights):
            table = self.seat.get((i, x))
            if table is not None:
                mine[i] = self.rows[len(table)][(1, 1) if best else (len(table), 1)]
            elif x in night.entrants and self.open[i]:
                size = self.pay_size(i)
                # at its worst, x comes only to lose for nothing: one more seat to fill
                last = self.rows[size][(size, 1)]
                mine[i] = self.rows[size][(1, 1)] if best else (0 if last == 0 else None)
            else:
                mine[i] = None
        for i, night in enumerate(self.nights):
            if not self.ranked(x, mine) and x in night.entrants and self.open[i]:
                size = self.pay_size(i)
                mine[i] = self.rows[size][(size, 1)]
        return mine

    def domain(self, size: int, fixed: int | None, positions: tuple[int, ...], best: bool):
        """The distinct points of the seats ``positions`` over the orders of a table of
        ``size``, the seat ``fixed`` (x's) first alone (``best``) or last alone."""
        key = (size, fixed, positions, best)
        if key not in self._domains:
            values = self.rows[size]
            wanted = (1, 1) if best else (size, 1)
            self._domains[key] = sorted(
                {
                    tuple(values[o[p]] for p in positions)
                    for o in orders(size)
                    if fixed is None or o[fixed] == wanted
                }
            )
        return self._domains[key]

    def pay_size(self, i: int) -> int:
        """The table size of night ``i`` (not drawn) whose first place pays most (the smallest
        of those)."""
        return min(self.open[i], key=lambda s: (-self.rows[s][(1, 1)], s))

    def witness(
        self, x: int, best: bool, constrained: set[int], allowed: int = 0
    ) -> tuple[bool, bool]:
        """Look for a completion with ``x`` at its best and no constrained entrant ranked above
        it (``best``), or at its worst with every constrained entrant ranked and at least level;
        ``allowed`` of them may break that. Returns (found, whether not finding it proves there
        is none)."""
        new: dict[int, Values] = {e: {} for e in self.entrants}
        new[x] = self.own(x, best)  # ranked: x is ranked in some completion
        target = self.final(x, new[x])
        exhaustive = True
        for i, night in enumerate(self.nights):
            if night.tables:
                continue
            if (x in night.entrants or constrained & set(night.entrants)) and self.open[i]:
                exhaustive = False
            seated = (self._seat_best if best else self._seat_worst)(i, x, new, target, constrained)
            if not seated:
                return False, False
        # The drawn nights' attendance is fixed: who is ranked is now known.
        for e in self.entrants:
            for i, night in enumerate(self.nights):
                if night.tables and e != x:
                    new[e].setdefault(i, None if (i, e) not in self.seat else 0)
        live = {e for e in constrained if self.ranked(e, new[e])}
        if not best:  # an unranked one is not level with x
            allowed -= len(constrained - live)
            if allowed < 0:
                return False, exhaustive
        for e in live:
            for i in range(len(self.nights)):
                if (i, e) in self.seat:
                    del new[e][i]
        search = Search(self, x, best, target, live, new, allowed)
        try:
            return search.run(), exhaustive
        except Spent:
            return False, False

    def _seat_best(self, i, x, new, target, constrained) -> bool:
        """Seat night ``i`` (not drawn) with ``x`` first alone at a table of the size that pays
        it most, companions who lose the least by it, everyone else absent."""
        night = self.nights[i]
        for e in night.entrants:
            new[e].setdefault(i, None)
        if new[x][i] is None:
            return True
        size = self.pay_size(i)
        others = [e for e in night.entrants if e != x]

        def slack(e):
            return target - self.final(e, {**self.low(e), **new[e]})

        others.sort(key=lambda e: (e in constrained, -slack(e) if e in constrained else 0))
        companions = others[: size - 1]
        row = self.rows[size]
        for pattern in (
            [row[(p, 1)] for p in range(2, size + 1)],
            [row[(2, size - 1)]] * (size - 1),
        ):
            if all(
                e not in constrained or self._fits(e, i, v, new, target)
                for e, v in zip(companions, pattern, strict=True)
            ):
                for e, v in zip(companions, pattern, strict=True):
                    new[e][i] = v
                return True
        return False

    def _fits(self, e, i, value, new, target) -> bool:
        return self.final(e, {**self.low(e), **new[e], i: value}) <= target

    def _seat_worst(self, i, x, new, target, constrained) -> bool:
        """Seat night ``i`` (not drawn) so that the constrained entrants furthest below ``x``
        win: each table one of them first, filled from the other end of the queue."""
        night = self.nights[i]
        for e in night.entrants:
            new[e].setdefault(i, None)
        if not self.open[i]:
            return True
        size = self.pay_size(i)

        def need(e):
            if e == x:
                return (0, 0)
            if e not in constrained:
                return (1, 0)
            return (2, target - self.final(e, {**self.high(e), **new[e], i: None}))

        queue = sorted(
            (e for e in night.entrants if e != x or new[x][i] is not None), key=need, reverse=True
        )
        while len(queue) >= size:
            table = [queue.pop(0), *queue[len(queue) - size + 1 :]]
            del queue[len(queue) - size + 1 :]
            table = [table[0], *sorted(table[1:], key=need, reverse=True)]
            for place, e in enumerate(table, start=1):
                if e != x:
                    new[e][i] = self.rows[size][(place, 1)]
        return x not in queue


def outlook(
    played: Mapping[int, Sequence[Fraction | int]],
    nights: Sequence[Night],
    *,
    rows: Mapping[int, Mapping[tuple[int, int], Fraction]],
    best_of: int | None = None,
    bonus: Mapping[int, Fraction | int] | None = None,
    min_groups: int = 0,
    budget: int = 3_000,
) -> dict[int, Outlook]:
    """The outlook of every entrant of ``played`` (entrant -> its points of each night played,
    every entrant listed) over the ``nights`` left, with the points of a seat by (place, shared)
    per table size ``rows`` (``rows_for``), ``best_of`` and ``min_groups`` as in ``compute``
    and the adjustments' total per entrant ``bonus``. ``budget``: the nodes all the searches
    together may visit (one search a tenth of them at most). ``ValueError`` for a table too large or points that rise or go below 0."""
    league = _League(played, nights, rows, best_of, bonus or {}, min_groups, budget)
    everyone = league.entrants
    sure = {e for e in everyone if league.ranked(e, league.low(e))}  # ranked in every completion
    possible = {e for e in everyone if league.ranked(e, league.high(e))}
    result: dict[int, Outlook] = {}
    for x in everyone:
        if x not in possible:
            result[x] = Outlook(x, CANNOT_WIN, None, None, exact=True, ranks_exact=True)
            continue
        above = {y for y in sure - {x} if not league.reach(x, y, strict=False)}
        level = {y for y in possible - {x} if league.reach(y, x, strict=False)}
        best, worst = 1 + len(above), 1 + len(level)
        reasons = set()
        best_found, best = _tighten(league, x, True, set(everyone) - above - {x}, best, +1)
        worst_found, worst = (
            (True, 1) if worst == 1 else _tighten(league, x, False, level, worst, -1)
        )
        for found in (best_found, worst_found):
            if not found:
                reasons.add(BUDGET if _all_drawn(league) else NOT_DRAWN)
        if worst == 1 and x in sure:
            status, exact = CLINCHED, True
        elif best == 1:
            # not clinched either: someone may end level (a witness), or x unranked
            status, exact = CAN_WIN, best_found and (worst_found or x not in sure)
        else:
            status, exact = CANNOT_WIN, True
        result[x] = Outlook(
            x,
            status,
            best,
            worst,
            exact=exact,
            ranks_exact=best_found and worst_found,
            reason="" if exact and best_found and worst_found else "/".join(sorted(reasons)),
        )
    return result


def _tighten(league: _League, x: int, best: bool, constrained: set[int], bound: int, step: int):
    """Search a witness of the rank ``bound`` (``best``: only ``bound - 1`` entrants above
    ``x``; else ``bound - 1`` at least level); each search that proves there is none moves the
    bound one ``step``. Returns (whether the bound is exact, the bound)."""
    allowed = 0
    while True:  # ends: with every constrained entrant allowed to break, any order will do
        found, proved = league.witness(x, best, constrained, allowed)
        if found:
            return True, bound
        if not proved:
            return False, bound
        allowed += 1
        bound += step


def _all_drawn(league: _League) -> bool:
    return all(
        night.tables or not opened for night, opened in zip(league.nights, league.open, strict=True)
    )
