"""Table sizes: byes last, then nearest the preferred size (``sizes`` docstring: the smallest
largest deviation, the fewest tables off, the smallest total deviation, more tables), only
sizes in the competition's range; checked against an independent search for every field up to
200 and every range and preferred size the games allow."""

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import RULESETS
from tournaments.scheduling import NoTableFits, Partition, nearness, table_sizes

LARGEST_FIELD = 200


@pytest.mark.parametrize(
    ("players", "allowed", "ideal", "sizes", "byes"),
    [
        pytest.param(22, range(3, 7), 5, (6, 6, 5, 5), 0, id="turkish-evening-3-to-6"),
        pytest.param(22, range(3, 9), 5, (6, 6, 5, 5), 0, id="turkish-evening-3-to-8"),
        pytest.param(7, range(3, 7), 5, (4, 3), 0, id="no-7-seat-table-at-3-to-6"),
        pytest.param(7, range(3, 9), 5, (7,), 0, id="one-table-of-7-at-3-to-8"),
        (13, {3, 4}, 3, (4, 3, 3, 3), 0),
        (14, {3, 4}, 3, (4, 4, 3, 3), 0),
        (7, {3, 4}, 3, (4, 3), 0),
        (5, {3, 4}, 3, (4,), 1),
        (12, {3, 4}, 4, (4, 4, 4), 0),
        (9, {3, 4}, 4, (3, 3, 3), 0),
        (10, range(3, 9), 4, (4, 3, 3), 0),
        (13, range(3, 9), 4, (5, 4, 4), 0),
        (16, {5, 6}, 5, (6, 5, 5), 0),
        (7, {5, 6}, 5, (6,), 1),
        (5, {2, 4}, 2, (2, 2), 1),
        (14, {3}, 3, (3, 3, 3, 3), 2),
        (200, {4}, 4, (4,) * 50, 0),
    ],
)
def test_table_sizes_examples(players, allowed, ideal, sizes, byes):
    assert table_sizes(players, allowed, ideal) == Partition(sizes, byes)


@pytest.mark.parametrize(("players", "size"), [(n, k) for n in range(0, 40) for k in (2, 3, 5)])
def test_a_single_size_leaves_n_mod_k_byes(players, size):
    if players < size:
        with pytest.raises(NoTableFits):
            table_sizes(players, {size}, size)
        return
    partition = table_sizes(players, {size}, size)
    assert partition.byes == players % size
    assert partition.players == players


@pytest.mark.parametrize("players", [0, 1, 2])
def test_too_few_players_for_one_table_are_refused(players):
    with pytest.raises(NoTableFits, match=f"{players} players cannot fill a table of 3"):
        table_sizes(players, {3, 4}, 3)


def test_fewer_byes_beat_ideal_tables():
    # 3 + 2 byes would use the ideal size; a table of 4 and 1 bye is better
    assert table_sizes(5, {3, 4}, 3).byes == 1


@pytest.mark.parametrize(
    ("allowed", "ideal", "message"),
    [
        ((), 3, "at least one"),
        ({1, 3}, 3, "at least 2 seats"),
        ({3, 4}, 5, "not among"),
    ],
)
def test_bad_sizes_are_refused(allowed, ideal, message):
    with pytest.raises(ValueError, match=message):
        table_sizes(10, allowed, ideal)


def test_a_negative_number_of_players_is_refused():
    with pytest.raises(ValueError, match="negative"):
        table_sizes(-1, {3}, 3)


# -- the property: an independent search -----------------------------------------------------


def _ranges() -> list[tuple[int, int, int]]:
    """Every (smallest, largest, preferred) a competition may set: a range inside a game's
    ``min_seats … max_seats`` and a preferred size inside it."""
    found = set()
    for rules in RULESETS.values():
        for low in range(rules.min_seats, rules.max_seats + 1):
            for high in range(low, rules.max_seats + 1):
                found.update((low, high, p) for p in range(low, high + 1))
    return sorted(found)


RANGES = _ranges()


@cache
def _nearest(low: int, high: int, ideal: int) -> dict[int, tuple]:
    """For every field, the best (byes, nearness) by a search that knows nothing of the
    exchange arguments: for each bound on the largest deviation, a dynamic programme over the
    seats minimising (tables off, total deviation, -tables), which add up table by table."""
    best: dict[int, tuple] = {}
    for bound in range(0, high - low + 1):
        usable = [s for s in range(low, high + 1) if abs(s - ideal) <= bound]
        table = [None] * (LARGEST_FIELD + 1)
        table[0] = (0, 0, 0)
        for seats in range(1, LARGEST_FIELD + 1):
            options = [
                (prev[0] + (s != ideal), prev[1] + abs(s - ideal), prev[2] - 1)
                for s in usable
                if s <= seats and (prev := table[seats - s]) is not None
            ]
            table[seats] = min(options, default=None)
        for field in range(low, LARGEST_FIELD + 1):
            for byes in range(field):
                if table[field - byes] is not None:
                    # A split found first at a larger bound has that largest deviation.
                    key = (byes, bound, *table[field - byes])
                    if field not in best or key < best[field]:
                        best[field] = key
                    break
    return best


def _real_key(partition: Partition, ideal: int) -> tuple:
    return (partition.byes, *nearness(partition.sizes, ideal))


@settings(deadline=None, max_examples=400)
@given(data=st.data())
def test_every_split_is_in_range_sums_to_the_field_and_none_is_nearer(data):
    low, high, ideal = data.draw(st.sampled_from(RANGES))
    field = data.draw(st.integers(low, LARGEST_FIELD))
    partition = table_sizes(field, range(low, high + 1), ideal)
    assert sum(partition.sizes) + partition.byes == field
    assert all(low <= size <= high for size in partition.sizes)
    assert list(partition.sizes) == sorted(partition.sizes, reverse=True)
    assert _real_key(partition, ideal) == _nearest(low, high, ideal)[field]


@pytest.mark.parametrize(("low", "high", "ideal"), RANGES, ids=lambda v: str(v))
def test_every_field_up_to_200_is_seated_nearest_the_preferred_size(low, high, ideal):
    best = _nearest(low, high, ideal)
    for field in range(low, LARGEST_FIELD + 1):
        partition = table_sizes(field, range(low, high + 1), ideal)
        assert sum(partition.sizes) + partition.byes == field
        assert all(low <= size <= high for size in partition.sizes), (field, partition)
        assert _real_key(partition, ideal) == best[field], (field, partition)
