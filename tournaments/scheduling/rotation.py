"""All the rounds of an event up front, so that players meet as many different people as possible.

1. :func:`~.sizes.table_sizes` splits the players into tables (byes only as a last resort).
2. Constructions (:mod:`.designs`, :mod:`.cyclic`) give the perfect and the tight cases; each is
   fitted to the players (holes for the missing ones) and kept only if its byes are fair and, with
   tables of different sizes, everyone sits at each size about as often.
3. Unless a construction is already as good as possible, the tabu search (:mod:`.tabu`) starts from
   the best of them, or from a greedy plan with byes drawn in turn, and the better plan is kept.
4. Seats: at each table the player who has dealt least (and, where the dealer sits out, sat out
   least) takes seat 0, the others follow by how little they dealt; then, while a player has been
   at seat 0 twice more than another, seat 0 is handed over along a chain of tables between them.

Rounds already played stay as they are; their meetings, like the ``history`` of earlier events,
count as meetings to avoid, and a player absent from a played round counts as having had a bye.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from .base import Partition, Round, Schedule, as_round, measure, normalise_history
from .cyclic import cyclic
from .designs import designs, fit, targets
from .sizes import table_sizes
from .tabu import OBJECTIVES, Search, greedy

Tables = list[list[int]]
Plan = list[tuple[Tables, list[int]]]

EVALUATIONS = 300_000  # swaps the tabu search may evaluate at effort 1
NODES = 40_000  # nodes the cyclic search may visit at effort 1
CYCLIC_PLAYERS = 100  # larger events skip the cyclic search


def check_players(players: Iterable[int]) -> tuple[int, ...]:
    players = tuple(players)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    return players


def repeat_floor(partition: Partition, rounds: int) -> int:
    """A floor under the repeated meetings of any ``rounds`` rounds of ``partition``, from counting
    (pairs available, partners available, tables drawn from few earlier tables); 0 when these
    arguments do not rule out a perfect schedule."""
    n, sizes = partition.players, partition.sizes
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    total = rounds * per_round
    floor = max(0, total - n * (n - 1) // 2, total - n * min(n - 1, rounds * (sizes[0] - 1)) // 2)
    # a table takes its players from the previous round's tables (at least this many pairs of
    # them sat together) and from its byes, each of whom can spare one such pair
    groups = len(sizes)

    def together(s: int) -> int:
        q, extra = divmod(s, groups)
        return extra * (q + 1) * q // 2 + (groups - extra) * q * (q - 1) // 2

    seats = list(sizes)
    for _ in range(partition.byes):
        gain, t = max((together(s) - together(s - 1), t) for t, s in enumerate(seats) if s)
        if gain:
            seats[t] -= 1
    least = sum(together(s) for s in seats)
    return max(floor, (rounds - 1) * least)


def fair_byes(plan: Plan, byes: list[int]) -> bool:
    """Whether no player ever gets a bye while someone seated has had fewer."""
    counts = list(byes)
    for tables, away in plan:
        seated = [p for table in tables for p in table]
        if away and seated and max(counts[p] for p in away) > min(counts[p] for p in seated):
            return False
        for p in away:
            counts[p] += 1
    return True


def even_sizes(plan: Plan, n: int) -> bool:
    """Whether, when tables differ in size, nobody sits at tables of one size more than two rounds
    more than somebody else (a design with holes may keep a player at the big tables)."""
    sizes = {len(t) for tables, _ in plan for t in tables}
    if len(sizes) < 2:
        return True
    for size in sizes:
        counts = [0] * n
        for tables, _ in plan:
            for table in tables:
                if len(table) == size:
                    for p in table:
                        counts[p] += 1
        if max(counts) - min(counts) > 2:
            return False
    return True


def draw_byes(byes: list[int], count: int, rounds: int, rng: random.Random) -> list[list[int]]:
    """Byes in turn: each round the ``count`` players with the fewest byes, ties in a drawn order."""
    counts = list(byes)
    order = list(range(len(counts)))
    rng.shuffle(order)
    rank = {p: i for i, p in enumerate(order)}
    drawn = []
    for _ in range(rounds):
        away = sorted(order, key=lambda p: (counts[p], rank[p]))[:count]
        for p in away:
            counts[p] += 1
        drawn.append(away)
    return drawn


def constructions(
    partition: Partition, rounds: int, seed: int, effort: float
) -> Iterable[tuple[str, Plan]]:
    """Plans from the constructions, the cheap algebraic ones first, the cyclic search last;
    players renumbered by a permutation drawn from ``seed`` (none for seed 0)."""
    k = partition.sizes[0]
    for v in targets(partition):
        for name, design in designs(v, k, rounds):
            fitted = fit(design, partition, rounds)
            if fitted is not None:
                yield name, _relabel(fitted, partition.players, seed)
    if partition.players <= CYCLIC_PLAYERS:
        found = cyclic(partition, rounds, seed, int(NODES * effort))
        if found is not None:
            yield found[0], _relabel(found[1], partition.players, seed)


def plan_rounds(
    partition: Partition,
    rounds: int,
    fixed: list[list[int]],
    byes: list[int],
    seed: int,
    effort: float,
    objective: str = "fewest",
) -> tuple[str, Plan]:
    """The best plan found for ``rounds`` more rounds, and how it was found."""
    n = partition.players
    rng = random.Random(seed)
    fresh = not any(map(any, fixed))
    floor = repeat_floor(partition, rounds) if fresh else 0
    best: tuple[tuple[int, int], str, Plan] | None = None
    for name, plan in constructions(partition, rounds, seed, effort):
        if not fair_byes(plan, byes) or not even_sizes(plan, n):
            continue
        search = Search(n, fixed, [tables for tables, _ in plan], rng, objective)
        score = (search.repeats, search.cost)
        if best is None or score < best[0]:
            best = (score, name, plan)
        if search.repeats <= floor:
            break
    if best is not None and best[0][0] <= floor:
        return best[1], best[2]
    if best is not None:
        name, away = f"tabu search from a {best[1]}", [b for _, b in best[2]]
        start = [tables for tables, _ in best[2]]
    else:
        away = draw_byes(byes, partition.byes, rounds, rng)
        name = "tabu search"
        start = greedy(n, fixed, [list(partition.sizes)] * rounds, away, rng, objective)
    search = Search(n, fixed, start, rng, objective)
    search.run(int(EVALUATIONS * effort), floor)
    return name, list(zip(search.best, away, strict=True))


def _relabel(plan: Plan, n: int, seed: int) -> Plan:
    """The plan with players renumbered by a permutation drawn from ``seed`` (none for seed 0)."""
    if not seed:
        return plan
    order = list(range(n))
    random.Random(seed).shuffle(order)
    return [
        ([[order[p] for p in t] for t in tables], [order[p] for p in away]) for tables, away in plan
    ]


def balance(
    tables: list[list[int]], counts: Counter[int], also: Counter[int] | None = None
) -> None:
    """Hand seat 0 of some ``tables`` over so that ``counts`` (times at seat 0) are as even as
    possible: while a player has 2 more than another who can be reached by a chain of hand-overs
    (he deals a table where the next one sits, who deals a table where …), hand over along the
    chain. ``also`` is updated the same way."""
    while True:
        dealing: dict[int, list[list[int]]] = {}
        for table in tables:
            dealing.setdefault(table[0], []).append(table)
        low = min((counts[p] for table in tables for p in table), default=0)
        for start in sorted(dealing, key=lambda p: -counts[p]):
            if counts[start] < low + 2:
                return
            came = {start: None}
            queue = [start]
            end = None
            for player in queue:
                if counts[player] <= counts[start] - 2:
                    end = player
                    break
                for table in dealing.get(player, []):
                    for other in table[1:]:
                        if other not in came:
                            came[other] = (player, table)
                            queue.append(other)
            if end is not None:
                break
        else:
            return
        counts[start] -= 1
        counts[end] += 1
        if also is not None:
            also[start] -= 1
            also[end] += 1
        while came[end] is not None:
            previous, table = came[end]
            i = table.index(end)
            table[0], table[i] = end, previous
            end = previous


def seat(
    plan: Plan,
    players: tuple[int, ...],
    played: Sequence[Round],
    sitting_out: int,
    seed: int,
) -> list[Round]:
    """Rounds of ``plan`` with each table in seat order, balancing seat 0 (and sitting out)."""
    dealt: Counter[int] = Counter()
    sat: Counter[int] = Counter()

    def sits(table: Sequence[int]) -> bool:
        return bool(sitting_out) and len(table) >= sitting_out

    for r in played:
        for table in r.tables:
            dealt[table[0]] += 1
            sat[table[0]] += sits(table)
    rng = random.Random(seed)
    tie = {p: rng.random() for p in players}
    tables_seated: list[list[list[int]]] = []
    for tables, _ in plan:
        seated = []
        for table in tables:
            members = [players[p] for p in table]
            flag = sits(members)
            members.sort(key=lambda p: (sat[p] if flag else 0, dealt[p], tie[p]))
            dealt[members[0]] += 1
            sat[members[0]] += flag
            seated.append(members)
        tables_seated.append(seated)
    every = [table for seated in tables_seated for table in seated]
    balance([t for t in every if sits(t)], sat, dealt)
    balance([t for t in every if not sits(t)], dealt)
    for table in every:
        table[1:] = sorted(table[1:], key=lambda p: (dealt[p], tie[p]))
    return [
        Round(tuple(tuple(t) for t in seated), tuple(players[p] for p in away))
        for seated, (_, away) in zip(tables_seated, plan, strict=True)
    ]


def rotation(
    players: Iterable[int],
    *,
    sizes: Iterable[int],
    ideal: int,
    rounds: int,
    seed: int = 0,
    played: Sequence[Round | Sequence[Sequence[int]]] = (),
    history: Mapping[Any, int] | None = None,
    byes: Mapping[int, int] | None = None,
    sitting_out: int = 0,
    effort: float = 1.0,
    objective: str = "fewest",
) -> Schedule:
    """``rounds`` rounds (played ones included) for ``players`` at tables of the allowed ``sizes``.

    ``played``: rounds already played, kept unchanged at the start of the schedule (players who
    dropped out may appear in them, late arrivals may be missing). ``history``: pair meeting counts
    of earlier events (:func:`~.base.pair_counts`); ``byes``: byes each player had at earlier
    events, so that the byes keep turning from one club night to the next. ``sitting_out``: the table size from which the
    dealer sits out (see :func:`~.base.measure`). ``effort`` scales the search budgets.
    ``objective``, when repeats cannot be avoided: "fewest" repeated meetings in all, or "spread"
    (the fewest meetings of any one pair; see :func:`~.bounds.repeat_bounds` for both floors). The result
    depends only on the arguments: the same seed gives the same schedule.
    """
    started = time.perf_counter()
    players = check_players(players)
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}: use one of {', '.join(OBJECTIVES)}")
    partition = table_sizes(len(players), sizes, ideal)
    played = [as_round(r) for r in played]
    if rounds < max(1, len(played)):
        raise ValueError("there must be at least one round, and no fewer than those played")
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    fixed = [[0] * n for _ in range(n)]
    meetings = Counter(normalise_history(history))
    for r in played:
        for table in r.tables:
            meetings.update((a, b) for a, b in combinations(table, 2))
    for (a, b), count in meetings.items():
        if a in index and b in index:
            fixed[index[a]][index[b]] += count
            fixed[index[b]][index[a]] += count
    seated = [{p for table in r.tables for p in table} for r in played]
    earlier = byes or {}
    had = [earlier.get(p, 0) + sum(p not in s for s in seated) for p in players]
    method, plan = "rounds already played", []
    if rounds > len(played):
        method, plan = plan_rounds(
            partition, rounds - len(played), fixed, had, seed, effort, objective
        )
    all_rounds = (*played, *seat(plan, players, played, sitting_out, seed))
    metrics = measure(all_rounds, players, history, sitting_out)
    metrics = replace(metrics, seconds=time.perf_counter() - started)
    return Schedule(all_rounds, metrics, players, method)
