"""Round robins: every pair meets exactly once (twice in a double round robin)."""

from collections import Counter
from itertools import combinations

import pytest

from tournaments.scheduling import round_robin

from .helpers import assert_valid_round, meetings


@pytest.mark.parametrize("n", range(2, 21))
def test_every_pair_meets_exactly_once(n):
    schedule = round_robin(range(n))
    assert len(schedule.rounds) == n - 1 + n % 2
    for r in schedule.rounds:
        assert_valid_round(r, range(n), {2})
        assert len(r.byes) == n % 2
    assert meetings(schedule.rounds) == Counter(combinations(range(n), 2))
    assert schedule.metrics.perfect


@pytest.mark.parametrize("n", range(2, 21))
def test_double_round_robin_meets_twice_with_sides_swapped(n):
    schedule = round_robin(range(n), double=True)
    assert len(schedule.rounds) == 2 * (n - 1 + n % 2)
    assert set(meetings(schedule.rounds).values()) == {2}
    ordered = Counter(table for r in schedule.rounds for table in r.tables)
    assert set(ordered.values()) == {1}  # each pair once each way round


@pytest.mark.parametrize("n", range(2, 21))
def test_odd_counts_give_everyone_one_bye(n):
    schedule = round_robin(range(n))
    byes = Counter(p for r in schedule.rounds for p in r.byes)
    assert byes == (Counter(range(n)) if n % 2 else Counter())


@pytest.mark.parametrize("n", range(2, 21))
def test_playing_first_alternates_fairly(n):
    low, high = round_robin(range(n)).metrics.first_dealer
    assert high - low <= 1


def test_entrants_keep_their_ids():
    schedule = round_robin([10, 20, 30])
    assert {p for r in schedule.rounds for t in r.tables for p in t} == {10, 20, 30}
    assert schedule.players == (10, 20, 30)


@pytest.mark.parametrize("entrants", [[], [1]])
def test_a_round_robin_needs_two_entrants(entrants):
    with pytest.raises(ValueError, match="at least 2"):
        round_robin(entrants)
