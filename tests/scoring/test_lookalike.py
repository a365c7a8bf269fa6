"""Issue 33, point 7: a name that reads as one already there without being it (a Cyrillic "а"
for a Latin "a", a zero-width joiner inside, full-width letters) is refused, naming the one it
reads as: a player (page, list, API), a team and a registrant (tournaments' services)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from registration import services as registration_services
from registration.models import Registration
from scoring import lookalike
from scoring.models import Player
from scoring.rules import RuleViolation
from scoring.services import Actor
from teams.models import Team
from teams.services import teams
from tests.clients import api_as, field_error, login
from tests.tournaments.helpers import make_competition

CYRILLIC_A = "\u0430"  # CYRILLIC SMALL LETTER A
ZWJ = "\u200d"  # ZERO WIDTH JOINER
FULL_WIDTH = "Ａｎｎａ"


@pytest.mark.parametrize(
    ("typed", "existing", "found"),
    [
        pytest.param(f"Ann{CYRILLIC_A}", "Anna", "Anna", id="cyrillic-a"),
        pytest.param("\u0410nna", "anna", "anna", id="cyrillic-capital-a-other-case"),
        pytest.param(f"An{ZWJ}na", "Anna", "Anna", id="zero-width-joiner"),
        pytest.param("An\u200bna", "Anna", "Anna", id="zero-width-space"),
        pytest.param(FULL_WIDTH, "Anna", "Anna", id="full-width"),
        pytest.param("Car1a", "Carla", "Carla", id="digit-one-for-l"),
        pytest.param("Anna", "anna", None, id="the-case-alone-is-a-duplicate-not-a-look-alike"),
        pytest.param("Anna", "Anna", None, id="the-same-name"),
        pytest.param("Darío", "Dario", None, id="an-accent-reads-differently"),
        pytest.param("Anne", "Anna", None, id="another-letter"),
    ],
)
def test_look_alikes(typed, existing, found):
    assert lookalike.look_alike(typed, ["Bruno", existing]) == found


def test_the_refusal_names_the_field_and_the_existing_name():
    with pytest.raises(RuleViolation) as caught:
        lookalike.refuse("name", f"Ann{CYRILLIC_A}", ["Anna"], reason="team_name")
    (problem,) = caught.value.problems
    assert (problem.field, problem.code) == ("name", "look_alike")
    assert problem.params == {
        "reason": "team_name",
        "value": f"Ann{CYRILLIC_A}",
        "existing": "Anna",
        "character": "U+0430 CYRILLIC SMALL LETTER A",
    }


@pytest.mark.django_db
def test_the_players_page_refuses_a_look_alike_next_to_the_field(olga, club, players):
    client = login(olga)
    response = client.post("/c/uno/players/", {"display_name": f"Ann{CYRILLIC_A}"})
    assert field_error(response.content.decode(), "display_name") == (
        f"“Ann{CYRILLIC_A}” reads as “Anna”, a player of the club already, but is written with "
        "U+0430 CYRILLIC SMALL LETTER A: choose that player, or a name that reads differently."
    )
    assert client.post("/c/uno/players/", {"display_name": f"Ca{ZWJ}rla"}).status_code == 200
    assert (
        not Player.objects.filter(club=club, display_name__startswith="Ann")
        .exclude(display_name="Anna")
        .exists()
    )
    assert Player.objects.filter(club=club).count() == 4


@pytest.mark.django_db
def test_a_list_of_players_refuses_look_alikes_by_line_through_the_api(olga, club, players):
    url = "/api/v1/clubs/uno/players/bulk/"
    response = api_as(olga).post(url, {"text": f"Zoe\n{FULL_WIDTH}\nBrun\u03bf"}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["field"], e["code"]) for e in errors] == [("text", "look_alike")] * 2
    assert errors[0]["message"].startswith(f"Line 2: “{FULL_WIDTH}” reads as “Anna”")
    assert errors[1]["message"].startswith("Line 3: “Brunο” reads as “Bruno”")
    assert not Player.objects.filter(display_name="Zoe").exists()
    # Two rows of one list that read alike are refused too.
    response = api_as(olga).post(url, {"text": f"Zoe\nZ{ZWJ}oe"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"].startswith(f"Line 2: “Z{ZWJ}oe” reads as “Zoe”")


@pytest.mark.django_db
def test_a_team_whose_name_reads_as_another_teams_is_refused(club, olga):
    competition = make_competition(
        club, olga, name="Palio", rulesets=["briscola"], format="round_robin"
    )
    by = Actor.for_user(olga)
    teams.set_team_rules(competition=competition, boards=2, by=by)
    base = f"/api/v1/competitions/{competition.pk}/teams/"
    assert api_as(olga).post(base, {"name": "Castello"}, format="json").status_code == 201
    response = api_as(olga).post(base, {"name": f"C{CYRILLIC_A}stello"}, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["field"], error["code"]) == ("name", "look_alike")
    assert (
        "another team of this competition" in error["message"] and "“Castello”" in error["message"]
    )
    assert Team.objects.filter(competition=competition).count() == 1


@pytest.mark.django_db
def test_a_registrant_whose_name_reads_as_a_player_is_refused(club, olga, players):
    competition = make_competition(club, olga, name="Torneo", public=True)
    now = timezone.now()
    registration_services.set_registration(
        competition=competition,
        by=Actor.for_user(olga),
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=3),
        capacity=4,
    )
    url = f"/api/v1/competitions/{competition.pk}/registrations/"
    body = {"name": f"Ca{ZWJ}rla", "email": "c@example.org"}
    response = api_as(None).post(url, body, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["field"], error["code"]) == ("name", "look_alike") and "“Carla”" in error[
        "message"
    ]
    # The page shows it next to the field.
    page = Client().post(
        f"/p/uno/{competition.slug}/register/",
        {"name": f"D{CYRILLIC_A}rio", "email": "d@example.org"},
    )
    assert "“Dario”" in field_error(page.content.decode(), "name")
    assert not Registration.objects.exists()
    # The club's Carla herself, as written there (whatever the case), registers.
    assert (
        api_as(None)
        .post(url, {"name": "carla", "email": "c@example.org"}, format="json")
        .status_code
        == 201
    )
