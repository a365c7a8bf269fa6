"""Swiss rounds group players of similar standing and avoid tables of players who already met."""

import pytest

from tournaments.scheduling import Round, first_round, measure, pair_counts, swiss_round

from .helpers import assert_valid_round, meetings


def test_groups_players_by_standing():
    round_ = swiss_round(list(range(16)), sizes={4}, ideal=4)
    assert round_ == Round(((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15)))


def test_mixed_sizes_follow_the_partition():
    round_ = swiss_round(list(range(13)), sizes={3, 4}, ideal=3)
    assert round_.tables == ((0, 1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12))


def test_avoids_a_repeat_with_the_next_best_player():
    round_ = swiss_round(list(range(8)), sizes={2}, ideal=2, history={(0, 1): 1})
    assert round_.tables == ((0, 2), (1, 3), (4, 5), (6, 7))


def test_repairs_a_repeat_left_at_the_bottom():
    round_ = swiss_round(list(range(6)), sizes={2}, ideal=2, history={(4, 5): 1})
    assert_valid_round(round_, range(6), {2})
    assert (4, 5) not in meetings([round_])
    assert round_.tables[0] == (0, 1)


def test_repeats_only_when_unavoidable():
    history = pair_counts([Round(((0, 1, 2, 3),))])
    round_ = swiss_round([0, 1, 2, 3], sizes={4}, ideal=4, history=history)
    assert round_.tables == ((0, 1, 2, 3),)


def test_repeats_are_spread_when_unavoidable():
    history = {(0, 1): 1, (0, 2): 1, (0, 3): 1, (1, 2): 1}
    round_ = swiss_round([0, 1, 2, 3], sizes={2}, ideal=2, history=history)
    assert measure([round_], range(4), history).repeated_pairs == 1


def test_bye_to_the_lowest_ranked_with_fewest_byes():
    assert swiss_round(list(range(7)), sizes={2}, ideal=2).byes == (6,)
    assert swiss_round(list(range(7)), sizes={2}, ideal=2, byes={6: 1}).byes == (5,)
    assert swiss_round(list(range(7)), sizes={2}, ideal=2, byes={p: 1 for p in range(7)}).byes == (
        6,
    )


def test_points_make_score_groups():
    standings = [(10, 3), (11, 3), (12, 3), (13, 3), (20, 1), (21, 1), (22, 1), (23, 1)]
    round_ = swiss_round(standings, sizes={4}, ideal=4, seed=1)
    assert {frozenset(t) for t in round_.tables} == {
        frozenset({10, 11, 12, 13}),
        frozenset({20, 21, 22, 23}),
    }


def test_points_need_not_come_sorted():
    round_ = swiss_round([(1, 0), (2, 5), (3, 0), (4, 5)], sizes={2}, ideal=2)
    assert {frozenset(t) for t in round_.tables} == {frozenset({2, 4}), frozenset({1, 3})}


def test_equal_points_avoid_repeats_round_after_round():
    played = []
    for number in range(7):
        played.append(
            swiss_round(
                [(p, 0) for p in range(8)],
                sizes={2},
                ideal=2,
                history=pair_counts(played),
                seed=number,
            )
        )
    assert measure(played, range(8)).repeated_pairs == 0


def test_seat_zero_goes_to_the_best_ranked():
    round_ = swiss_round([5, 3, 9, 1], sizes={4}, ideal=4)
    assert round_.tables == ((5, 3, 9, 1),)


def test_history_of_absent_players_is_ignored():
    round_ = swiss_round([1, 2, 3, 4], sizes={2}, ideal=2, history={(1, 99): 3, (1, 2): 1})
    assert (1, 2) not in meetings([round_])


def test_too_few_players_are_refused():
    with pytest.raises(ValueError, match="cannot fill"):
        swiss_round([1, 2], sizes={3}, ideal=3)


def test_200_players_at_tables_of_2_and_4():
    for size in (2, 4):
        round_ = swiss_round(list(range(200)), sizes={size}, ideal=size)
        assert_valid_round(round_, range(200), {size})


def test_when_the_search_gives_up_a_greedy_round_is_repaired(monkeypatch):
    from tournaments.scheduling import swiss

    monkeypatch.setattr(swiss, "NODES", 0)
    round_ = swiss_round(list(range(6)), sizes={2}, ideal=2, history={(4, 5): 1})
    assert_valid_round(round_, range(6), {2})
    assert (4, 5) not in meetings([round_])


# A first round: top half against bottom half by rating, at random without ratings.


def test_first_round_of_24_unrated_differs_between_seeds():
    one = first_round(range(24), sizes={2}, ideal=2, seed=1)
    other = first_round(range(24), sizes={2}, ideal=2, seed=2)
    assert_valid_round(one, range(24), {2})
    assert_valid_round(other, range(24), {2})
    assert one != other
    assert one == first_round(range(24), sizes={2}, ideal=2, seed=1)
    # not the entry order of a round by rank
    assert one != swiss_round(range(24), sizes={2}, ideal=2, seed=1)


def test_first_round_pairs_the_top_half_against_the_bottom_half_by_rating():
    ratings = {p: 100.0 - p for p in range(24)}  # 0 the best, 23 the lowest
    for seed in (1, 2, 3):
        round_ = first_round(range(24), sizes={2}, ideal=2, ratings=ratings, seed=seed)
        assert_valid_round(round_, range(24), {2})
        assert [t[0] for t in round_.tables] == list(range(12))
        assert sorted(t[1] for t in round_.tables) == list(range(12, 24))
    one = first_round(range(24), sizes={2}, ideal=2, ratings=ratings, seed=1)
    assert one != first_round(range(24), sizes={2}, ideal=2, ratings=ratings, seed=2)


def test_first_round_at_tables_of_four_takes_one_player_from_each_quarter():
    ratings = {p: float(-p) for p in range(16)}
    round_ = first_round(range(16), sizes={4}, ideal=4, ratings=ratings, seed=5)
    assert_valid_round(round_, range(16), {4})
    for seat in range(4):
        assert sorted(t[seat] for t in round_.tables) == list(range(4 * seat, 4 * seat + 4))


def test_first_round_mixed_sizes_bands_follow_the_seats():
    ratings = {p: float(-p) for p in range(13)}
    round_ = first_round(range(13), sizes={3, 4}, ideal=3, ratings=ratings, seed=5)
    assert_valid_round(round_, range(13), {3, 4})
    assert [len(t) for t in round_.tables] == [4, 3, 3, 3]
    assert [t[0] for t in round_.tables] == [0, 1, 2, 3]
    assert sorted(t[1] for t in round_.tables) == [4, 5, 6, 7]
    assert sorted(t[2] for t in round_.tables) == [8, 9, 10, 11]
    assert round_.tables[0][3] == 12


def test_first_round_puts_the_unrated_after_the_rated_and_byes_last():
    ratings = {7: 1.0, 3: 2.0}
    round_ = first_round([1, 3, 5, 7, 9], sizes={2}, ideal=2, ratings=ratings, seed=4)
    assert [t[0] for t in round_.tables] == [3, 7]
    assert set(round_.byes) <= {1, 5, 9} and len(round_.byes) == 1


def test_first_round_refuses_too_few_players_and_repeats():
    with pytest.raises(ValueError, match="cannot fill"):
        first_round([1, 2], sizes={3}, ideal=3)
    with pytest.raises(ValueError, match="twice"):
        first_round([1, 1, 2], sizes={2}, ideal=2)
