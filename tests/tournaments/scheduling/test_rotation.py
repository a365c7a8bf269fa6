"""Planning all rounds up front: perfect schedules from constructions, fair byes, fair dealers,
rounds already played kept, history avoided."""

import pytest

from tournaments.scheduling import Round, pair_counts, rotation
from tournaments.scheduling.rotation import balance, draw_byes, fair_byes, repeat_floor
from tournaments.scheduling.sizes import table_sizes

from .helpers import assert_fair_byes, assert_valid_round, meetings

QUICK = 0.05  # effort for the tabu searches of these tests


def assert_valid(schedule, players, sizes):
    for r in schedule.rounds:
        assert_valid_round(r, players, sizes)
    assert_fair_byes(schedule.rounds, players)


@pytest.mark.parametrize(
    ("players", "size", "rounds"),
    [(15, 3, 7), (32, 4, 9), (32, 4, 10), (64, 4, 12), (24, 4, 6), (16, 4, 5), (9, 3, 4)],
)
def test_named_perfect_schedules_have_no_repeat(players, size, rounds):
    schedule = rotation(range(players), sizes={size}, ideal=size, rounds=rounds)
    assert_valid(schedule, range(players), {size})
    assert len(schedule.rounds) == rounds
    assert schedule.metrics.repeated_pairs == 0
    assert schedule.metrics.perfect


def test_kirkman_15_players_7_rounds_has_no_repeat():
    schedule = rotation(range(15), sizes={3}, ideal=3, rounds=7)
    assert max(meetings(schedule.rounds).values()) == 1
    assert len(meetings(schedule.rounds)) == 105  # every pair meets exactly once
    assert schedule.method == "Kirkman triple system on GF(7) x 2 + 1"


def test_social_golfers_32_players_10_rounds_has_no_repeat():
    schedule = rotation(range(32), sizes={4}, ideal=4, rounds=10)
    assert schedule.metrics.repeated_pairs == 0
    assert schedule.metrics.lower_bound == 10


def test_64_players_at_tables_of_4_from_the_affine_space_ag_3_4():
    schedule = rotation(range(64), sizes={4}, ideal=4, rounds=21)
    assert schedule.metrics.repeated_pairs == 0
    assert schedule.method == "affine space AG(3,4)"


@pytest.mark.parametrize(("size", "byes"), [(3, (0, 1)), (4, (0, 0))])
def test_200_players_10_rounds_without_repeat(size, byes):
    schedule = rotation(range(200), sizes={size}, ideal=size, rounds=10)
    assert_valid(schedule, range(200), {size})
    assert schedule.metrics.repeated_pairs == 0
    assert schedule.metrics.byes_per_player == byes


def test_20_players_at_tables_of_5_reach_the_pigeonhole_minimum():
    # 4 tables of 5: every later table holds two players of one earlier table
    schedule = rotation(range(20), sizes={5}, ideal=5, rounds=4)
    assert schedule.metrics.lower_bound == 1
    assert schedule.metrics.repeated_pairs == repeat_floor(table_sizes(20, {5}, 5), 4) == 12


def test_players_keep_their_ids():
    players = [1043, 7, 512, 99, 3001, 42, 8, 15, 16]
    schedule = rotation(players, sizes={3}, ideal=3, rounds=4, seed=5)
    assert_valid(schedule, players, {3})
    assert schedule.players == tuple(players)
    assert schedule.metrics.repeated_pairs == 0


def test_mixed_table_sizes_and_byes_are_valid_and_fair():
    schedule = rotation(range(13), sizes={3}, ideal=3, rounds=8, effort=QUICK)
    assert_valid(schedule, range(13), {3})
    assert schedule.metrics.byes_per_player == (0, 1)
    mixed = rotation(range(14), sizes={3, 4}, ideal=3, rounds=5, effort=QUICK)
    assert_valid(mixed, range(14), {3, 4})
    assert all(sorted(map(len, r.tables)) == [3, 3, 4, 4] for r in mixed.rounds)


def test_byes_go_round_before_anyone_gets_a_second():
    schedule = rotation(range(11), sizes={4}, ideal=4, rounds=9, effort=QUICK)
    assert_valid(schedule, range(11), {4})
    assert schedule.metrics.byes_per_player == (2, 3)


def test_first_dealer_is_balanced():
    schedule = rotation(range(14), sizes={3}, ideal=3, rounds=7)
    low, high = schedule.metrics.first_dealer
    assert high - low <= 1
    schedule = rotation(range(64), sizes={4}, ideal=4, rounds=12)
    assert schedule.metrics.first_dealer == (3, 3)


def test_dealer_sitting_out_is_balanced_at_the_big_tables():
    schedule = rotation(range(13), sizes={3, 4}, ideal=3, rounds=13, sitting_out=4, effort=QUICK)
    assert schedule.metrics.sit_outs == (1, 1)
    low, high = schedule.metrics.first_dealer
    assert high - low <= 1


def test_same_seed_same_schedule_other_seed_other_schedule():
    first = rotation(range(22), sizes={3, 4}, ideal=4, rounds=6, seed=3, effort=QUICK)
    again = rotation(range(22), sizes={3, 4}, ideal=4, rounds=6, seed=3, effort=QUICK)
    other = rotation(range(22), sizes={3, 4}, ideal=4, rounds=6, seed=4, effort=QUICK)
    assert first.rounds == again.rounds
    assert first.rounds != other.rounds
    perfect = rotation(range(15), sizes={3}, ideal=3, rounds=7, seed=2)
    assert perfect.metrics.repeated_pairs == 0
    assert perfect.rounds != rotation(range(15), sizes={3}, ideal=3, rounds=7).rounds


