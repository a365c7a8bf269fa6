"""A league night's tables for the players who checked in."""

import pytest

from tournaments.scheduling import club_night, pair_counts

from .helpers import assert_valid_round, meetings


def test_rotation_avoids_the_pairs_of_earlier_nights():
    history = pair_counts([[[0, 1, 2], [3, 4, 5], [6, 7, 8]], [[0, 3, 6], [1, 4, 7], [2, 5, 8]]])
    tonight = club_night(range(9), sizes={3}, ideal=3, history=history)
    assert_valid_round(tonight, range(9), {3})
    assert not set(meetings([tonight])) & set(history)


def test_rotation_gives_the_bye_to_who_had_fewest():
    tonight = club_night(range(10), sizes={3}, ideal=3, byes={p: 1 for p in range(9)})
    assert tonight.byes == (9,)


def test_rotation_balances_the_dealer_who_sits_out():
    tonight = club_night(range(13), sizes={3, 4}, ideal=3, sitting_out=4)
    assert_valid_round(tonight, range(13), {3, 4})


def test_standing_puts_strong_with_strong():
    tonight = club_night(
        [8, 1, 5, 2, 7, 3, 6, 4],
        sizes={4},
        ideal=4,
        method="standing",
        standings=[1, 2, 3, 4, 5, 6, 7, 8],
    )
    assert tonight.tables == ((1, 2, 3, 4), (5, 6, 7, 8))


def test_standing_puts_newcomers_last_and_skips_the_absent():
    tonight = club_night(
        [1, 3, 4, 9], sizes={2}, ideal=2, method="standing", standings=[4, 2, 3, 1]
    )
    assert tonight.tables == ((4, 3), (1, 9))


def test_standing_with_points():
    standings = [(1, 9), (2, 7), (3, 7), (4, 2), (5, 0)]
    tonight = club_night(
        [1, 2, 3, 4, 6], sizes={2}, ideal=2, method="standing", standings=standings
    )
    assert tonight.tables[0] in ((1, 2), (1, 3))
    assert tonight.byes == (6,)


def test_standing_without_standings_keeps_the_check_in_order():
    tonight = club_night([5, 6, 7, 8], sizes={2}, ideal=2, method="standing")
    assert tonight.tables == ((5, 6), (7, 8))


def test_unknown_method_is_refused():
    with pytest.raises(ValueError, match="unknown method"):
        club_night(range(6), sizes={3}, ideal=3, method="lottery")
