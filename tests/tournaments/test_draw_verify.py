"""The rotation draw checks its schedule before storing it: a broken schedule stores nothing."""

import datetime as dt
from dataclasses import replace

import pytest

from scoring.services import Actor
from tournaments import scheduling, services
from tournaments.models import Table

from .helpers import enter, make_competition


def test_a_schedule_that_fails_the_verifier_is_not_stored(club, olga, monkeypatch):
    competition = make_competition(club, olga, planned_rounds=2)
    enter(competition, olga, 9)
    first = services.add_round(
        competition=competition, by=Actor.for_user(olga), date=dt.date(2026, 4, 11)
    )
    real = scheduling.rotation

    def hiding_a_repeat(*args, **kwargs):
        schedule = real(*args, **kwargs)
        first, *rest = schedule.rounds
        rounds = (first, first, *rest[1:])  # round 2 repeats round 1 ...
        return replace(schedule, rounds=rounds)  # ... while the metrics still say perfect

    monkeypatch.setattr(scheduling, "rotation", hiding_a_repeat)
    with pytest.raises(scheduling.ScheduleError, match="metrics claimed"):
        services.generate_round(round_=first, by=Actor.for_user(olga), seed=7)
    assert not Table.objects.filter(round__competition=competition).exists()
    monkeypatch.setattr(scheduling, "rotation", real)
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=7)
    assert Table.objects.filter(round__competition=competition).count() == 6
