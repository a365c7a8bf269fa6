"""Resolvable designs from the literature: every pair of players meets exactly once."""

from collections import Counter
from itertools import combinations

import pytest

from tournaments.scheduling import rotation
from tournaments.scheduling.designs import affine_space, designs
from tournaments.scheduling.resolvable import kirkman_3q, kirkman_doubling, rbibd_3q_plus_1


def assert_every_pair_once(design, v, k):
    """Each round seats all ``v`` points at tables of ``k``; every pair meets exactly once."""
    met = Counter()
    for tables in design:
        assert sorted(x for t in tables for x in t) == list(range(v))
        assert {len(t) for t in tables} == {k}
        for table in tables:
            met.update(combinations(sorted(table), 2))
    assert len(design) == (v - 1) // (k - 1)
    assert len(met) == v * (v - 1) // 2
    assert set(met.values()) == {1}


@pytest.mark.parametrize("q", [7, 13, 19, 25, 31])
def test_kirkman_triple_systems_on_3q_points(q):
    assert_every_pair_once(kirkman_3q(q), 3 * q, 3)


@pytest.mark.parametrize("q", [5, 9, 13, 17, 25, 29])
def test_resolvable_designs_with_tables_of_4_on_3q_plus_1_points(q):
    assert_every_pair_once(rbibd_3q_plus_1(q), 3 * q + 1, 4)


def test_kirkman_doubling_of_the_affine_plane_of_order_4_gives_33_players():
    lines = [table for tables in affine_space(4, 2, 5) for table in tables]
    design = kirkman_doubling(lines, 16, {4: affine_space(3, 2, 4)})
    assert_every_pair_once(design, 33, 3)


@pytest.mark.parametrize(
    ("v", "name"),
    [
        (21, "Kirkman triple system on GF(7) x 3"),
        (33, "Kirkman doubling of the affine space AG(2,4)"),
        (57, "Kirkman triple system on GF(19) x 3"),
        (28, "resolvable (v,4,1) design on GF(9) x 3 + 1"),
        (88, "resolvable (v,4,1) design on GF(29) x 3 + 1"),
    ],
)
def test_designs_offer_the_new_constructions_by_name(v, name):
    k = 3 if name.startswith("Kirkman") else 4
    assert name in [found for found, _ in designs(v, k, v)]


def test_21_players_at_tables_of_3_for_10_rounds_are_perfect():
    schedule = rotation(range(21), sizes={3}, ideal=3, rounds=10)
    assert schedule.metrics.repeated_pairs == 0
    assert schedule.method == "Kirkman triple system on GF(7) x 3"


def test_28_players_at_tables_of_4_for_9_rounds_are_perfect():
    schedule = rotation(range(28), sizes={4}, ideal=4, rounds=9)
    assert schedule.metrics.repeated_pairs == 0
    assert schedule.method == "resolvable (v,4,1) design on GF(9) x 3 + 1"
