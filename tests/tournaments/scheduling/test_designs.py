"""The algebraic constructions are repeat-free, and fit to fewer players through holes."""

from collections import Counter
from itertools import combinations

import pytest

from tournaments.scheduling import Partition, rotation
from tournaments.scheduling.designs import (
    _factors,
    _repeats,
    affine_space,
    berger,
    circle,
    designs,
    fit,
    golfers_32,
    kirkman,
    product,
    targets,
    transversal,
)


def repeats(design) -> int:
    counts = Counter(
        tuple(sorted(pair)) for tables in design for t in tables for pair in combinations(t, 2)
    )
    return sum(c - 1 for c in counts.values())


def assert_resolvable(design, v, k) -> None:
    for tables in design:
        assert sorted(p for t in tables for p in t) == list(range(v))
        assert {len(t) for t in tables} == {k}


@pytest.mark.parametrize("v", [2, 4, 10, 16])
def test_circle_method_meets_every_pair_once(v):
    design = circle(v)
    assert len(design) == v - 1
    assert_resolvable(design, v, 2)
    assert repeats(design) == 0
    assert sum(len(t) for t in design) * 1 == v * (v - 1) // 2


def test_berger_tables_alternate_who_plays_first():
    first = Counter(a for games in berger(8) for a, _ in games)
    assert set(first.values()) <= {3, 4}


@pytest.mark.parametrize(
    ("q", "d", "rounds"), [(2, 3, 7), (3, 2, 4), (3, 3, 13), (4, 2, 5), (4, 3, 21), (5, 2, 6)]
)
def test_affine_spaces_give_all_their_parallel_classes_without_repeat(q, d, rounds):
    design = affine_space(q, d, 100)
    assert len(design) == rounds
    assert_resolvable(design, q**d, q)
    assert repeats(design) == 0


def test_affine_space_stops_at_the_rounds_asked():
    assert len(affine_space(4, 3, 12)) == 12


def test_transversal_over_a_field_is_repeat_free_for_all_its_rounds():
    design = transversal(4, 8, 10)
    assert len(design) == 8
    assert_resolvable(design, 32, 4)
    assert repeats(design) == 0


def test_transversal_over_z_m_puts_repeat_free_rounds_first():
    design = transversal(4, 50, 26)
    assert repeats(design[:25]) == 0
    assert repeats(design) > 0
    assert_resolvable(design, 200, 4)


def test_transversal_groups_never_meet():
    design = transversal(3, 7, 7)
    met = {frozenset(p) for tables in design for t in tables for p in combinations(t, 2)}
    assert not any(frozenset({x, y}) in met for x, y in combinations(range(7), 2))


def test_golfers_32_is_10_rounds_at_tables_of_4_without_repeat():
    design = golfers_32()
    assert len(design) == 10
    assert_resolvable(design, 32, 4)
    assert repeats(design) == 0
    met = {frozenset(p) for tables in design for t in tables for p in combinations(t, 2)}
    assert len(met) == 480
    assert all(frozenset({x, x ^ 1}) not in met for x in range(32))


def test_designs_offers_the_constructions_that_fit():
    names = lambda v, k: [name for name, _ in designs(v, k, 5)]  # noqa: E731
    assert names(10, 2) == ["circle method", "transversal design (2 groups of 5)"]
    assert names(64, 4)[:2] == ["affine space AG(3,4)", "transversal design (4 groups of 16)"]
    assert "product of affine space AG(2,4) and one table" in names(64, 4)
    assert names(32, 4) == ["GF(2)^5 social golfer design", "transversal design (4 groups of 8)"]
    assert names(12, 4) == []
    assert names(24, 4) == ["transversal design (4 groups of 6)"]
    assert names(4, 4) == ["one table"]
    # 6 is no prime power: no affine space, only the transversal design over Z_6
    assert names(36, 6) == ["transversal design (6 groups of 6)"]
    assert names(15, 3)[0] == "Kirkman triple system on GF(7) x 2 + 1"
    assert names(2000, 4) == ["transversal design (4 groups of 500)"]  # too big for products
    # 36 = 3 x 12 is a product: the ring GF(4) x GF(3) gives 3 repeat-free rows of 12 rounds
    assert names(36, 3) == [
        "nearly Kirkman triple system NKTS(36), stored cyclic base round",
        "transversal design (3 groups of 12)",
        "product of transversal design (3 groups of 4) and one table",
        "product of one table and transversal design (3 groups of 4)",
    ]


