"""Who can still win a palio (issue 25, point 5): the team standings page and the API say it
for a round robin between teams with matches left, and stop once nothing is left."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.services import Actor
from teams.services import team_draw
from tests.clients import login
from tests.teams.test_teams import palio, set_both
from tests.tournaments.helpers import briscola_won_by, play

pytestmark = pytest.mark.django_db


def win_for_home(match, user) -> None:
    set_both(match, user)
    for board in match.boards.order_by("number").select_related("game"):
        play(board.game, briscola_won_by(0, 4, 2), user)


def test_the_palio_page_and_the_api_say_who_can_still_win(club, olga):
    """A point a win, none for a draw or a loss. After rounds 1 and 2, each won by the home
    team, one round is left: the leaders on 2 (if any) can still win, a team on 0 that cannot
    reach the leader's points cannot; each line says the final ranks still possible."""
    competition, _teams = palio(club, olga, win_points=1, draw_points=0, loss_points=0)
    drawn = team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))
    for match in [m for m in drawn if m.round_number < 3]:
        win_for_home(match, olga)
    api = login(olga).get(f"/api/v1/competitions/{competition.pk}/team-standings/").json()
    by_points = {row["name"]: (row["match_points"], row["outlook"]) for row in api["rows"]}
    top = max(points for points, _o in by_points.values())
    for name, (points, outlook) in by_points.items():
        expected = "can_win" if points + 1 >= top else "cannot_win"
        assert outlook["status"] == expected, (name, points, top)
        assert outlook["exact"] and outlook["best"] <= outlook["worst"]
    page = Client().get(f"/p/{club.slug}/{competition.slug}/team-standings/").content.decode()
    assert 'data-note="outlook"' in page and "Who can still win" in page
    assert page.count('data-outlook="') == 4 and page.count("data-ranks") == 4
    for match in [m for m in drawn if m.round_number == 3]:
        win_for_home(match, olga)
    done = login(olga).get(f"/api/v1/competitions/{competition.pk}/team-standings/").json()
    assert all(row["outlook"] is None for row in done["rows"])
    page = Client().get(f"/p/{club.slug}/{competition.slug}/team-standings/").content.decode()
    assert 'data-note="outlook"' not in page and 'data-outlook="' not in page
