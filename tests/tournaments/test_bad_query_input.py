"""Query strings the pages read are parsed strictly: a bad one is ignored, never a 500."""

import pytest
from django.test import Client

from scoring.services import Actor
from tests.tournaments.helpers import make_competition
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "query",
    [
        "?drawing=²&at=1",
        "?drawing=1&at=²",
        "?drawing=1&at=99999999999999999999",
        "?drawing=99999999999999999999999&at=1",
    ],
)
def test_a_round_page_with_a_garbled_drawing_marker_still_answers(club, olga, query):
    competition = make_competition(club, olga)
    services.add_round(competition=competition, by=Actor.for_user(olga))
    client = Client(raise_request_exception=False)
    client.force_login(olga)
    response = client.get(f"/c/uno/k/{competition.slug}/rounds/1/{query}")
    assert response.status_code == 200
