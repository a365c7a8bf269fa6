"""Algebraic constructions of repeat-free rounds, and fitting them to a number of players.

Every function here returns rounds over the points ``0 … v-1``, a round being a list of tables
(lists of points), all tables of one size:

* :func:`circle` — the circle (Berger) method: ``v - 1`` rounds of pairs, every pair once.
* :func:`affine_space` — the lines of AG(d, q) over GF(q): each direction gives a round (its
  parallel lines), ``(q^d - 1) / (q - 1)`` rounds at tables of ``q``; AG(2, 3) seats 9 players 4
  times, AG(3, 4) 64 players 21 times.
* :func:`transversal` — ``k`` groups of ``m`` players; in round ``a``, table ``j`` takes player
  ``j + i·a`` of group ``i`` (mutually orthogonal Latin squares ``L_a(i, j) = j + i·a``). Over
  GF(m) all ``m`` rounds are repeat-free; over Z_m as many as the zero divisors of m allow (4
  groups of 50: 25 rounds). When ``m`` is a product of prime powers that are all at least ``k``,
  the ring GF(q1) x GF(q2) x … takes the place of the field and all ``m`` rounds are repeat-free
  (MacNeish 1922; Handbook of Combinatorial Designs, 2nd ed., 2007, III.3.3): 3 groups of 24 =
  8·3, whose 24 rounds make the nearly Kirkman triple system NKTS(72) out of NKTS(24) in
  :func:`product`.
* :func:`kirkman` — Kirkman triple systems on ``2q + 1`` points for the prime powers ``q = 1
  (mod 6)``: 15 (Kirkman's schoolgirls), 27, 39, 51, 63, 75, 87, 99, … players at tables of 3,
  every pair exactly once in ``q`` rounds (a 1-rotational construction over GF(q)).
* :func:`product` — designs on ``u`` and ``w`` points make one on ``u·w`` points, with a
  resolvable transversal design in between: Kirkman 15 x 3 gives Kirkman 45, one table of 4 x the
  32 golfers gives 128 players at tables of 4 for 42 rounds.
* :func:`golfers_32` — 32 players at tables of 4 for 10 rounds without a repeat (the social golfer
  problem's best). Points are GF(2)^5, ``T`` the subspace ``{0 … 7}``; each round is closed under
  adding (xor) elements of ``T`` and is given by base tables: six rounds are transversals of the
  four cosets of ``T``, three are made of tables ``{x, x+t, y, y+t}`` on two cosets, one of planes
  inside each coset. The pairs ``{x, x xor 1}`` never meet. The base tables were found by an
  exact-cover search over such T-invariant rounds.

:func:`fit` turns a design on ``v`` points into rounds for ``n <= v`` players by leaving ``v - n``
points empty ("holes"): one hole makes one table per round a seat short (a smaller table, or its
players get the bye); several holes that never meet shorten several tables each round.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from .base import Partition
from .fields import MAX_ORDER, field, prime_power
from .resolvable import kirkman_3q, kirkman_doubling, rbibd_3q_plus_1
from .stored import stored

Tables = list[list[int]]
Design = list[Tables]
PRODUCTS = 1000  # larger numbers of points are not tried as products


def berger(n: int) -> list[list[tuple[int, int]]]:
    """Round robin of ``n`` (even) entrants by the circle method, as (first, second) pairs.

    Entrant ``n - 1`` stays put and plays first in even rounds; the others turn one position a
    round and play first from odd positions, so everyone alternates as much as possible.
    """
    fixed, turning = n - 1, n - 1
    rounds = []
    for r in range(n - 1):
        at = [(p + r) % turning for p in range(turning)]
        games = [(fixed, at[0]) if r % 2 == 0 else (at[0], fixed)]
        for p in range(1, n // 2):
            left, right = at[p], at[turning - p]
            games.append((left, right) if p % 2 else (right, left))
        rounds.append(games)
    return rounds


def circle(v: int) -> Design:
    """``v - 1`` rounds of pairs over ``v`` (even) points, every pair exactly once."""
    return [[list(game) for game in games] for games in berger(v)]


def affine_space(q: int, d: int, rounds: int) -> Design:
    """The first ``rounds`` parallel classes of lines of AG(d, q) (at most ``(q^d-1)/(q-1)``)."""
    gf = field(q)
    points = [[x // q**i % q for i in range(d)] for x in range(q**d)]
    design: Design = []
    for direction in points[1:]:
        if len(design) == rounds:
            break
        lead = next(i for i, c in enumerate(direction) if c)
        if direction[lead] != 1:
            continue
        lines: dict[tuple[int, ...], list[int]] = {}
        for x, coords in enumerate(points):
            shift = [gf.neg[gf.mul[coords[lead]][u]] for u in direction]
            foot = tuple(gf.add[c][s] for c, s in zip(coords, shift, strict=True))
            lines.setdefault(foot, []).append(x)
        design.append(list(lines.values()))
    return design


def _cyclic_labels(k: int, m: int) -> list[int]:
    """Round labels of the Z_m transversal: first those pairwise repeat-free, then the others."""
    good: list[int] = []
    for a in range(m):
        if all(d * (a - b) % m for b in good for d in range(1, k)):
            good.append(a)
    return good + [a for a in range(m) if a not in good]


def _factors(m: int) -> list[int]:
    """The prime-power factors of ``m`` (``m >= 2``), smallest prime first."""
    factors, p = [], 2
    while m > 1:
        q = 1
        while m % p == 0:
            m //= p
            q *= p
        if q > 1:
            factors.append(q)
        p += 1
    return factors


def _ring_transversal(k: int, m: int, rounds: int) -> Design | None:
    """The transversal design over GF(q1) x GF(q2) x … (``m = q1·q2·…``, every ``qi >= k``):
    group ``i`` is the element ``(i, i, …)``, round ``a`` any element (None if a factor is
    smaller than ``k`` or too large for :func:`.fields.field`)."""
    factors = _factors(m)
    if min(factors) < k or max(factors) > MAX_ORDER:
        return None
    fields = [field(q) for q in factors]

    def digits(x: int) -> list[int]:
        out = []
        for q in factors:
            x, r = divmod(x, q)
            out.append(r)
        return out

    def number(values: list[int]) -> int:
        x = 0
        for q, r in zip(reversed(factors), reversed(values), strict=True):
            x = x * q + r
        return x

    def seat(i: int, j: int, a: int) -> int:
        return number(
            [f.add[y][f.mul[i][b]] for f, y, b in zip(fields, digits(j), digits(a), strict=True)]
        )

    return [
        [[i * m + seat(i, j, a) for i in range(k)] for j in range(m)] for a in range(min(rounds, m))
    ]


def transversal(k: int, m: int, rounds: int) -> Design:
    """``rounds`` rounds of ``m`` tables of ``k`` (``k <= m``); point ``i*m + j`` is player ``j``
    of group ``i``, and the players of a group never meet."""
    found = prime_power(m)
    if found is not None and found[1] > 1 and m <= MAX_ORDER:
        gf = field(m)
        return [
            [[i * m + gf.add[j][gf.mul[i][a]] for i in range(k)] for j in range(m)]
            for a in range(min(rounds, m))
        ]
    ring = _ring_transversal(k, m, rounds) if found is None else None
    if ring is not None:
        return ring
    labels = _cyclic_labels(k, m)[:rounds]
    return [[[i * m + (j + i * a) % m for i in range(k)] for j in range(m)] for a in labels]


_GOLFERS_32 = (
    ((0, 12, 20, 29),),
    ((0, 10, 19, 30),),
    ((0, 4, 11, 15), (16, 21, 26, 31)),
    ((0, 13, 17, 26),),
    ((0, 6, 25, 31), (8, 15, 18, 21)),
    ((0, 2, 5, 7), (8, 11, 13, 14), (16, 18, 20, 22), (24, 27, 28, 31)),
    ((0, 3, 21, 22), (8, 10, 24, 26)),
    ((0, 9, 18, 28),),
    ((0, 14, 16, 24),),
    ((0, 8, 23, 27),),
)


def golfers_32() -> Design:
    """10 rounds of 8 tables of 4 over GF(2)^5 in which no two points meet twice."""
    design = []
    for bases in _GOLFERS_32:
        tables = {tuple(sorted(x ^ t for x in base)) for base in bases for t in range(8)}
        design.append([list(table) for table in sorted(tables)])
    return design


def kirkman(q: int) -> Design:
    """A Kirkman triple system on ``2q + 1`` points (``q = 6t + 1`` a prime power): ``q`` rounds,
    every pair once.

    Points: two copies of GF(q) (``x`` and ``q + x``) and ``2q``. With ``w`` a primitive element,
    ``e = w^(2t)`` a cube root of unity and ``C3 = {1, e, e²}``, the base round is ``{2q, 0, q}``,
    the triples ``w^i·C3`` of the first copy (``i < t``: their differences cover GF(q)* once) and
    the triples ``e^s·w^i·{w^t; q + b, q + c}`` (``s < 3``, ``i < t``). They cover the other
    differences once when ``c/b`` and ``(c - w^t)/(b - w^t)`` are both ``w`` to a power
    ``= t (mod 2t)``; ``b`` and ``c`` are found by trying all pairs (six work, for every such q up
    to 127). Round ``g`` adds ``g`` to every point but ``2q``.
    """
    gf = field(q)
    t = (q - 1) // 6
    power = gf.powers
    log = {x: i for i, x in enumerate(power)}
    a = power[t]
    cube = [1, power[2 * t], power[4 * t]]

    def ratio_ok(x: int, y: int) -> bool:
        return (log[y] - log[x]) % (2 * t) == t % (2 * t)

    b, c = next(
        (b, c)
        for b in power
        for c in power
        if a not in (b, c)
        and ratio_ok(b, c)
        and ratio_ok(gf.add[b][gf.neg[a]], gf.add[c][gf.neg[a]])
    )
    base = [[2 * q, 0, q]]
    for i in range(t):
        base += [[gf.mul[power[i]][z] for z in cube]]
        for z in cube:
            turn = gf.mul[power[i]][z]
            base.append([gf.mul[a][turn], q + gf.mul[b][turn], q + gf.mul[c][turn]])

    def moved(x: int, g: int) -> int:
        return x if x == 2 * q else x - x % q + gf.add[x % q][g]

    return [[[moved(x, g) for x in table] for table in base] for g in range(q)]


def product(left: Design, right: Design, k: int) -> Design | None:
    """Rounds on ``u·w`` points (``(x, y)`` is ``x*w + y``) from designs on ``u`` and ``w``
    points: for each round of ``left`` and each round of a resolvable transversal design on
    ``k`` groups of ``w``, every table ``T`` of ``left`` seats ``T x {0 … w-1}`` by that
    transversal round; then each round of ``right`` is played on every ``{x} x {0 … w-1}``. No
    pair meets twice if neither design repeats one (None if the transversal design would)."""
    u = sum(map(len, left[0]))
    w = sum(map(len, right[0]))
    latin = transversal(k, w, w)
    if _repeats(latin):
        return None
    design = []
    for tables in left:
        for classes in latin:
            design.append(
                [
                    [table[i] * w + y % w for i, y in enumerate(cell)]
                    for table in tables
                    for cell in classes
                ]
            )
    for tables in right:
        design.append([[x * w + y for y in table] for x in range(u) for table in tables])
    return design


def _repeats(design: Design) -> bool:
    seen: set[tuple[int, int]] = set()
    for tables in design:
        for table in tables:
            for pair in combinations(sorted(table), 2):
                if pair in seen:
                    return True
                seen.add(pair)
    return False


def _basic(v: int, k: int, rounds: int) -> Iterator[tuple[str, Design]]:
    """The designs of :func:`designs` other than products."""
    if v == k:
        yield "one table", [[list(range(v))]]
    if k == 2 and v % 2 == 0:
        yield "circle method", circle(v)
    found = prime_power(k)
    if found is not None and k <= MAX_ORDER:
        d = 2
        while k**d < v:
            d += 1
        if k**d == v:
            yield f"affine space AG({d},{k})", affine_space(k, d, rounds)
    q = (v - 1) // 2
    found = prime_power(q)
    if k == 3 and v % 6 == 3 and q % 6 == 1 and found is not None and q <= MAX_ORDER:
        yield f"Kirkman triple system on GF({q}) x 2 + 1", kirkman(q)
    q = v // 3
    found = prime_power(q)
    if k == 3 and v % 3 == 0 and q % 6 == 1 and found is not None and q <= MAX_ORDER:
        yield f"Kirkman triple system on GF({q}) x 3", kirkman_3q(q)
    q = (v - 1) // 3
    found = prime_power(q)
    if k == 4 and v % 3 == 1 and q % 4 == 1 and found is not None and q <= MAX_ORDER:
        yield f"resolvable (v,4,1) design on GF({q}) x 3 + 1", rbibd_3q_plus_1(q)
    if k == 3 and v % 6 == 3 and v > 9:
        u = (v - 1) // 2
        complete = (
            (name, lines)
            for name, lines in _basic(u, 4, u)
            if len(lines) * 3 == u - 1 and not _repeats(lines)
        )
        found_lines = next(complete, None)
        if found_lines is not None:
            blocks = [table for tables in found_lines[1] for table in tables]
            small = {4: affine_space(3, 2, 4)}
            doubled = kirkman_doubling(blocks, u, small)
            yield f"Kirkman doubling of the {found_lines[0]}", doubled
    yield from stored(v, k)
    if v == 32 and k == 4:
        yield "GF(2)^5 social golfer design", golfers_32()
    if v % k == 0 and v // k >= k:
        yield f"transversal design ({k} groups of {v // k})", transversal(k, v // k, rounds)


def designs(v: int, k: int, rounds: int) -> Iterator[tuple[str, Design]]:
    """The algebraic designs with ``v`` points at tables of ``k``, named, cheapest first; last,
    products ``u x w`` of the repeat-free designs on ``u`` and ``w`` points (up to 1000 points)."""
    yield from _basic(v, k, rounds)
    for w in range(k, v // k + 1 if v <= PRODUCTS else 0, k):
        if v % w:
            continue
        parts = []
        for size in (v // w, w):
            perfect = [(name, d) for name, d in _basic(size, k, size) if not _repeats(d)]
            if perfect:
                parts.append(max(perfect, key=lambda item: len(item[1])))
        if len(parts) == 2:
            design = product(parts[0][1], parts[1][1], k)
            if design is not None:
                yield f"product of {parts[0][0]} and {parts[1][0]}", design


def _holes(design: Design, v: int, count: int) -> list[int] | None:
    """``count`` points, none two of which share a table in ``design`` (last points first)."""
    apart: list[set[int]] = [set() for _ in range(v)]
    for tables in design:
        for table in tables:
            for a, b in combinations(table, 2):
                apart[a].add(b)
                apart[b].add(a)
    holes: list[int] = []
    for x in range(v - 1, -1, -1):
        if len(holes) < count and not apart[x].intersection(holes):
            holes.append(x)
    return holes if len(holes) == count else None


def targets(partition: Partition) -> list[int]:
    """The numbers of points ``v`` a uniform design may have to be fitted to ``partition``: the
    players, plus one (one table's players get the byes, or one table is a seat short), plus as
    many holes as tables a seat short."""
    sizes, byes = partition.sizes, partition.byes
    k = sizes[0]
    short = sizes.count(k - 1)
    n = partition.players
    if short + sizes.count(k) < len(sizes):
        return []
    if short == 0 and byes in (0, k - 1):
        return [n + (1 if byes else 0)]
    return [n + short] if byes == 0 else []


def fit(design: Design, partition: Partition, rounds: int) -> list[tuple[Tables, list[int]]] | None:
    """``rounds`` rounds for ``partition.players`` players (0 … n-1) taken from ``design``
    (repeated from its start if it is too short), or None if the holes do not give exactly the
    partition's table sizes and byes."""
    v = sum(len(table) for table in design[0])
    n = partition.players
    used = [design[r % len(design)] for r in range(rounds)]
    holes = _holes(used, v, v - n)
    if holes is None:
        return None
    label = {}
    for x in range(v):
        if x not in holes:
            label[x] = len(label)
    wanted = sorted(partition.sizes)
    result = []
    for tables in used:
        seated, byes = [], []
        for table in tables:
            kept = [label[x] for x in table if x in label]
            if len(kept) in wanted:
                seated.append(kept)
            else:
                byes.extend(kept)
        if sorted(len(t) for t in seated) != wanted or len(byes) != partition.byes:
            return None
        result.append((seated, byes))
    return result
