"""The team competitions' API: a palio set up, drawn, lined up, played and ranked through
/api/v1/, and every refusal of bad input naming its field with nothing stored."""

from __future__ import annotations

import pytest

from scoring import services as scoring
from scoring.services import Actor
from teams.models import LineupSlot, Team
from tests.clients import api_as
from tests.tournaments.helpers import briscola_won_by, make_competition, play

pytestmark = pytest.mark.django_db


def fields(response) -> set[tuple[str | None, str]]:
    return {(e["field"], e["code"]) for e in response.json()["errors"]}


@pytest.fixture
def palio(club, olga):
    competition = make_competition(
        club, olga, name="Palio", rulesets=["briscola"], format="round_robin"
    )
    return competition


def _roster(club, name, count=4):
    return [scoring.new_player(club, f"{name} {i}").pk for i in range(count)]


def test_a_palio_through_the_api(api, club, olga, palio):
    base = f"/api/v1/competitions/{palio.pk}"
    assert api.get(f"{base}/teams/").status_code == 404  # not between teams yet
    response = api.put(f"{base}/team-rules/", {"boards": 2, "result_by": "games"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["result_by"] == "games"
    rosters = {}
    for name in ("Borgo", "Castello", "Duomo", "Porta"):
        rosters[name] = _roster(club, name)
        response = api.post(
            f"{base}/teams/", {"name": name, "players": rosters[name]}, format="json"
        )
        assert response.status_code == 201, response.content
        assert len(response.json()["roster"]) == 4
    # A player on two teams: refused by name, no team stored.
    response = api.post(
        f"{base}/teams/", {"name": "Ripa", "players": [rosters["Borgo"][0]]}, format="json"
    )
    assert response.status_code == 400
    assert fields(response) == {("players.0", "duplicate")}
    assert "already on a team" in response.json()["errors"][0]["message"]
    assert not Team.objects.filter(name="Ripa").exists()

    response = api.post(f"{base}/team-matches/", format="json")
    assert response.status_code == 201, response.content
    match = response.json()[0]
    url = f"{base}/team-matches/{match['id']}"
    home, away = match["home"]["name"], match["away"]["name"]
    bad = api.put(
        f"{url}/lineup/",
        {
            "side": "home",
            "lineup": {"1": rosters[home][:2], "2": [rosters[home][1], rosters[home][2]]},
        },
        format="json",
    )
    assert bad.status_code == 400
    assert fields(bad) == {("lineup.2.0", "duplicate")}
    assert not LineupSlot.objects.exists()
    for side, name in (("home", home), ("away", away)):
        ok = api.put(
            f"{url}/lineup/",
            {"side": side, "lineup": {"1": rosters[name][:2], "2": rosters[name][2:]}},
            format="json",
        )
        assert ok.status_code == 200, ok.content
    boards = ok.json()["boards"]
    assert all(b["game"] for b in boards)
    from scoring.models import Game

    for board, side in zip(boards, (0, 0), strict=True):
        play(Game.objects.get(pk=board["game"]), briscola_won_by(side, 4, 2), olga)
    detail = api.get(f"{url}/").json()
    assert detail["result"] == {
        "home_score": 4,
        "away_score": 0,
        "winner": "home",
        "home_points": 1,
        "away_points": 0,
    }
    wrong = api.post(f"{url}/confirm/", {"home_score": 3, "away_score": 1}, format="json")
    assert wrong.status_code == 400
    assert fields(wrong) == {("home_score", "inconsistent")}
    assert "The boards give 4" in wrong.json()["errors"][0]["message"]
    right = api.post(f"{url}/confirm/", {"home_score": 4, "away_score": 0}, format="json")
    assert right.status_code == 200 and right.json()["confirmed"]
    standings = api.get(f"{base}/team-standings/").json()
    top = standings["rows"][0]
    assert (top["name"], top["match_points"], top["games_won"]) == (home, 1, 4)
    assert top["explanation"] == "Placed by match points."
    assert [t["key"] for t in standings["tie_breaks"]][:2] == ["head_to_head", "avulsa"]
    # Three level on 0 points with no match among them played: the mini-table splits nothing,
    # their figures are equal, the lots place them.
    level = [r for r in standings["rows"] if r["match_points"] == 0 and r["played"] == 0]
    assert {r["decided_by"] for r in level} == {"lots"}
    assert "drawing of lots" in level[0]["explanation"]


def test_the_captain_may_set_the_lineup_a_stranger_may_not(club, olga, sara, palio):
    from teams.services import team_draw, teams

    teams.set_team_rules(competition=palio, by=Actor.for_user(olga), boards=1)
    made = []
    for name in ("Borgo", "Castello"):
        made.append(
            teams.add_team(
                competition=palio,
                name=name,
                players=_roster(club, name, 2),
                by=Actor.for_user(olga),
            )
        )
    (match,) = team_draw.draw_team_round(competition=palio, by=Actor.for_user(olga))
    home_ids = list(match.home.roster.values_list("player_id", flat=True))
    url = f"/api/v1/competitions/{palio.pk}/team-matches/{match.pk}/lineup/"
    body = {"side": "home", "lineup": {"1": home_ids}}
    refused = api_as(sara).put(url, body, format="json")
    assert refused.status_code == 403
    captain = match.home.roster.first().player
    captain.user = sara
    captain.save()
    Team.objects.filter(pk=match.home_id).update(captain=captain)
    assert api_as(sara).put(url, body, format="json").status_code == 200


def test_a_confirmation_is_the_confirmers_own_reading_checked_against_the_boards(
    api, club, olga, palio
):
    """The scores sent are the confirmer's count: one that differs from the boards' is refused
    by name with the boards' figure, and nothing is confirmed; the schema says so."""
    from drf_spectacular.generators import SchemaGenerator

    from scoring.models import Game
    from teams.models import TeamMatch
    from teams.services import team_draw, teams

    by = Actor.for_user(olga)
    teams.set_team_rules(competition=palio, by=by, boards=1, result_by="games")
    for name in ("Borgo", "Castello"):
        teams.add_team(competition=palio, name=name, players=_roster(club, name, 2), by=by)
    (match,) = team_draw.draw_team_round(competition=palio, by=by)
    for side, team in (("home", match.home), ("away", match.away)):
        players = list(team.roster.values_list("player_id", flat=True))
        teams.set_lineup(match=match, side=side, lineup={"1": players}, by=by)
    board = match.boards.get()
    play(Game.objects.get(pk=board.game_id), briscola_won_by(0, 4, 2), olga)
    url = f"/api/v1/competitions/{palio.pk}/team-matches/{match.pk}/confirm/"
    result = api.get(url.replace("confirm/", "")).json()["result"]
    home, away = result["home_score"], result["away_score"]

    misread = api.post(url, {"home_score": home, "away_score": away + 1}, format="json")
    assert misread.status_code == 400
    assert fields(misread) == {("away_score", "inconsistent")}
    assert f"The boards give {away}" in misread.json()["errors"][0]["message"]
    match.refresh_from_db()
    assert match.confirmed_at is None and match.away_score is None

    read = api.post(url, {"home_score": home, "away_score": away}, format="json")
    assert read.status_code == 200 and read.json()["confirmed"]
    assert TeamMatch.objects.get(pk=match.pk).away_score == away

    schema = SchemaGenerator().get_schema(request=None, public=True)
    path = "/api/v1/competitions/{competition_id}/team-matches/{match_id}/confirm/"
    operation = schema["paths"][path]["post"]
    assert "confirmer's own reading" in operation["description"]
    assert "nothing stored" in operation["description"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields_ = schema["components"]["schemas"][body.rsplit("/", 1)[1]]["properties"]
    for name in ("home_score", "away_score"):
        assert "as the confirmer reads it" in fields_[name]["description"]
