"""Registrations racing for the last place, with real commits (issue 24): one takes it, the
other waits (or, with no waiting list, is refused by name); never two entries for one place, a
link confirmed twice, or a deadlock. Each race runs ``TRIES`` times on a fresh competition.

PostgreSQL is where the races are real (``DATABASE_URL=postgres://…``): the competition's row
lock (``_common.lock``) serialises the writers, and each decides on what it reads under it. On
SQLite the IMMEDIATE transactions serialise them and the same outcomes hold."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from registration import services
from registration.models import Registration, RegistrationLink
from registration.services.registration import hash_token
from scoring.services import Actor
from tests.concurrency import race
from tests.tournaments.helpers import make_competition
from tournaments.models import Competition, EntryStatus

pytestmark = pytest.mark.django_db(transaction=True)

TRIES = 10


def one_place(club, olga, attempt: int, *, waiting_list: bool) -> Competition:
    competition = make_competition(club, olga, name=f"Torneo {attempt}")
    now = timezone.now()
    services.set_registration(
        competition=competition,
        by=Actor.for_user(olga),
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=1),
        capacity=1,
        waiting_list=waiting_list,
    )
    return competition


def accounts(count: int, attempt: int):
    users = get_user_model().objects
    return [
        users.create_user(f"racer{attempt}-{i}", email=f"racer{attempt}-{i}@example.org")
        for i in range(count)
    ]


def registering(competition_id: int, user):
    return (
        lambda: Competition.objects.select_related("club").get(pk=competition_id),
        lambda competition: services.register(
            competition=competition, by=Actor.for_user(user), name=user.username
        ),
    )


@pytest.mark.parametrize("waiting_list", [True, False])
def test_two_people_taking_the_last_place_at_once(club, olga, waiting_list):
    for attempt in range(TRIES):
        competition = one_place(club, olga, attempt, waiting_list=waiting_list)
        users = accounts(2, f"{attempt}{waiting_list}")
        outcomes = race(*(registering(competition.pk, u) for u in users))
        assert not [o for o in outcomes if o[0] == "error"], outcomes
        assert competition.entries.filter(status=EntryStatus.ACTIVE).count() == 1
        statuses = sorted(
            Registration.objects.filter(competition=competition).values_list("status", flat=True)
        )
        if waiting_list:
            assert [o[0] for o in outcomes] == ["done", "done"]
            assert statuses == ["entered", "waiting"], statuses
        else:
            assert sorted(o[0] for o in outcomes) == ["done", "refused"]
            refused = next(o[1] for o in outcomes if o[0] == "refused")
            assert refused.problems[0].params["reason"] == "registration_full"
            assert statuses == ["entered"]


def test_a_confirmation_link_followed_twice_at_once_serves_once(club, olga, monkeypatch):
    tokens = []
    from registration.services import registration as module

    original = module.secrets.token_urlsafe

    def remembered(n):
        tokens.append(original(n))
        return tokens[-1]

    monkeypatch.setattr(module.secrets, "token_urlsafe", remembered)
    for attempt in range(TRIES):
        competition = one_place(club, olga, attempt, waiting_list=True)
        services.register(
            competition=competition, by=Actor(), name="Anna", email=f"a{attempt}@example.org"
        )
        token = tokens[-1]
        assert RegistrationLink.objects.filter(token_hash=hash_token(token)).exists()
        outcomes = race(
            *[
                (
                    lambda: None,
                    lambda _, token=token: services.confirm_registration(token=token, by=Actor()),
                )
            ]
            * 2
        )
        assert sorted(o[0] for o in outcomes) == ["done", "refused"], outcomes
        assert competition.entries.count() == 1


def test_a_withdrawal_and_a_registration_at_once_leave_one_entry_and_an_ordered_list(club, olga):
    for attempt in range(TRIES):
        competition = one_place(club, olga, attempt, waiting_list=True)
        first, second, third = accounts(3, f"w{attempt}")
        a = services.register(competition=competition, by=Actor.for_user(first), name="A")
        services.register(competition=competition, by=Actor.for_user(second), name="B")
        outcomes = race(
            (lambda: None, lambda _, a=a: services.withdraw_registration(
                registration=Registration.objects.select_related("competition__club").get(pk=a.pk),
                by=Actor.for_user(olga))),
            registering(competition.pk, third),
        )  # fmt: skip
        assert [o[0] for o in outcomes] == ["done", "done"], outcomes
        assert competition.entries.filter(status=EntryStatus.ACTIVE).count() == 1
        waiting = list(
            Registration.objects.filter(competition=competition, status="waiting").values_list(
                "position", flat=True
            )
        )
        assert waiting == [1]
