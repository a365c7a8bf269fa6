"""Cyclic designs: one base round, turned ``m`` times, gives ``m`` rounds.

The players are ``f`` fixed points plus ``r`` rows of ``m`` (point ``(x, a)``: position ``x`` in
Z_m of row ``a``). Round ``t`` is the base round with every ``(x, a)`` moved to ``(x + t, a)``;
fixed points stay. Two players meet in round ``t`` exactly when the base round holds a pair of
the same *orbit*: a fixed point and a row; a row and a difference ``±d`` inside it; two rows and
the difference of their positions. So the rounds are repeat-free when the base round uses every
orbit at most once (differences ``m/2`` would come back after ``m/2`` rounds and are not used).
With one fixed point and ``k - 1`` rows this is a 1-rotational resolvable design: 15 players,
tables of 3, rows Z_7 x 2 plus one fixed point give Kirkman's schoolgirls (a Kirkman triple
system). With ``k - 1`` fixed points, ``k - 1`` rows and no pair of equal positions in two rows
it is a resolvable group divisible design: 24 players at tables of 4 for 7 rounds (groups of 3).

The base round is found by a depth-first search (fill the first empty point's table with points
whose orbits are still free) with a node budget and seeded restarts. Mixed table sizes are
fine, and byes too: the bye "table" holds position 0 of the first rows, so it turns with the
rest and nobody gets a second bye within ``m`` rounds.

Offline, :func:`sat_search` (a SAT model of the same base round) and
:func:`kirkman_short_search` (a base round plus the short rounds of Ray-Chaudhuri and Wilson)
found designs the depth-first search does not reach in reasonable time; they are kept in
``data/designs.json`` (:mod:`.stored`).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from . import sat
from .base import Partition

Tables = list[list[int]]


@dataclass(frozen=True)
class Structure:
    """``f`` fixed points and ``r`` rows of ``m``; ``groups``: equal positions never meet."""

    m: int
    r: int
    f: int
    groups: bool = False

    @property
    def orbits(self) -> int:
        pure = self.r * ((self.m - 1) // 2)
        mixed = self.r * (self.r - 1) // 2 * (self.m - (1 if self.groups else 0))
        return self.f * self.r + pure + mixed


class _OutOfBudget(Exception):
    pass


def structures(partition: Partition, rounds: int) -> list[Structure]:
    """The structures worth a search for ``rounds`` rounds of ``partition``, tightest first."""
    n, sizes, byes = partition.players, partition.sizes, partition.byes
    k = sizes[0]
    pairs = sum(s * (s - 1) // 2 for s in sizes)
    found = []
    for f in range(min(len(sizes), k) + 1):
        for r in range(1, n - f + 1):
            m = (n - f) // r
            if m * r != n - f or m < max(rounds, 3) or byes > r:
                continue
            options = [Structure(m, r, f)]
            if f == r == k - 1 and not byes and len(set(sizes)) == 1:
                options.append(Structure(m, r, f, groups=True))
            found += [s for s in options if s.orbits >= pairs]
    return sorted(found, key=lambda s: (s.orbits - pairs, s.m))


def _orbit_table(s: Structure) -> tuple[list[list[int]], int]:
    """``orbit[p][q]`` for points ``0 … f-1`` (fixed) then ``f + a*m + x``; -1: never together."""
    m, r, f = s.m, s.r, s.f
    n = f + r * m
    orbit = [[-1] * n for _ in range(n)]
    half = (m - 1) // 2
    pure0 = f * r
    mixed0 = pure0 + r * half
    row_pairs = {}
    for a in range(r):
        for b in range(a + 1, r):
            row_pairs[a, b] = len(row_pairs)
    for i in range(f):
        for a in range(r):
            for x in range(m):
                orbit[i][f + a * m + x] = orbit[f + a * m + x][i] = i * r + a
    for a in range(r):
        for x in range(m):
            p = f + a * m + x
            for y in range(x + 1, m):
                d = min(y - x, m - (y - x))
                if 2 * d != m:
                    orbit[p][f + a * m + y] = orbit[f + a * m + y][p] = pure0 + a * half + d - 1
            for b in range(a + 1, r):
                for y in range(m):
                    d = (y - x) % m
                    if d or not s.groups:
                        q = f + b * m + y
                        orbit[p][q] = orbit[q][p] = mixed0 + row_pairs[a, b] * m + d
    return orbit, n


def _search(s: Structure, partition: Partition, rng: random.Random, budget: int) -> Tables | None:
    """A base round for ``s`` with ``partition``'s tables (byes: the last, extra "table")."""
    orbit, n = _orbit_table(s)
    covered = bytearray(n)
    used = bytearray(s.orbits + s.r * s.m)
    for a in range(partition.byes):
        covered[s.f + a * s.m] = 1
    left = Counter(partition.sizes)
    tables: Tables = []
    nodes = [0]

    def fill() -> bool:
        p = next((x for x in range(n) if not covered[x]), -1)
        if p < 0:
            return True
        covered[p] = 1
        row = orbit[p]
        options = [q for q in range(p + 1, n) if not covered[q] and row[q] >= 0]
        rng.shuffle(options)
        for size in sorted(left, reverse=True):
            if left[size]:
                left[size] -= 1
                if grow([p], options, 0, size):
                    return True
                left[size] += 1
        covered[p] = 0
        return False

    def grow(table: list[int], options: list[int], start: int, size: int) -> bool:
        if len(table) == size:
            tables.append(list(table))
            if fill():
                return True
            tables.pop()
            return False
        for index in range(start, len(options)):
            q = options[index]
            taken = []
            for x in table:
                o = orbit[x][q]
                if o < 0 or used[o] or o in taken:
                    break
                taken.append(o)
            else:
                nodes[0] += 1
                if nodes[0] > budget:
                    raise _OutOfBudget
                for o in taken:
                    used[o] = 1
                covered[q] = 1
                table.append(q)
                if grow(table, options, index + 1, size):
                    return True
                table.pop()
                covered[q] = 0
                for o in taken:
                    used[o] = 0
        return False

    try:
        return tables if fill() else None
    except _OutOfBudget:
        return None


