"""The tabu search keeps every state valid, keeps its books right, and removes repeats."""

import random
from itertools import combinations

from tournaments.scheduling.tabu import Search, greedy


def zeros(n):
    return [[0] * n for _ in range(n)]


def recounted(search: Search):
    fresh = Search(search.n, search.fixed, search.plan, random.Random(0))
    return fresh.cost, fresh.repeats, fresh.conflicted


def test_greedy_seats_everyone_but_the_byes_once_per_round():
    plan = greedy(
        10, zeros(10), [[3, 3, 2]] * 4, [[0, 1], [2, 3], [4, 5], [6, 7]], random.Random(1)
    )
    for r, tables in enumerate(plan):
        seated = sorted(p for t in tables for p in t)
        assert seated == sorted(set(range(10)) - {2 * r, 2 * r + 1})
        assert [len(t) for t in tables] == [3, 3, 2]


def test_greedy_avoids_pairs_that_met_before():
    fixed = zeros(4)
    fixed[0][1] = fixed[1][0] = fixed[2][3] = fixed[3][2] = 1
    plan = greedy(4, fixed, [[2, 2]], [[]], random.Random(0))
    assert all(fixed[a][b] == 0 for t in plan[0] for a, b in combinations(t, 2))


def test_swaps_keep_the_counts_cost_and_conflicts_right():
    rng = random.Random(3)
    plan = greedy(12, zeros(12), [[4, 4, 4]] * 6, [[]] * 6, rng)
    search = Search(12, zeros(12), plan, rng)
    for _ in range(200):
        r = rng.randrange(6)
        t1, t2 = rng.sample(range(3), 2)
        p, q = rng.choice(search.plan[r][t1]), rng.choice(search.plan[r][t2])
        search.apply(r, t1, p, t2, q)
        assert (search.cost, search.repeats, search.conflicted) == recounted(search)


def test_search_removes_every_repeat_when_possible():
    rng = random.Random(0)
    plan = [[[0, 1, 2], [3, 4, 5], [6, 7, 8]]] * 4  # the same round four times
    search = Search(9, zeros(9), plan, rng)
    assert search.repeats == 27
    search.run(budget=200_000, floor=0)
    search.plan = search.best
    search.recount()
    assert search.repeats == 0


def test_search_stops_at_the_floor_or_the_budget():
    rng = random.Random(0)
    plan = [[[0, 1], [2, 3]]] * 4  # 4 rounds of 2 pairs: at least 2 repeats among 4 players
    search = Search(4, zeros(4), plan, rng)
    search.run(budget=50_000, floor=2)
    assert Search(4, zeros(4), search.best, rng).repeats == 2
    search = Search(4, zeros(4), plan, rng)
    search.run(budget=3_000, floor=0)  # cannot reach 0: restarts, and tabu dead ends
    assert Search(4, zeros(4), search.best, rng).repeats == 2


def test_search_with_a_single_table_per_round_has_no_move():
    rng = random.Random(0)
    search = Search(3, zeros(3), [[[0, 1, 2]], [[2, 1, 0]]], rng)
    search.run(budget=10, floor=0)
    assert search.repeats == 3


def test_history_counts_as_meetings_to_avoid():
    fixed = zeros(4)
    fixed[0][1] = fixed[1][0] = 3
    search = Search(4, fixed, [[[0, 1], [2, 3]]], random.Random(0))
    assert search.repeats == 1
    search.run(budget=1_000, floor=0)
    assert Search(4, fixed, search.best, random.Random(0)).repeats == 0
