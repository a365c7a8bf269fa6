"""Team events at mixed tables from the pages and the API: the choice on the teams page, its
refusals next to the field (400 naming it through the API), a team's members entered by adding
the team, and the public team standings with the classifica avulsa."""

from __future__ import annotations

import pytest

from scoring import services as scoring
from scoring.rules import RuleViolation
from scoring.services import Actor
from teams import services as team_services
from teams.models import TeamKind
from tests.clients import api_as, field_error, login
from tests.teams.mixed_helpers import mixed_event, play_round, team_mates_together
from tests.tournaments.helpers import make_competition, terziglio_in_order
from tests.tournaments.pages_helpers import new_competition
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

RULES = {
    "action": "rules",
    "rules-kind": "mixed_tables",
    "rules-boards": "3",
    "rules-players_per_board": "1",
    "rules-result_by": "boards",
    "rules-win_points": "1",
    "rules-draw_points": "0",
    "rules-loss_points": "0",
}


def test_a_terziglio_team_event_is_made_from_the_teams_page_and_its_teams_are_entered(club, olga):
    palio = make_competition(club, olga, name="Palio", format="rotation", table_size=3)
    page = login(olga)
    base = f"/c/{club.slug}/k/{palio.slug}/teams/"
    assert 'value="mixed_tables"' in page.get(base).content.decode()
    assert page.post(base, RULES).status_code == 302
    assert palio.team_rules.kind == TeamKind.MIXED_TABLES
    players = [scoring.new_player(club, f"Borgo {i}") for i in range(3)]
    response = page.post(
        base,
        {
            "action": "team",
            "team-name": "Borgo",
            "team-players": [p.pk for p in players],
        },
    )
    assert response.status_code == 302
    entered = Entry.objects.filter(competition=palio).values_list("player_id", flat=True)
    assert sorted(entered) == sorted(p.pk for p in players)
    html = page.get(base).content.decode()
    assert 'id="mixed-tables"' in html and "Draw the matches to come" not in html


def test_mixed_tables_with_a_game_of_two_are_refused_next_to_the_field(club, olga):
    palio = make_competition(club, olga, name="Palio", rulesets=["briscola"], format="rotation")
    response = login(olga).post(f"/c/{club.slug}/k/{palio.slug}/teams/", RULES)
    assert response.status_code == 200
    assert "tables of three players or more" in field_error(response.content.decode(), "rules-kind")
    assert not hasattr(palio, "team_rules") or palio.team_rules is None


def test_round_robin_of_terziglio_is_refused_with_the_way_to_a_team_event(club, olga):
    page = login(olga)
    response = page.post(
        f"/c/{club.slug}/k/new/",
        new_competition(name="Palio", rulesets=["terziglio"], format="round_robin"),
    )
    assert response.status_code == 400
    assert "let its teams meet at mixed tables" in field_error(response.content.decode(), "format")


def test_the_api_sets_mixed_tables_and_refuses_bad_input_naming_the_field(club, olga):
    api = api_as(olga)
    palio = make_competition(club, olga, name="Palio", format="rotation", table_size=3)
    base = f"/api/v1/competitions/{palio.pk}"
    response = api.put(f"{base}/team-rules/", {"kind": "tables"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "kind"
    response = api.put(f"{base}/team-rules/", {"kind": "mixed_tables"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["kind"] == "mixed_tables"
    response = api.post(f"{base}/team-matches/", {}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "competition"
    round_robin = make_competition(club, olga, name="Lega", rulesets=["briscola"])
    response = api.put(
        f"/api/v1/competitions/{round_robin.pk}/team-rules/",
        {"kind": "mixed_tables"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "kind"


def test_a_swiss_keeps_team_mates_apart_and_its_kind_no_longer_changes_once_published(club, olga):
    competition, _teams = mixed_event(club, olga, game="terziglio", size=3, format="swiss",
                                      planned_rounds=3)  # fmt: skip
    orders = [["Borgo", "Castello", "Duomo", "Porta"]] * 3
    for number in (1, 2):
        tables = play_round(competition, olga, orders, terziglio_in_order, number)
        assert team_mates_together(tables) == 0, tables
    with pytest.raises(RuleViolation) as refused:
        team_services.set_team_rules(
            competition=competition, by=Actor.for_user(olga), players_per_board=1
        )
    assert refused.value.problems[0].field == "kind"


def test_the_public_team_standings_and_the_api_add_up_the_members(club, olga):
    competition, _teams = mixed_event(club, olga, game="terziglio", size=3, format="rotation",
                                      planned_rounds=3, public=True)  # fmt: skip
    orders = [
        ["Borgo", "Castello", "Duomo", "Porta"],
        ["Duomo", "Borgo", "Castello", "Porta"],
        ["Castello", "Duomo", "Porta", "Borgo"],
    ]
    for number in (1, 2, 3):
        play_round(competition, olga, orders, terziglio_in_order, number)
    html = login(olga).get(f"/p/{club.slug}/{competition.slug}/team-standings/").content.decode()
    assert "Classifica avulsa" in html and "the highest total wins" in html
    assert html.index("Castello") < html.index("Duomo") < html.index("Borgo 1")
    body = api_as(olga).get(f"/api/v1/competitions/{competition.pk}/mixed-team-standings/")
    assert body.status_code == 200
    rows = body.json()["rows"]
    assert [(r["name"], r["total"], r["decided_by"]) for r in rows] == [
        ("Castello", 24, "avulsa"),
        ("Duomo", 24, "avulsa"),
        ("Borgo", 20, None),
        ("Porta", 4, None),
    ]
    assert sum(m["result"] for m in rows[0]["members"]) == 24
    palio_api = api_as(olga).get(f"/api/v1/competitions/{competition.pk}/team-standings/")
    assert palio_api.status_code == 400
