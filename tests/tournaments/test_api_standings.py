"""The competition API, standings: the ETag and its 304, privacy."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import Game
from tests.clients import api_as
from tournaments.models import StandingsSnapshot

from .api_helpers import fields, url
from .helpers import make_competition, play, terziglio_in_order

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Standings


def test_standings_with_etag_and_304(api, drawn, olga, django_capture_on_commit_callbacks):
    response = api.get(url(drawn, "standings/"))
    assert response.status_code == 200
    one, two = f'"s{drawn.pk}.1"', f'"s{drawn.pk}.2"'
    assert response["ETag"] == one
    data = response.json()
    assert data["version"] == 1 and data["scheme"] == "placement"
    assert len(data["tables"][0]["rows"]) == 6 and data["games_counted"] == 0
    assert StandingsSnapshot.objects.get(competition=drawn).version == 1
    unchanged = api.get(url(drawn, "standings/"), HTTP_IF_NONE_MATCH=one)
    assert unchanged.status_code == 304 and unchanged["ETag"] == one
    # The old form, a bare version, names no competition: it is not the standings' validator.
    assert api.get(url(drawn, "standings/"), HTTP_IF_NONE_MATCH='"1"').status_code == 200

    api.post(url(drawn, "rounds/1/publish/"))
    game = Game.objects.filter(competition_table__round__number=1).order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=True):
        play(game, terziglio_in_order([2, 1, 0]), olga)

    changed = api.get(url(drawn, "standings/"), HTTP_IF_NONE_MATCH=one)
    assert changed.status_code == 200 and changed["ETag"] == two
    rows = changed.json()["tables"][0]["rows"]
    seats = [s.entry_id for s in game.competition_table.seats.order_by("position")]
    assert [(r["entry"], r["rank"], r["points"]) for r in rows[:4]] == [
        (seats[2], 1, 4),
        (seats[1], 2, 2),
        (seats[0], 3, 0),
        (rows[3]["entry"], 4, 0),
    ]
    assert api.get(url(drawn, "standings/"), HTTP_IF_NONE_MATCH=f"W/{two}").status_code == 304


@pytest.mark.parametrize("header", ['"²"', '"' + "9" * 5000 + '"', 'W/"s²"', '"s1.1" "s1.1"'])
def test_a_garbled_if_none_match_on_public_standings_just_gets_them(drawn, header):
    anonymous = APIClient()
    assert anonymous.get(url(drawn, "standings/"), HTTP_IF_NONE_MATCH=header).status_code == 200
    page = Client().get(f"/p/{drawn.club.slug}/{drawn.slug}/standings/", HTTP_IF_NONE_MATCH=header)
    assert page.status_code == 200


def test_private_competitions_are_hidden_from_outsiders(club, olga, sara, bea):
    private = make_competition(club, olga, name="Riservato", public=False)
    for client in (api_as(bea), APIClient()):
        for path in ("", "entries/", "rounds/", "standings/"):
            response = client.get(url(private, path))
            assert response.status_code == 404 and fields(response) == {(None, "not_found")}
    assert not StandingsSnapshot.objects.exists()
    assert api_as(sara).get(url(private, "standings/")).status_code == 200