def test_played_rounds_stay_unchanged_on_regeneration():
    first = rotation(range(12), sizes={3}, ideal=3, rounds=5, effort=QUICK)
    played = first.rounds[:2]
    # player 11 drops out, players 12 and 13 arrive late
    players = [*range(11), 12, 13]
    again = rotation(players, sizes={3, 4}, ideal=3, rounds=5, played=played, effort=QUICK)
    assert again.rounds[:2] == played
    for r in again.rounds[2:]:
        assert_valid_round(r, players, {3, 4})
    assert len(again.rounds) == 5
    later = meetings(again.rounds[2:])
    assert not set(later) & set(meetings(played))


def test_played_rounds_can_be_plain_tables():
    schedule = rotation(
        range(9),
        sizes={3},
        ideal=3,
        rounds=4,
        played=[[[0, 1, 2], [3, 4, 5], [6, 7, 8]]],
        effort=QUICK,
    )
    assert schedule.rounds[0] == Round(((0, 1, 2), (3, 4, 5), (6, 7, 8)))
    assert schedule.metrics.repeated_pairs == 0


def test_all_rounds_played_returns_them():
    played = rotation(range(6), sizes={3}, ideal=3, rounds=2).rounds
    schedule = rotation(range(6), sizes={3}, ideal=3, rounds=2, played=played)
    assert schedule.rounds == played
    assert schedule.method == "rounds already played"


def test_late_arrivals_get_no_bye_before_the_others():
    played = [Round(((0, 1, 2), (3, 4, 5)), (6,))]
    schedule = rotation(range(8), sizes={3}, ideal=3, rounds=3, played=played, effort=QUICK)
    assert 7 not in schedule.rounds[1].byes  # 7 missed round 1: that was his bye
    assert 6 not in schedule.rounds[1].byes


def test_history_of_earlier_events_is_avoided():
    earlier = rotation(range(9), sizes={3}, ideal=3, rounds=3).rounds
    schedule = rotation(
        range(9), sizes={3}, ideal=3, rounds=1, history=pair_counts(earlier), effort=QUICK
    )
    assert schedule.metrics.repeated_pairs == 0
    assert not set(meetings(schedule.rounds)) & set(pair_counts(earlier))


def test_byes_of_earlier_nights_count():
    schedule = rotation(range(7), sizes={3}, ideal=3, rounds=1, byes={p: 1 for p in range(6)})
    assert schedule.rounds[0].byes == (6,)


def test_more_rounds_than_a_design_holds_spread_the_repeats():
    schedule = rotation(range(9), sizes={3}, ideal=3, rounds=8)
    assert schedule.metrics.repeated_pairs == 36
    assert schedule.metrics.max_meetings == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": [1, 2, 1]}, "twice"),
        ({"players": range(2)}, "cannot fill"),
        ({"rounds": 0}, "at least one round"),
        ({"rounds": 1, "played": [[[0, 1, 2]], [[0, 1, 2]]]}, "at least one round"),
    ],
)
def test_bad_arguments_are_refused(kwargs, message):
    arguments = {"players": range(6), "sizes": {3}, "ideal": 3, "rounds": 2} | kwargs
    players = arguments.pop("players")
    with pytest.raises(ValueError, match=message):
        rotation(players, **arguments)


def test_fair_byes_checks_the_turn():
    assert fair_byes([([[0, 1]], [2]), ([[1, 2]], [0])], [0, 0, 0])
    assert not fair_byes([([[0, 1]], [2]), ([[0, 1]], [2])], [0, 0, 0])
    assert fair_byes([([], [0, 1])], [0, 0])


def test_drawn_byes_go_round():
    import random

    drawn = draw_byes([0, 0, 0, 1], 1, 3, random.Random(0))
    assert sorted(p for away in drawn for p in away) == [0, 1, 2]


def test_balance_hands_seat_zero_along_a_chain():
    from collections import Counter

    tables = [[0, 1], [1, 2], [0, 3]]
    counts = Counter({0: 2, 1: 1})
    balance(tables, counts)
    assert sorted(counts.values()) == [1, 1, 1]
    assert counts == Counter(t[0] for t in tables)


def test_even_sizes_rejects_a_player_kept_at_the_big_table():
    from tournaments.scheduling.rotation import even_sizes

    kept = [([[0, 1, 2], [3, 4]], []), ([[0, 3, 1], [2, 4]], []), ([[0, 4, 2], [1, 3]], [])]
    assert not even_sizes(kept * 2, 5)
    assert even_sizes(kept, 5)
    assert even_sizes([([[0, 1], [2, 3]], [])], 4)


def test_balance_skips_a_dealer_nobody_can_relieve():
    from collections import Counter

    tables = [[0, 1], [2, 3]]
    counts = Counter({0: 3, 1: 3})
    balance(tables, counts)
    assert tables == [[0, 1], [2, 3]]


def test_large_irregular_events_go_straight_to_the_tabu_search():
    schedule = rotation(range(102), sizes={4}, ideal=4, rounds=2, effort=QUICK)
    assert schedule.method == "tabu search"
    assert schedule.metrics.repeated_pairs == 0
