"""Cyclic base rounds: Kirkman triple systems, group divisible designs and irregular partitions."""

import random
from collections import Counter
from itertools import combinations

from tournaments.scheduling import Partition, Round, measure
from tournaments.scheduling.cyclic import (
    Structure,
    _search,
    cyclic,
    develop,
    kirkman_short_search,
    sat_search,
    structures,
)

from .helpers import assert_fair_byes, assert_valid_round
from .test_resolvable import assert_every_pair_once


def as_rounds(plan):
    return [Round(tuple(map(tuple, tables)), tuple(byes)) for tables, byes in plan]


def test_kirkman_15_from_z7_and_a_fixed_point():
    name, plan = cyclic(Partition((3,) * 5, 0), 7, seed=0, budget=10_000)
    assert name == "cyclic design (Z_7 x 2 + 1 fixed)"
    rounds = as_rounds(plan)
    assert measure(rounds, range(15)).repeated_pairs == 0
    assert len(rounds) == 7


def test_24_players_at_tables_of_4_for_7_rounds():
    _, plan = cyclic(Partition((4,) * 6, 0), 7, seed=0, budget=40_000)
    rounds = as_rounds(plan)
    for r in rounds:
        assert_valid_round(r, range(24), {4})
    assert measure(rounds, range(24)).repeated_pairs == 0


def test_byes_turn_with_the_base_round():
    _, plan = cyclic(Partition((3,) * 4, 2), 6, seed=0, budget=40_000)
    rounds = as_rounds(plan)
    for r in rounds:
        assert_valid_round(r, range(14), {3})
    assert_fair_byes(rounds, range(14))
    assert measure(rounds, range(14)).repeated_pairs == 0


def test_mixed_table_sizes():
    found = cyclic(Partition((4, 3, 3, 3, 3, 3), 0), 6, seed=1, budget=40_000)
    assert found is not None
    rounds = as_rounds(found[1])
    for r in rounds:
        assert sorted(map(len, r.tables)) == [3, 3, 3, 3, 3, 4]
    assert measure(rounds, range(19)).repeated_pairs == 0


def test_structures_need_enough_orbits_for_the_pairs():
    assert structures(Partition((3,) * 7, 0), 10) == []  # 21 players, 10 rounds
    tight = structures(Partition((4,) * 6, 0), 7)
    assert tight[0] == Structure(7, 3, 3, groups=True)
    assert all(s.orbits >= 36 for s in tight)


def test_group_structure_never_seats_equal_positions_together():
    s = Structure(7, 3, 3, groups=True)
    assert s.orbits == 36


def test_search_gives_up_when_the_budget_is_spent():
    s = Structure(9, 3, 1)
    assert _search(s, Partition((4,) * 7, 0), random.Random(0), 10) is None


def test_search_reports_when_no_base_round_exists():
    # Z_3 x 2: the pure differences inside a row are all taken by the first table
    assert _search(Structure(3, 2, 0), Partition((3, 3), 0), random.Random(0), 1000) is None


def test_cyclic_gives_up_within_its_budget():
    assert cyclic(Partition((4,) * 7, 0), 9, seed=0, budget=600) is None
    assert cyclic(Partition((4,) * 7, 0), 9, seed=0, budget=100) is None
    assert cyclic(Partition((3,) * 7, 0), 10, seed=0, budget=10_000) is None


def test_develop_moves_rows_and_keeps_fixed_points():
    plan = develop(Structure(3, 1, 1), [[0, 1], [2, 3]], 0, 2)
    assert plan == [([[3, 0], [1, 2]], []), ([[3, 1], [2, 0]], [])]


def test_the_sat_model_finds_a_base_round_for_nkts_24():
    s = Structure(11, 2, 2)
    base = sat_search(s, 3, seconds=60)
    assert base is not None
    rounds = [tables for tables, _ in develop(s, base, 0, 11)]
    met = Counter(
        pair for tables in rounds for table in tables for pair in combinations(sorted(table), 2)
    )
    assert set(met.values()) == {1}
    assert len(met) == 11 * 24
    assert all(sorted(x for t in tables for x in t) == list(range(24)) for tables in rounds)


def test_the_sat_model_finds_a_base_round_without_fixed_points():
    s = Structure(7, 3, 0)  # 21 players, rows Z_7 x 3
    base = sat_search(s, 3, seconds=60)
    assert base is not None
    rounds = [tables for tables, _ in develop(s, base, 0, 7)]
    met = Counter(
        pair for tables in rounds for table in tables for pair in combinations(sorted(table), 2)
    )
    assert set(met.values()) == {1}


def test_the_sat_model_proves_there_is_no_cyclic_nkts_12():
    assert sat_search(Structure(5, 2, 2), 3, seconds=60) is None


def test_without_python_sat_the_cyclic_sat_model_finds_nothing(monkeypatch):
    from tournaments.scheduling import sat

    monkeypatch.setattr(sat, "available", lambda: False)
    assert sat_search(Structure(11, 2, 2), 3, seconds=60) is None


def test_the_sat_model_finds_a_kirkman_triple_system_with_short_rounds():
    found = kirkman_short_search(11, seconds=60)
    assert found is not None
    base, short = found
    assert len(short) == 5
    rounds = [tables for tables, _ in develop(Structure(11, 3, 0), base, 0, 11)]
    rounds += [[[x, 11 + (x + a) % 11, 22 + (x + b) % 11] for x in range(11)] for a, b in short]
    assert_every_pair_once(rounds, 33, 3)


def test_there_is_no_kts_15_with_short_rounds_over_z_5():
    assert kirkman_short_search(5, seconds=60) is None


def test_without_python_sat_no_kirkman_triple_system_with_short_rounds(monkeypatch):
    from tournaments.scheduling import sat

    monkeypatch.setattr(sat, "available", lambda: False)
    assert kirkman_short_search(11, seconds=60) is None
