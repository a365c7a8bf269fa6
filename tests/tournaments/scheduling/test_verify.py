"""The verifier every drawn schedule passes before it is saved."""

from dataclasses import replace

import pytest

from tournaments.scheduling import Round, ScheduleError, rotation, verify_schedule
from tournaments.scheduling.base import Schedule, measure
from tournaments.scheduling.verify import problems


def schedule_of(rounds, players, history=None):
    rounds = tuple(rounds)
    return Schedule(rounds, measure(rounds, players, history), tuple(players), "by hand")


@pytest.mark.parametrize(
    ("players", "sizes", "ideal", "rounds"),
    [(15, {3}, 3, 7), (21, {3}, 3, 10), (13, {3, 4}, 3, 5), (10, {4}, 4, 4), (28, {4}, 4, 9)],
)
def test_schedules_of_the_rotation_pass(players, sizes, ideal, rounds):
    schedule = rotation(range(players), sizes=sizes, ideal=ideal, rounds=rounds, effort=0.05)
    assert verify_schedule(schedule, sizes=sizes) is schedule


def test_it_names_a_player_seated_twice_and_one_missing():
    bad = schedule_of([Round(((0, 1, 2), (2, 4, 5)))], range(6))
    found = problems(bad, sizes={3})
    assert found == ["round 1: seated twice [2], missing [3], unknown []"]


def test_it_names_a_table_of_a_size_not_allowed():
    bad = schedule_of([Round(((0, 1, 2, 3), (4, 5)))], range(6))
    assert problems(bad, sizes={3}) == ["round 1: tables of [2, 4] seats, allowed [3]"]


def test_it_rejects_metrics_that_hide_a_repeat():
    rounds = [Round(((0, 1, 2), (3, 4, 5))), Round(((0, 1, 3), (2, 4, 5)))]
    honest = schedule_of(rounds, range(6))
    lying = replace(honest, metrics=replace(honest.metrics, repeated_pairs=0, perfect=True))
    assert problems(honest, sizes={3}) == []
    with pytest.raises(ScheduleError, match="metrics claimed"):
        verify_schedule(lying, sizes={3})


def test_it_counts_the_history_in_the_pairs_claimed():
    rounds = [Round(((0, 1, 2), (3, 4, 5)))]
    fresh = schedule_of(rounds, range(6))
    assert problems(fresh, sizes={3}, history={(0, 1): 1}) != []
    assert (
        problems(schedule_of(rounds, range(6), {(0, 1): 1}), sizes={3}, history={(0, 1): 1}) == []
    )


def test_it_rejects_a_second_bye_while_someone_has_none():
    rounds = [Round(((0, 1, 2),), (3,)), Round(((0, 1, 2),), (3,))]
    found = problems(schedule_of(rounds, range(4)), sizes={3})
    assert found == ["round 2: a player with 1 byes sits out while one with 0 plays"]


def test_byes_of_earlier_events_and_absences_from_played_rounds_count():
    rounds = [Round(((0, 1, 2),), (3,)), Round(((1, 2, 3),), (0,))]
    # player 0 had two byes before: his bye in round 2 after 3's is unfair
    assert problems(schedule_of(rounds, range(4)), sizes={3}, byes={0: 2}) != []
    # round 1 played without player 4 (not yet arrived): 4 has had a bye, and may not have another
    # while player 1 has had none
    played = Round(((0, 1, 2),), (3,))
    later = Round(((1, 2, 3),), (0, 4))
    schedule = schedule_of([played, later], range(5))
    assert problems(schedule, sizes={3}, played=1) == [
        "round 2: a player with 1 byes sits out while one with 0 plays"
    ]


def test_played_rounds_may_hold_players_who_dropped_out():
    played = Round(((0, 1, 2), (3, 4, 9)))
    later = Round(((0, 1, 3), (2, 4, 5)))
    schedule = schedule_of([played, later], range(6))
    assert problems(schedule, sizes={3}, played=1) == []
    assert problems(schedule, sizes={3}) != []
