"""Swiss rounds: players of similar standing at the same table, avoiding tables of players who met.

``standings`` lists the players best first, either as ids or as ``(id, points)`` pairs. A player's
*level* is his rank, or with points the rank of his score group (players on equal points share a
level and are drawn in a random order, from the seed). The tables are filled in order, each
"wanting" the next players of the standings; putting a player at a table costs the distance from
his level to the levels that table wants, and each earlier meeting with a table-mate costs more
than any distance.

1. Byes go to the lowest-ranked player among those with the fewest byes so far.
2. Tables without any repeat: each table takes the best player left, then seat by seat the
   best-ranked player who met nobody at the table, backtracking when stuck (within a budget).
3. If that fails, greedy: the same, taking the players with the fewest earlier meetings; then
   repair: a player who met a table-mate is swapped with a player of another table while that
   lowers the total cost.

A first round has no standings: :func:`first_round` draws it, top half against bottom half by
rating (as chess pairing programs do), at random where players have no rating.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .base import Round, normalise_history
from .rotation import check_players
from .sizes import table_sizes

REPEAT = 1_000_000  # cost of a meeting between players who already met
NODES = 20  # search steps per player allowed to find tables without any repeat


def _standings(standings: Iterable[int | Sequence[int]], rng: random.Random):
    """Ids best first and their levels; players on equal points in a drawn order."""
    entries = list(standings)
    if entries and not isinstance(entries[0], int):
        points = {p: pts for p, pts in entries}
        ids = check_players(p for p, _ in entries)
        groups = sorted(set(points.values()), reverse=True)
        level = {p: groups.index(points[p]) for p in ids}
        keys = {p: rng.random() for p in ids}
        ids = tuple(sorted(ids, key=lambda p: (level[p], keys[p])))
        return ids, [level[p] for p in ids]
    ids = check_players(entries)  # type: ignore[arg-type]
    return ids, list(range(len(ids)))


def swiss_round(
    standings: Iterable[int | Sequence[int]],
    *,
    sizes: Iterable[int],
    ideal: int,
    history: Mapping[Any, int] | None = None,
    seed: int = 0,
    byes: Mapping[int, int] | None = None,
) -> Round:
    """The next round's tables for ``standings`` (ids, or ``(id, points)``, best first).

    ``history`` holds pair meeting counts (:func:`~.base.pair_counts`), ``byes`` the byes each
    player already had. Seat 0 of each table goes to its best-ranked player.
    """
    rng = random.Random(seed)
    ids, level = _standings(standings, rng)
    partition = table_sizes(len(ids), sizes, ideal)
    had = byes or {}
    free = list(range(len(ids)))
    away = []
    for _ in range(partition.byes):
        pick = min(free, key=lambda i: (had.get(ids[i], 0), -i))
        free.remove(pick)
        away.append(pick)
    rank = {p: i for i, p in enumerate(ids)}
    met: dict[int, dict[int, int]] = {i: {} for i in free}
    for (a, b), count in normalise_history(history).items():
        if a in rank and b in rank and rank[a] in met and rank[b] in met:
            met[rank[a]][rank[b]] = met[rank[b]][rank[a]] = count
    wanted = []
    start = 0
    for size in partition.sizes:
        levels = [level[i] for i in free[start : start + size]]
        wanted.append((levels[0], levels[-1]))
        start += size

    def cost(i: int, t: int) -> int:
        low, high = wanted[t]
        return max(0, low - level[i], level[i] - high)

    def meetings(i: int, table: list[int]) -> int:
        row = met[i]
        return sum(row.get(x, 0) for x in table if x != i)

    tables = _without_repeats(free, partition.sizes, met, NODES * len(free))
    if tables is None:
        tables = _greedy(free, partition.sizes, cost, meetings)
        _repair(tables, cost, meetings, met)
    return Round(
        tuple(tuple(ids[i] for i in sorted(table)) for table in tables),
        tuple(ids[i] for i in sorted(away)),
    )


def first_round(
    players: Iterable[int],
    *,
    sizes: Iterable[int],
    ideal: int,
    ratings: Mapping[int, float] | None = None,
    seed: int = 0,
) -> Round:
    """A first round, drawn: the top half against the bottom half by rating.

    Players are ordered by ``ratings``, best first (equal ratings in a drawn order); the players
    without a rating follow, in a random order from ``seed`` (with no ratings at all, the whole
    order is drawn). Byes go to the last of that order. The seated players are then cut into as
    many *bands* as a table has seats, each band as long as the number of tables with that
    seat: the first band holds the best players, the last band the lowest. Each table takes one
    player from each band: table 1 the best of the first band, table 2 the next, and so on,
    while who of a later band goes to which table is drawn from ``seed``. At tables of 2 that
    is top half against bottom half; at tables of 4, a quarter of the field per seat.
    """
    rng = random.Random(seed)
    ids = check_players(players)
    rated = ratings or {}
    keys = {p: rng.random() for p in ids}
    top = sorted((p for p in ids if p in rated), key=lambda p: (-rated[p], keys[p]))
    rest = sorted((p for p in ids if p not in rated), key=lambda p: keys[p])
    order = top + rest
    partition = table_sizes(len(order), sizes, ideal)
    seated, away = order[: len(order) - partition.byes], order[len(order) - partition.byes :]
    tables: list[list[int]] = [[] for _ in partition.sizes]
    start = 0
    for seat in range(max(partition.sizes)):
        at = [t for t, size in enumerate(partition.sizes) if size > seat]
        band = seated[start : start + len(at)]
        start += len(at)
        if seat:
            rng.shuffle(band)
        for t, player in zip(at, band, strict=True):
            tables[t].append(player)
    return Round(tuple(tuple(table) for table in tables), tuple(away))


def _without_repeats(
    free: list[int], sizes: Sequence[int], met: dict[int, dict[int, int]], budget: int
) -> list[list[int]] | None:
    """Tables without any repeat, filled in standing order and backtracking when stuck (as Swiss
    pairings are made by hand); None if there are none or the budget runs out first."""
    seats = [(t, j) for t, size in enumerate(sizes) for j in range(size)]
    tables: list[list[int]] = [[] for _ in sizes]
    left = list(free)
    chosen: list[int] = []  # for each filled seat, where its player was in ``left``
    start = steps = 0
    while len(chosen) < len(seats):
        t, j = seats[len(chosen)]
        table = tables[t]
        for pos in range(start, len(left) if j else 1):
            steps += 1
            if steps > budget:
                return None
            if not any(x in met[left[pos]] for x in table):
                table.append(left.pop(pos))
                chosen.append(pos)
                start = 0
                break
        else:
            if not chosen:
                return None
            pos = chosen.pop()
            left.insert(pos, tables[seats[len(chosen)][0]].pop())
            start = pos + 1
    return tables


def _greedy(free: list[int], sizes: Sequence[int], cost, meetings) -> list[list[int]]:
    """Each table: the best player left, then for each seat the best-ranked player who met nobody
    at the table (or, if everyone did, the one with the fewest meetings, then the closest)."""
    left = list(free)
    tables = []
    for t, size in enumerate(sizes):
        table = [left.pop(0)]
        while len(table) < size:
            best = None
            for pos, i in enumerate(left):
                key = (meetings(i, table), cost(i, t), pos)
                if best is None or key < best:
                    best = key
                if not key[0]:
                    break
            table.append(left.pop(best[2]))  # type: ignore[index]
        tables.append(table)
    return tables


def _repair(tables: list[list[int]], cost, meetings, met: dict[int, dict[int, int]]) -> None:
    """Swap a player who met a table-mate with a player of another table while that lowers the
    total cost (each swap lowers it, so this ends)."""
    improved = True
    while improved:
        improved = False
        for t1, first in enumerate(tables):
            for p in list(first):
                here = meetings(p, first)
                if not here:
                    continue
                stay = REPEAT * here + cost(p, t1)
                best, move = 0, None
                for t2, second in enumerate(tables):
                    if t2 == t1:
                        continue
                    there = meetings(p, second)
                    for q in second:
                        pq = met[p].get(q, 0)
                        joined = meetings(q, first) - pq + there - pq
                        delta = (
                            REPEAT * (joined - meetings(q, second))
                            + cost(q, t1)
                            + cost(p, t2)
                            - cost(q, t2)
                            - stay
                        )
                        if delta < best:
                            best, move = delta, (t2, q)
                if move is not None:
                    t2, q = move
                    first[first.index(p)] = q
                    tables[t2][tables[t2].index(q)] = p
                    improved = True
