"""Two sends of one write with one ``Idempotency-Key`` at the same moment, with real commits
(``scoring.services.idempotency``: the claim is committed before the write runs): whichever
order they run in, the write is made once; the other send gets the first answer replayed, or a
409 ``in_flight`` while the first is still being answered, never a second write or a refusal
of its own. PostgreSQL is where they overlap; on SQLite the writers take turns."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.concurrency import race
from tournaments.models import Competition

pytestmark = pytest.mark.django_db(transaction=True)

BODY = {"name": "Coppa", "rulesets": ["terziglio"], "format": "rotation", "planned_rounds": 3}


def creating(user):
    def prepare():
        client = APIClient()
        client.force_authenticate(user)
        return client

    def act(client):
        response = client.post(
            "/api/v1/clubs/uno/competitions/", BODY, format="json", HTTP_IDEMPOTENCY_KEY="race"
        )
        replayed = response.get("Idempotent-Replayed") == "true"
        codes = [e["code"] for e in response.json().get("errors", [])]
        return response.status_code, replayed, codes

    return prepare, act


@pytest.mark.parametrize("attempt", range(3))
def test_two_sends_at_once_make_one_competition(club, olga, attempt):
    outcomes = race(creating(olga), creating(olga))
    assert all(kind == "done" for kind, _result in outcomes), outcomes
    answers = sorted(result for _kind, result in outcomes)
    assert answers in (
        [(201, False, []), (201, True, [])],
        [(201, False, []), (409, False, ["in_flight"])],
    ), answers
    assert Competition.objects.count() == 1
