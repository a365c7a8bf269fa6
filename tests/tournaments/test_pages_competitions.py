"""The competition pages, creating a competition and who may do what on it; the club page
listing the competitions."""

import re

import pytest
from django.test import Client

from scoring.services import Actor
from tests.clients import field_error, login
from tournaments import services
from tournaments.models import Competition

from .pages_helpers import SIX, make_competition, new_competition

pytestmark = pytest.mark.django_db


# -- creating a competition -------------------------------------------------------------------


def test_creating_a_competition_through_the_page(olga, club):
    client = login(olga)
    page = client.get("/c/uno/k/new/")
    assert page.status_code == 200
    assert 'name="terziglio__target_score"' in page.content.decode()
    data = new_competition(
        name="Torneo di primavera",
        planned_rounds="4",
        tie_break_1="wins",
        tie_break_2="points",
        tie_break_3="head_to_head",
        terziglio__target_score="11",
        start_date="2025-03-01",
        description="Quattro turni",
    )
    response = client.post("/c/uno/k/new/", data)
    competition = Competition.objects.get()
    assert response.status_code == 302
    assert response["Location"] == "/c/uno/k/torneo-di-primavera/"
    assert (competition.kind, competition.rulesets, competition.format) == (
        "tournament",
        ["terziglio"],
        "rotation",
    )
    assert competition.tie_breaks == ["wins", "points", "head_to_head"]
    assert competition.options == {"terziglio": {"target_score": 11}}  # only what changed
    assert (competition.planned_rounds, competition.public, competition.best_of) == (4, True, None)
    dashboard = client.get(response["Location"]).content.decode()
    assert "Torneo di primavera" in dashboard and "Add a round" in dashboard


@pytest.mark.parametrize("fmt", ["knockout", "swiss"])
def test_match_play_is_chosen_in_words_for_a_briscola_knockout_or_swiss(olga, club, fmt):
    client = login(olga)
    html = client.get("/c/uno/k/new/").content.decode()
    menu = html.split('name="briscola__hands_to_win"', 1)[1].split("</select>", 1)[0]
    offered = re.findall(r'<option value="(\d+)"[^>]*>(.*?)</option>', menu)
    assert offered[:4] == [
        ("1", "a single hand"),
        ("2", "best of 3"),
        ("3", "best of 5"),
        ("4", "best of 7"),
    ]
    assert re.search(r'<option value="2" selected>best of 3</option>', menu)  # the default
    data = new_competition(
        name="Coppa", rulesets=["briscola"], format=fmt, table_size="2", planned_rounds="3",
        briscola__hands_to_win="3",
    )  # fmt: skip
    response = client.post("/c/uno/k/new/", data)
    assert response.status_code == 302, response.content.decode()
    assert Competition.objects.get().options == {"briscola": {"hands_to_win": 3}}


def test_a_league_mixes_games_and_keeps_its_league_options(olga, club):
    response = login(olga).post(
        "/c/uno/k/new/",
        new_competition(
            name="Lega del giovedì",
            kind="league",
            rulesets=["terziglio", "turkish"],
            format="club_night",
            best_of="8",
            min_rounds="3",
            turkish__deals="6",
        ),
    )
    assert response.status_code == 302
    league = Competition.objects.get()
    assert (league.rulesets, league.best_of, league.min_rounds) == (["terziglio", "turkish"], 8, 3)
    assert league.options == {"turkish": {"deals": 6}}


def test_creation_errors_are_shown_next_to_their_fields(olga, club):
    client = login(olga)
    make_competition(club, olga, [], name="Coppa")
    response = client.post(
        "/c/uno/k/new/",
        new_competition(
            name="Coppa",
            rulesets=["terziglio", "turkish"],
            start_date="2025-03-10",
            end_date="2025-03-01",
            placement_3="4 2",
        ),
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert field_error(html, "rulesets") == (
        "Several games can be mixed only in a league: choose one game, or make it a league."
    )
    assert field_error(html, "slug") == (
        "Another competition of the club already uses the address “coppa”."
    )
    assert field_error(html, "end_date") == "The last day comes before the first day."
    assert field_error(html, "placement_3") == "Tables of 3: enter 3 values, not 2."
    assert 'value="4 2"' in html  # what was typed is still there
    # House rules are checked once the rest is right; a tie-break listed twice is the form's.
    response = client.post(
        "/c/uno/k/new/",
        new_competition(name="Coppa 2", terziglio__target_score="0", tie_break_3="wins"),
    )
    html = response.content.decode()
    assert field_error(html, "tie_break_3") == "Each tie-break may be listed only once."
    response = client.post(
        "/c/uno/k/new/", new_competition(name="Coppa 2", terziglio__target_score="0")
    )
    assert field_error(response.content.decode(), "terziglio__target_score") == (
        "Target score: enter a number from 1 to 1000, not 0."
    )
    response = client.post("/c/uno/k/new/", new_competition(name="", rulesets=[]))
    html = response.content.decode()
    assert field_error(html, "name") == "This field is required."
    assert field_error(html, "rulesets") == "Choose at least one game."
    assert Competition.objects.count() == 1


# -- who may do what --------------------------------------------------------------------------


def test_a_scorer_reads_but_gets_403_on_every_organizer_action(sara, olga, club, players):
    competition = make_competition(club, olga, SIX)
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    client = login(sara)
    assert client.get("/c/uno/k/new/").status_code == 403
    assert client.post("/c/uno/k/new/", new_competition(name="Mine")).status_code == 403
    assert client.get("/c/uno/k/coppa/").status_code == 200
    assert client.get("/c/uno/k/coppa/rounds/1/").status_code == 200
    posts = [
        ("/c/uno/k/coppa/", {"action": "add_round", "duration_minutes": "90"}),
        ("/c/uno/k/coppa/entries/", {"new_names": "Zoe"}),
        ("/c/uno/k/coppa/rounds/1/", {"action": "generate", "seed": "1"}),
        ("/c/uno/k/coppa/rounds/1/", {"action": "publish"}),
        ("/c/uno/k/coppa/rounds/1/", {"action": "close", "confirm": "yes"}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    assert client.get("/c/uno/k/coppa/rounds/1/cards/").status_code == 403
    assert not round_.tables.exists() and competition.entries.count() == 6
    assert Competition.objects.count() == 1


def test_outsiders_get_404_for_a_private_competition_and_403_for_a_public_one(
    bea, olga, club, players, other_club
):
    make_competition(club, olga, [], name="Privata", public=False)
    make_competition(club, olga, [], name="Aperta")
    client = login(bea)
    assert client.get("/c/uno/k/privata/").status_code == 404
    assert client.get("/c/uno/k/aperta/").status_code == 403
    assert client.get("/c/uno/k/new/").status_code == 404  # Bea may not even read club uno
    assert Client().get("/c/uno/k/aperta/").status_code == 302  # to the login page


# -- the club page ----------------------------------------------------------------------------


def test_the_club_page_lists_competitions_and_offers_a_new_one_to_organizers(
    olga, sara, club, players
):
    make_competition(club, olga, [], name="Aperta")
    make_competition(club, olga, [], name="Privata", public=False)
    page = login(olga).get("/c/uno/").content.decode()
    assert 'href="/c/uno/k/aperta/"' in page and 'href="/c/uno/k/privata/"' in page
    assert 'href="/c/uno/k/new/"' in page
    assert 'href="/c/uno/k/new/"' not in login(sara).get("/c/uno/").content.decode()
