"""Table sizes: byes last, then as many ideal-sized tables as possible."""

import pytest

from tournaments.scheduling import Partition, table_sizes


@pytest.mark.parametrize(
    ("players", "allowed", "ideal", "sizes", "byes"),
    [
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
    partition = table_sizes(players, {size}, size)
    assert partition.byes == (players % size if players >= size else players)
    assert partition.players == players


def test_too_few_players_are_all_on_a_bye():
    assert table_sizes(2, {3, 4}, 3) == Partition((), 2)
    assert table_sizes(0, {3}, 3) == Partition((), 0)


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
