"""GF(q) arithmetic for the small prime powers the constructions use."""

from itertools import product

import pytest

from tournaments.scheduling.fields import field, prime_power


@pytest.mark.parametrize(("q", "expected"), [(2, (2, 1)), (9, (3, 2)), (64, (2, 6)), (7, (7, 1))])
def test_prime_power_splits_q(q, expected):
    assert prime_power(q) == expected


@pytest.mark.parametrize("q", [0, 1, 6, 12, 100])
def test_prime_power_rejects_other_numbers(q):
    assert prime_power(q) is None


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16])
def test_field_axioms_hold(q):
    gf = field(q)
    elements = range(q)
    for a, b in product(elements, repeat=2):
        assert gf.add[a][b] == gf.add[b][a]
        assert gf.mul[a][b] == gf.mul[b][a]
    for a in elements:
        assert gf.add[a][0] == a
        assert gf.mul[a][1] == a
        assert gf.add[a][gf.neg[a]] == 0
        if a:
            assert sorted(gf.mul[a]) == list(elements)  # a has an inverse, no zero divisor
    for a, b, c in product(elements, repeat=3):
        assert gf.mul[a][gf.add[b][c]] == gf.add[gf.mul[a][b]][gf.mul[a][c]]
        assert gf.mul[a][gf.mul[b][c]] == gf.mul[gf.mul[a][b]][c]
        assert gf.add[a][gf.add[b][c]] == gf.add[gf.add[a][b]][c]


def test_gf4_has_characteristic_two():
    gf = field(4)
    assert all(gf.add[a][a] == 0 for a in range(4))
    assert gf.p == 2


@pytest.mark.parametrize("q", [6, 1, 256])
def test_unsupported_orders_are_refused(q):
    with pytest.raises(ValueError, match=f"GF\\({q}\\)"):
        field(q)