@pytest.mark.parametrize(("k", "m"), [(3, 12), (3, 15), (4, 20), (3, 24), (5, 35), (4, 45)])
def test_transversal_designs_over_a_product_of_fields_repeat_no_pair_in_all_rounds(k, m):
    design = transversal(k, m, m)
    assert len(design) == m
    assert not _repeats(design)
    for tables in design:
        assert sorted(x for t in tables for x in t) == list(range(k * m))


def test_a_factor_smaller_than_the_table_leaves_the_cyclic_transversal_design():
    # 30 = 2·3·5: GF(2) has no 3 distinct rows, so Z_30 is used, and repeats some pairs
    assert _repeats(transversal(3, 30, 30))
    assert _factors(30) == [2, 3, 5]
    assert _factors(7 * 131) == [7, 131]
    assert transversal(3, 7 * 131, 2)  # GF(131) is beyond the field tables: Z_917 again


def test_72_players_at_tables_of_3_for_35_rounds_are_an_nkts_from_nkts_24():
    schedule = rotation(range(72), sizes={3}, ideal=3, rounds=35)
    assert schedule.metrics.repeated_pairs == 0
    assert schedule.method == (
        "product of one table and nearly Kirkman triple system NKTS(24), stored cyclic base round"
    )


@pytest.mark.parametrize(
    "q", [7, 13, 19, 25, 31, 37, 43, 49, 61, 67, 73, 79, 97, 103, 109, 121, 127]
)
def test_kirkman_triple_systems_on_2q_plus_1_points(q):
    design = kirkman(q)
    assert len(design) == q
    assert_resolvable(design, 2 * q + 1, 3)
    assert repeats(design) == 0


def test_product_of_kirkman_15_and_one_table_is_kirkman_45():
    design = product(kirkman(7), [[[0, 1, 2]]], 3)
    assert len(design) == 22
    assert_resolvable(design, 45, 3)
    assert repeats(design) == 0


def test_product_of_one_table_and_the_32_golfers_seats_128_for_42_rounds():
    design = product([[[0, 1, 2, 3]]], golfers_32(), 4)
    assert len(design) == 42  # (128 - 1) // 3: as many as possible
    assert_resolvable(design, 128, 4)
    assert repeats(design) == 0


def test_product_needs_a_repeat_free_transversal_design():
    assert product([[[0, 1, 2, 3]]], transversal(4, 6, 2), 4) is None


@pytest.mark.parametrize(
    ("partition", "expected"),
    [
        (Partition((3, 3, 3), 0), [9]),
        (Partition((3, 3, 3), 2), [12]),
        (Partition((3, 3, 3), 1), []),
        (Partition((4, 3, 3), 0), [12]),
        (Partition((4, 3, 3), 1), []),
        (Partition((5, 3), 0), []),
    ],
)
def test_fitting_targets(partition, expected):
    assert targets(partition) == expected


def test_fit_one_hole_gives_the_byes():
    fitted = fit(affine_space(3, 2, 4), Partition((3, 3), 2), 4)
    assert fitted is not None
    for tables, byes in fitted:
        assert len(byes) == 2 and [len(t) for t in tables] == [3, 3]
    assert sorted(b for _, byes in fitted for b in byes) == list(range(8))


def test_fit_holes_that_never_meet_shorten_tables():
    fitted = fit(transversal(4, 5, 5), Partition((4, 4, 3, 3, 3), 0), 5)
    assert fitted is not None
    for tables, byes in fitted:
        assert byes == [] and sorted(map(len, tables)) == [3, 3, 3, 4, 4]


def test_fit_repeats_a_short_design_from_its_start():
    fitted = fit(circle(4), Partition((2, 2), 0), 5)
    assert fitted[3][0] == fitted[0][0]


def test_fit_refuses_when_the_holes_cannot_be_kept_apart():
    assert fit(affine_space(3, 2, 4), Partition((3, 2, 2), 0), 4) is None


def test_fit_refuses_sizes_the_holes_do_not_give():
    assert fit(affine_space(3, 2, 4), Partition((3, 3, 3), 0), 4) is not None
    assert fit(affine_space(3, 2, 4), Partition((3, 2, 2, 2), 0), 4) is None
