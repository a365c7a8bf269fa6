"""Unavoidable repeats: both floors, and the two objectives that aim at them."""

import pytest

from tournaments.scheduling import rotation, table_sizes
from tournaments.scheduling.bounds import RepeatBounds, repeat_bounds


@pytest.mark.parametrize(
    ("players", "size", "rounds", "bounds"),
    [
        (15, 3, 7, RepeatBounds(0, 1)),  # Kirkman: every pair exactly once
        (15, 3, 8, RepeatBounds(15, 2)),  # all 105 pairs met in 7 rounds: the 8th repeats 15
        (9, 3, 12, RepeatBounds(72, 3)),  # 12 rounds of AG(2,3)'s 4: every pair three times
        (16, 4, 10, RepeatBounds(120, 2)),
    ],
)
def test_floors_of_unavoidable_repeats(players, size, rounds, bounds):
    assert repeat_bounds(table_sizes(players, {size}, size), rounds) == bounds


def test_spread_keeps_the_most_meetings_of_a_pair_at_its_floor():
    partition = table_sizes(12, {3}, 3)
    floor = repeat_bounds(partition, 8).spread
    spread = rotation(range(12), sizes={3}, ideal=3, rounds=8, objective="spread", effort=0.3)
    assert spread.metrics.max_meetings == floor == 2


def test_fewest_counts_every_repeat_alike():
    fewest = rotation(range(12), sizes={3}, ideal=3, rounds=8, objective="fewest", effort=0.3)
    assert fewest.metrics.repeated_pairs >= repeat_bounds(table_sizes(12, {3}, 3), 8).fewest


def test_an_unknown_objective_is_refused():
    with pytest.raises(ValueError, match="unknown objective"):
        rotation(range(9), sizes={3}, ideal=3, rounds=2, objective="most")