def develop(s: Structure, base: Tables, byes: int, rounds: int) -> list[tuple[Tables, list[int]]]:
    """The first ``rounds`` turns of ``base``, with the bye table at position 0 of rows 0 … byes-1.

    Points are renumbered rows first (``a*m + x``), then the fixed points (``r*m + i``)."""
    f, m = s.f, s.m

    def label(p: int, t: int) -> int:
        if p < f:
            return s.r * m + p
        a, x = divmod(p - f, m)
        return a * m + (x + t) % m

    return [
        (
            [[label(p, t) for p in table] for table in base],
            [label(f + a * m, t) for a in range(byes)],
        )
        for t in range(rounds)
    ]


def cyclic(
    partition: Partition, rounds: int, seed: int, budget: int
) -> tuple[str, list[tuple[Tables, list[int]]]] | None:
    """Repeat-free ``rounds`` for ``partition`` from a cyclic base round, if one is found within
    ``budget`` search nodes. Short searches of every structure come first, then longer ones (two
    seeded restarts each), since which structure has a base round that is easy to find varies."""
    options = structures(partition, rounds)[:4]
    limit, spent = 250, 0
    while options and spent + limit <= budget:
        for s in options:
            for attempt in range(2):
                if spent + limit > budget:
                    return None
                spent += limit
                rng = random.Random(seed * 1_000_003 + limit + attempt)
                base = _search(s, partition, rng, limit)
                if base is not None:
                    name = f"cyclic design (Z_{s.m} x {s.r} + {s.f} fixed)"
                    return name, develop(s, base, partition.byes, rounds)
        limit *= 4
    return None


