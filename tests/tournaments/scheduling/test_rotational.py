"""1-rotational resolvable designs over a group: the search finds base blocks, and the blocks it
finds develop into designs where every pair meets exactly once."""

from itertools import product

import pytest

from tournaments.scheduling.rotational import develop, group, sat_search, search

from .test_resolvable import assert_every_pair_once


@pytest.mark.parametrize(
    "spec",
    [
        {"abelian": [4, 6]},
        {"metacyclic": [10, 2, -1, 5]},  # dicyclic, order 20
        {"metacyclic": [7, 2, -1, 0]},  # dihedral, order 14
        {"metacyclic": [17, 4, 4, 0]},  # Frobenius Z_17 ⋊ Z_4
    ],
)
def test_groups_are_groups(spec):
    g = group(spec)
    n = g.size
    assert all(g.mul[0][x] == g.mul[x][0] == x for x in range(n))
    assert all(g.mul[x][g.inv[x]] == 0 for x in range(n))
    assert all(sorted(row) == list(range(n)) for row in g.mul)
    sample = range(0, n, 3)
    for a, b, c in product(sample, sample, sample):
        assert g.mul[g.mul[a][b]][c] == g.mul[a][g.mul[b][c]]


def test_a_dicyclic_group_has_one_involution_and_a_dihedral_one_many():
    dicyclic = group({"metacyclic": [34, 2, -1, 17]})
    dihedral = group({"metacyclic": [34, 2, -1, 0]})
    assert [x for x in range(1, 68) if dicyclic.mul[x][x] == 0] == [17]
    assert len([x for x in range(1, 68) if dihedral.mul[x][x] == 0]) == 35


def test_subgroups_and_cosets():
    g = group({"abelian": [2, 6]})  # (x, y) is x + 2y
    h = g.subgroup([1, 6])
    assert sorted(h) == [0, 1, 6, 7]
    coset = g.cosets(h)
    assert [coset[x] for x in h] == [0] * 4
    assert sorted(set(coset)) == [0, 1, 2]


@pytest.mark.parametrize(
    ("spec", "stabilizer", "k"),
    [
        ({"abelian": [26]}, [13], 3),  # KTS(27)
        ({"abelian": [32]}, [16], 3),  # KTS(33)
        ({"abelian": [3, 3, 3]}, [9], 4),  # resolvable (28, 4, 1)
        ({"abelian": [24]}, [6], 5),  # resolvable (25, 5, 1): the affine plane of order 5
    ],
)
def test_the_search_finds_base_blocks_that_develop_into_a_resolvable_design(spec, stabilizer, k):
    blocks = search(spec, stabilizer, k, seed=0, budget=20_000)
    assert blocks is not None
    v = group(spec).size + 1
    assert_every_pair_once(develop(spec, stabilizer, blocks), v, k)


def test_the_search_proves_there_is_no_1_rotational_kts_21_over_a_group_of_order_20():
    for spec, stabilizer in [
        ({"abelian": [20]}, [10]),
        ({"abelian": [2, 10]}, [1]),
        ({"metacyclic": [10, 2, -1, 5]}, [5]),  # dicyclic
        ({"metacyclic": [10, 2, -1, 0]}, [10]),  # dihedral, a reflection
        ({"metacyclic": [5, 4, 2, 0]}, [10]),  # Frobenius Z_5 ⋊ Z_4
    ]:
        assert search(spec, stabilizer, 3, seed=0, budget=10**7) is None


def test_the_search_gives_up_when_its_budget_is_spent():
    assert search({"abelian": [26]}, [13], 3, seed=0, budget=3) is None


@pytest.mark.parametrize(
    ("spec", "stabilizer", "k"),
    [
        ({"abelian": [26]}, [13], 3),  # KTS(27)
        ({"abelian": [3, 3, 3]}, [9], 4),  # resolvable (28, 4, 1)
        ({"abelian": [24]}, [6], 5),  # resolvable (25, 5, 1)
    ],
)
def test_the_sat_model_finds_the_same_base_blocks(spec, stabilizer, k):
    blocks = sat_search(spec, stabilizer, k, seconds=120)
    assert blocks is not None
    assert_every_pair_once(develop(spec, stabilizer, blocks), group(spec).size + 1, k)


def test_the_sat_model_proves_there_is_no_1_rotational_kts_21_over_z_20():
    assert sat_search({"abelian": [20]}, [10], 3, seconds=60) is None


def test_without_python_sat_the_sat_model_finds_nothing(monkeypatch):
    from tournaments.scheduling import sat

    monkeypatch.setattr(sat, "available", lambda: False)
    assert sat_search({"abelian": [26]}, [13], 3, seconds=60) is None
