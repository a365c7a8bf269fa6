"""Issue 22, point 8: the competition forms that make something are sent once.

A new competition, a new round, publishing a round: the form carries a one-time token (``scoring.forms.once``)
consumed with the write, so the same form sent twice makes one competition (one round), and the
second answer shows the one made.
"""

from __future__ import annotations

import re

import pytest

from scoring.models import Game
from scoring.services import Actor
from tests.clients import login
from tests.tournaments.helpers import enter, make_competition
from tests.tournaments.pages_helpers import new_competition
from tournaments import services
from tournaments.models import Competition, Round

pytestmark = pytest.mark.django_db


def token_of(html: str) -> str:
    (token,) = re.findall(r'name="once" value="([^"]+)"', html)
    return token


def test_the_new_competition_form_sent_twice_makes_one(olga, club):
    client = login(olga)
    data = new_competition(name="Coppa") | {
        "once": token_of(client.get("/c/uno/k/new/").content.decode())
    }
    first = client.post("/c/uno/k/new/", data)
    assert first.status_code == 302 and first["Location"] == "/c/uno/k/coppa/"
    again = client.post("/c/uno/k/new/", data)
    assert again.status_code == 302 and again["Location"] == "/c/uno/k/coppa/"
    assert list(Competition.objects.values_list("slug", flat=True)) == ["coppa"]


def test_the_add_round_form_sent_twice_adds_one_round(olga, club):
    make_competition(club, olga, slug="coppa")
    client = login(olga)
    token = token_of(client.get("/c/uno/k/coppa/").content.decode())
    data = {"action": "add_round", "duration_minutes": "90", "once": token}
    first = client.post("/c/uno/k/coppa/", data)
    assert first.status_code == 302 and first["Location"] == "/c/uno/k/coppa/rounds/1/"
    again = client.post("/c/uno/k/coppa/", data)
    assert again.status_code == 302 and again["Location"] == "/c/uno/k/coppa/rounds/1/"
    assert Round.objects.count() == 1
    fresh = token_of(client.get("/c/uno/k/coppa/").content.decode())
    assert client.post("/c/uno/k/coppa/", data | {"once": fresh}).status_code == 302
    assert Round.objects.count() == 2


def test_the_publish_button_sent_twice_publishes_once_and_shows_the_round(olga, club):
    competition = make_competition(club, olga, slug="coppa")
    enter(competition, olga, 3)
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    client = login(olga)
    page = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    data = {"action": "publish", "once": token_of(page)}
    forged = client.post("/c/uno/k/coppa/rounds/1/", data | {"once": "not ours"})
    assert forged.status_code == 400
    assert "This form is out of date" in forged.content.decode()
    assert Round.objects.get(pk=round_.pk).status == "draft"
    first = client.post("/c/uno/k/coppa/rounds/1/", data)
    assert first.status_code == 302 and first["Location"] == "/c/uno/k/coppa/rounds/1/"
    again = client.post("/c/uno/k/coppa/rounds/1/", data)
    assert again.status_code == 302 and again["Location"] == "/c/uno/k/coppa/rounds/1/"
    assert Round.objects.get(pk=round_.pk).status == "published"
    assert Game.objects.count() == 1
