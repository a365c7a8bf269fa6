"""The pages of a competition between teams: rules, teams and the draw from the teams page, a
lineup refused next to its field, the boards' games, the standings with their explanations,
and a player's boards on the player page."""

from __future__ import annotations

import pytest

from scoring import services as scoring
from scoring.models import Game
from teams.models import LineupSlot, Team, TeamMatch
from tests.clients import field_error, login
from tests.tournaments.helpers import briscola_won_by, make_competition, play

pytestmark = pytest.mark.django_db


def test_a_palio_from_the_pages(club, olga):
    palio = make_competition(club, olga, name="Palio", rulesets=["briscola"], format="round_robin")
    page = login(olga)
    base = f"/c/{club.slug}/k/{palio.slug}/teams/"
    assert page.get(base).status_code == 200
    response = page.post(
        base,
        {
            "action": "rules",
            "rules-boards": "2",
            "rules-players_per_board": "2",
            "rules-result_by": "boards",
            "rules-win_points": "0",
            "rules-draw_points": "1",
            "rules-loss_points": "0",
        },
    )
    assert response.status_code == 200
    assert "at least a drawn one" in field_error(response.content.decode(), "rules-draw_points")
    response = page.post(
        base,
        {
            "action": "rules",
            "rules-boards": "2",
            "rules-players_per_board": "2",
            "rules-result_by": "boards",
            "rules-win_points": "1",
            "rules-draw_points": "0",
            "rules-loss_points": "0",
            "rules-lots_seed": "palio",
        },
    )
    assert response.status_code == 302
    rosters = {}
    for name in ("Borgo", "Castello"):
        rosters[name] = [scoring.new_player(club, f"{name} {i}").pk for i in range(4)]
        response = page.post(
            base,
            {"action": "team", "team-name": name, "team-players": rosters[name]},
        )
        assert response.status_code == 302, response.content.decode()[:2000]
    taken = page.post(base, {"action": "team", "team-name": "borgo"})
    assert "already called" in field_error(taken.content.decode(), "team-name")
    assert page.post(base, {"action": "draw"}).status_code == 302
    match = TeamMatch.objects.get(competition=palio)
    url = f"/c/{club.slug}/k/{palio.slug}/matches/{match.pk}/"
    home = rosters[match.home.name]
    away = rosters[match.away.name]
    twice = page.post(
        url,
        {
            "action": "home",
            "home-board_1_0": home[0],
            "home-board_1_1": home[1],
            "home-board_2_0": home[1],
            "home-board_2_1": home[2],
        },
    )
    assert "already at board 1" in field_error(twice.content.decode(), "home-board_2_0")
    assert not LineupSlot.objects.exists()
    for side, ids in (("home", home), ("away", away)):
        data = {"action": side}
        data |= {f"{side}-board_{b}_{i}": ids[(b - 1) * 2 + i] for b in (1, 2) for i in (0, 1)}
        assert page.post(url, data).status_code == 302
    games = [b.game for b in match.boards.order_by("number")]
    assert all(games)
    shown = page.get(url).content.decode()
    assert f"/g/{games[0].pk}/" in shown
    for game in games:
        play(Game.objects.get(pk=game.pk), briscola_won_by(0, 4, 2), olga)
    wrong = page.post(
        url, {"action": "confirm", "confirm-home_score": "1", "confirm-away_score": "1"}
    )
    assert "The boards give 2" in field_error(wrong.content.decode(), "confirm-home_score")
    standings = login(olga).get(f"/p/{club.slug}/{palio.slug}/team-standings/").content.decode()
    assert standings.count("Placed by match points.") == 1  # said once, not on every row
    assert "Classifica avulsa" in standings  # the key of the tie-breaks
    assert "palio" in standings  # the seed of the lots is shown
    winner = Team.objects.get(pk=match.home_id)
    player = winner.roster.order_by("player_id").first().player
    profile = page.get(f"/c/{club.slug}/players/{player.pk}/").content.decode()
    assert "Team competitions" in profile
    assert "1 board played, 1 won" in profile


@pytest.mark.django_db(databases=[])
def test_the_standings_explain_the_classifica_avulsa_and_head_to_head():
    from teams.presenters import standings_payload
    from teams.standings.teams import compute
    from tests.teams.test_team_standings import LEAGUE, PALIO

    names = {1: "Borgo", 2: "Castello", 3: "Duomo", 4: "Porta", 5: "Ripa"}
    names |= {11: "Aquile", 12: "Bassotti", 13: "Cavalli", 14: "Delfini"}

    def payload(matches):
        standings = compute(matches, seed="s")
        return standings_payload(
            {
                "standings": standings,
                "rows": [{"row": r, "name": names[r.team]} for r in standings.rows],
                "mini_tables": [
                    {
                        "level": m.level,
                        "matches": m.matches,
                        "points": [(names[t], p) for t, p in m.points],
                    }
                    for m in standings.mini_tables
                ],
                "seed": "s",
                "outlook": {},
            }
        )

    palio = {r["name"]: r["explanation"] for r in payload(PALIO)["rows"]}
    assert palio["Borgo"] == (
        "Level with Castello, Duomo: placed by the classifica avulsa (match points in the "
        "matches among the tied teams: 2)."
    )
    assert palio["Ripa"] == "Placed by match points."
    assert payload(PALIO)["mini_tables"][0]["rows"][0] == {"name": "Borgo", "points": 2}
    league = {r["name"]: r["explanation"] for r in payload(LEAGUE)["rows"]}
    assert league["Aquile"] == (
        "Level with Bassotti: placed by head to head (match points in their matches: 1)."
    )
