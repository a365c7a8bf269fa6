"""The registration services that check a state and then act on it, each run while a second
connection holds the competition's lock in the middle of the same write (``tests.held_lock``):
the service waits, then decides on what the other wrote (issue 33, point 1). Never a waiting
registration promoted twice (two entries for one person) or a registration closed twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from registration import services
from registration.models import Registration, RegistrationStatus
from scoring.services import Actor
from tests.held_lock import while_held
from tests.tournaments.helpers import make_competition
from tournaments.models import Competition, CompetitionEvent, EntryStatus

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def by(olga):
    return Actor.for_user(olga)


@pytest.fixture
def one_place(club, olga, by):
    """Registration open for one entry, a waiting list: Anna entered, Bruno waiting."""
    competition = make_competition(club, olga, name="Torneo di Briscola")
    now = timezone.now()
    services.set_registration(
        competition=competition,
        by=by,
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=1),
        capacity=1,
        waiting_list=True,
    )
    for name in ("anna", "bruno"):
        user = get_user_model().objects.create_user(name, email=f"{name}@example.org")
        services.register(competition=competition, by=Actor.for_user(user), name=name.title())
    return competition


def competition_of(pk: int) -> Competition:
    return Competition.objects.select_related("club").get(pk=pk)


def test_a_promotion_waits_for_another_promotion_of_the_same_registration(one_place, by):
    waiting = Registration.objects.get(competition=one_place, status=RegistrationStatus.WAITING)

    def promoting():
        registration = Registration.objects.get(pk=waiting.pk)
        registration.competition = competition_of(one_place.pk)
        return services.promote(registration=registration, by=by)

    kind, answer = while_held(promoting, promoting)
    assert kind == "refused", answer
    assert [(p.field, p.params.get("reason")) for p in answer.problems] == [
        ("registration", "not_waiting")
    ]
    assert one_place.entries.filter(status=EntryStatus.ACTIVE).count() == 2
    assert Registration.objects.get(pk=waiting.pk).status == RegistrationStatus.ENTERED
    promoted = CompetitionEvent.objects.filter(action="registration_promoted")
    assert promoted.count() == 1


def test_a_close_waits_for_another_close_and_refuses(one_place, by):
    def closing():
        return services.close_registration(competition=competition_of(one_place.pk), by=by)

    kind, answer = while_held(closing, closing)
    assert kind == "refused", answer
    assert [(p.field, p.params.get("reason")) for p in answer.problems] == [
        ("registration", "registration_closed")
    ]
    assert CompetitionEvent.objects.filter(action="registration_closed").count() == 1
