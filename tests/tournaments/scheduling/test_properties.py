"""Properties over random events (hypothesis): every schedule is valid, whatever N, K and R."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scheduling import NoTableFits, measure, rotation, swap, swiss_round, table_sizes

from .helpers import assert_fair_byes, assert_valid_round

SETTINGS = settings(deadline=None)


@SETTINGS
@given(n=st.integers(2, 60), k=st.integers(2, 6), rounds=st.integers(1, 8), seed=st.integers(0, 3))
def test_rotation_is_always_a_valid_schedule(n, k, rounds, seed):
    if n < k:
        with pytest.raises(ValueError):
            rotation(range(n), sizes={k}, ideal=k, rounds=rounds, seed=seed, effort=0.02)
        return
    schedule = rotation(range(n), sizes={k}, ideal=k, rounds=rounds, seed=seed, effort=0.02)
    assert len(schedule.rounds) == rounds
    for r in schedule.rounds:
        assert_valid_round(r, range(n), {k})
        assert len(r.byes) == n % k
    assert_fair_byes(schedule.rounds, range(n))
    low, high = schedule.metrics.first_dealer
    assert high - low <= 2
    assert replace(schedule.metrics, seconds=0.0) == measure(schedule.rounds, range(n))
    if rounds <= schedule.metrics.lower_bound and rounds <= 2:
        assert schedule.metrics.repeated_pairs == 0


@SETTINGS
@given(
    n=st.integers(3, 40),
    allowed=st.sets(st.integers(2, 6), min_size=1, max_size=3),
    rounds=st.integers(1, 5),
)
def test_rotation_with_mixed_sizes_is_valid(n, allowed, rounds):
    ideal = min(allowed)
    if n < min(allowed):
        with pytest.raises(NoTableFits):
            table_sizes(n, allowed, ideal)
        return
    partition = table_sizes(n, allowed, ideal)
    schedule = rotation(range(n), sizes=allowed, ideal=ideal, rounds=rounds, effort=0.02)
    for r in schedule.rounds:
        assert_valid_round(r, range(n), allowed)
        assert sorted(map(len, r.tables), reverse=True) == list(partition.sizes)
    assert_fair_byes(schedule.rounds, range(n))


@SETTINGS
@given(n=st.integers(2, 60), k=st.integers(2, 6), data=st.data())
def test_swiss_round_and_swaps_stay_valid(n, k, data):
    if n < k:
        return
    standings = data.draw(st.permutations(range(n)))
    round_ = swiss_round(standings, sizes={k}, ideal=k)
    assert_valid_round(round_, range(n), {k})
    a, b = data.draw(st.sampled_from(range(n))), data.draw(st.sampled_from(range(n)))
    assert_valid_round(swap(round_, a, b), range(n), {k})
