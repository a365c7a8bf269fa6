"""Metrics of hand-built rounds, the lower bound, pair counts and swapping players in a draft."""

import pytest

from tournaments.scheduling import (
    Metrics,
    Partition,
    Round,
    Schedule,
    measure,
    pair_counts,
    repeat_free_rounds,
    swap,
)

R1 = Round(((0, 1, 2), (3, 4, 5)), (6,))
R2 = Round(((0, 3, 6), (1, 4, 2)), (5,))


def test_pair_counts_count_each_pair_once_per_shared_table():
    assert pair_counts([R1, R2]) == {
        (0, 1): 1,
        (0, 2): 1,
        (1, 2): 2,
        (3, 4): 1,
        (3, 5): 1,
        (4, 5): 1,
        (0, 3): 1,
        (0, 6): 1,
        (3, 6): 1,
        (1, 4): 1,
        (2, 4): 1,
    }


def test_pair_counts_take_plain_lists_of_tables():
    assert pair_counts([[[5, 2]], [[2, 5], [1, 3]]]) == {(2, 5): 2, (1, 3): 1}


def test_metrics_of_a_hand_built_schedule():
    metrics = measure([R1, R2], range(7))
    assert metrics == Metrics(
        repeated_pairs=1,
        max_meetings=2,
        byes_per_player=(0, 1),
        first_dealer=(0, 2),
        sit_outs=(0, 0),
        lower_bound=1,  # a table of 3 would need two of round 1's byes: there is one
        perfect=False,
        seconds=0.0,
    )


def test_repeated_pairs_count_every_meeting_beyond_the_first():
    rounds = [Round(((0, 1),)), Round(((0, 1),)), Round(((1, 0),))]
    metrics = measure(rounds, [0, 1])
    assert (metrics.repeated_pairs, metrics.max_meetings) == (2, 3)


def test_history_makes_a_first_meeting_a_repeat():
    metrics = measure([Round(((0, 1), (2, 3)))], [0, 1, 2, 3], history={(1, 0): 2, (3, 1): 1})
    assert (metrics.repeated_pairs, metrics.max_meetings, metrics.perfect) == (1, 3, False)


def test_history_accepts_frozensets_and_ignores_empty_entries():
    metrics = measure([Round(((0, 1),))], [0, 1], history={frozenset({0, 1}): 1, (0, 0): 4})
    assert metrics.repeated_pairs == 1


def test_absent_players_count_as_on_a_bye():
    metrics = measure([Round(((0, 1),)), Round(((0, 1), (2, 3)))], [0, 1, 2, 3])
    assert metrics.byes_per_player == (0, 1)


def test_players_default_to_everyone_in_the_rounds():
    assert measure([R1]).byes_per_player == (0, 1)


def test_no_rounds_measure_as_empty():
    metrics = measure([], [])
    assert (metrics.lower_bound, metrics.byes_per_player, metrics.perfect) == (0, (0, 0), True)


def test_sit_outs_count_seat_zero_at_tables_from_the_given_size():
    rounds = [Round(((0, 1, 2, 3), (4, 5, 6))), Round(((1, 0, 2, 3), (6, 4, 5)))]
    players = range(7)
    assert measure(rounds, players, sitting_out=4).sit_outs == (0, 1)
    assert measure(rounds, players, sitting_out=True).sit_outs == (0, 1)
    assert measure(rounds, players, sitting_out=5).sit_outs == (0, 0)
    assert measure(rounds, players).sit_outs == (0, 0)


@pytest.mark.parametrize(
    ("partition", "bound"),
    [
        (Partition((3, 3, 3), 0), 4),  # 9 players at 3 tables of 3: (9 - 1) / (3 - 1)
        (Partition((4, 4), 0), 1),  # 8 players at 2 tables of 4: fewer tables than seats
        (Partition((5, 5, 5, 5), 0), 1),
        (Partition((3,) * 5, 0), 7),
        (Partition((4,) * 8, 0), 10),
        (Partition((4,) * 16, 0), 21),
        (Partition((2,) * 5, 0), 9),
        (Partition((2,) * 5, 1), 11),  # odd round robin
        (Partition((3,) * 66, 2), 100),
        (Partition((4, 3, 3, 3), 0), 5),
        (Partition((3, 3), 1), 1),
        (Partition((4, 4), 2), 1),  # each table of 4 needs two players who had a bye
        (Partition((3, 3, 3), 1), 4),
        (Partition((), 2), 0),
    ],
)
def test_lower_bound_on_repeat_free_rounds(partition, bound):
    assert repeat_free_rounds(partition) == bound


def test_measure_reports_the_lower_bound_of_the_first_round():
    rounds = [Round(((0, 1, 2), (3, 4, 5), (6, 7, 8)))]
    assert measure(rounds, range(9)).lower_bound == 4


def test_swap_two_seated_players_of_a_round():
    assert swap(R1, 0, 4) == Round(((4, 1, 2), (3, 0, 5)), (6,))


def test_swap_a_seated_player_with_a_bye():
    assert swap(R1, 6, 1) == Round(((0, 6, 2), (3, 4, 5)), (1,))


def test_swap_within_a_table_changes_the_dealer():
    assert swap(R1, 2, 0).tables[0] == (2, 1, 0)


def test_swap_refuses_a_player_not_in_the_round():
    with pytest.raises(ValueError, match="player 9"):
        swap(R1, 0, 9)


def test_swap_in_a_schedule_recomputes_the_metrics():
    metrics = measure([R1, R2], range(7))
    schedule = Schedule((R1, R2), metrics, tuple(range(7)), "by hand")
    edited = swap(schedule, 6, 4)
    assert edited.rounds == (R1, Round(((0, 3, 4), (1, 6, 2)), (5,)))
    assert edited.metrics.repeated_pairs == 2
    assert edited.metrics == measure(edited.rounds, range(7))
    assert edited.method == "by hand"
    first = swap(schedule, 1, 3, round_index=0)
    assert first.rounds[0] == Round(((0, 3, 2), (1, 4, 5)), (6,))


def test_round_lists_its_players():
    assert R1.players == (0, 1, 2, 3, 4, 5, 6)