def _pair_model(s: Structure, k: int) -> tuple[Any, list[list[int]], dict[int, list[int]]]:
    """Clauses for a base round of tables of ``k`` for ``s``: ``e[p][q]`` says points ``p`` and
    ``q`` share a table; every point has exactly ``k - 1`` partners and partners of partners are
    partners (so the tables are cliques of ``k``); pairs that may never meet are never together.
    Also the literals of each orbit's pairs."""
    orbit, n = _orbit_table(s)
    model = sat.Clauses()
    e = [[0] * n for _ in range(n)]
    members: dict[int, list[int]] = {}
    for p in range(n):
        for q in range(p + 1, n):
            e[p][q] = e[q][p] = model.new()
            if orbit[p][q] < 0:
                model.clauses.append([-e[p][q]])
            else:
                members.setdefault(orbit[p][q], []).append(e[p][q])
    for p in range(n):
        model.exactly([e[p][q] for q in range(n) if q != p], k - 1)
        for q in range(n):
            for r in range(q + 1, n):
                if p not in (q, r):
                    model.clauses.append([-e[p][q], -e[p][r], e[q][r]])
    return model, e, members


def _tables(e: list[list[int]], true: set[int]) -> Tables:
    tables: Tables = []
    n = len(e)
    for p in range(n):
        if not any(p in t for t in tables):
            tables.append([p] + [q for q in range(n) if q != p and e[p][q] in true])
    return tables


def sat_search(s: Structure, k: int, seconds: float) -> Tables | None:
    """A base round of tables of ``k`` for ``s`` by a SAT solver (python-sat, see :mod:`.sat`),
    or None if there is none or ``seconds`` ran out (or python-sat is missing).

    The clauses of :func:`_pair_model`, every orbit holding at most one pair. Symmetry (a turn of
    a base round is another): the first fixed point meets row 0, if at all, at position 0."""
    if not sat.available():
        return None
    model, e, members = _pair_model(s, k)
    for literals in members.values():
        model.at_most_one(literals)
    if s.f:
        model.clauses += [[-e[0][s.f + x]] for x in range(1, s.m)]
    found = sat.run(model.clauses, seconds)
    if not found:
        return None
    return _tables(e, {lit for lit in found if lit > 0})


def kirkman_short_search(m: int, seconds: float) -> tuple[Tables, list[tuple[int, int]]] | None:
    """A Kirkman triple system KTS(3m) (``m`` odd) in the structure of Ray-Chaudhuri and Wilson:
    a base round over Z_m x 3 (``m`` rounds) and ``(m - 1) / 2`` short rounds ``{(x, 0),
    (x + a, 1), (x + b, 2)}`` (every ``x``), each using one orbit of pairs between each two rows.
    Found by a SAT solver in which every orbit is used exactly once, by the base round or by a
    short round: the base round and the pairs ``(a, b)``, or None (none, out of time, or no
    python-sat). D. K. Ray-Chaudhuri, R. M. Wilson, "Solution of Kirkman's schoolgirl problem",
    Proc. Symp. Pure Math. 19 (1971): with ``m`` a prime power ``= 1 (mod 6)`` the field gives
    both (:func:`.resolvable.kirkman_3q`); for other ``m``, such as 23 (KTS(69)), the solver."""
    if not sat.available():
        return None
    s = Structure(m, 3, 0)
    model, e, members = _pair_model(s, 3)
    half = (m - 1) // 2
    mixed0 = 3 * half
    short = {}
    for a in range(m):
        for b in range(m):
            short[a, b] = model.new()
            for o in (mixed0 + a, mixed0 + m + b, mixed0 + 2 * m + (b - a) % m):
                members[o].append(short[a, b])
    for literals in members.values():
        model.exactly(literals, 1)
    found = sat.run(model.clauses, seconds)
    if not found:
        return None
    true = {lit for lit in found if lit > 0}
    return _tables(e, true), [pair for pair, lit in short.items() if lit in true]
