"""Standings over the rounds of a team competition (issue 35, point 1): the ranks the bump chart
draws after each round equal the team standings recomputed right after that round; the team
standings page shows the chart."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.services import Actor
from teams import selectors
from teams.history import team_history, team_standings_after
from teams.services import team_draw
from tests.teams.test_teams import palio, set_both
from tests.tournaments.helpers import briscola_won_by, play
from tests.tournaments.test_bump_pages import region_of
from tournaments.presenters.bump import bump_chart

pytestmark = pytest.mark.django_db


def win(match, user, side) -> None:
    set_both(match, user)
    for board in match.boards.order_by("number").select_related("game"):
        play(board.game, briscola_won_by(side, 4, 2), user)


def live_ranks(competition) -> dict[int, int]:
    return {r.team: r.rank for r in selectors.team_standings(competition)["standings"].rows}


def test_a_palio_chart_draws_the_team_standings_of_every_round(club, olga):
    competition, _teams = palio(club, olga, win_points=1, draw_points=0, loss_points=0)
    drawn_matches = team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))
    live = {}
    for number, sides in ((1, (0, 0)), (2, (1, 0)), (3, (0, 1))):
        matches = sorted((m for m in drawn_matches if m.round_number == number), key=lambda m: m.pk)
        for match, side in zip(matches, sides, strict=True):
            win(match, olga, side)
        live[number] = live_ranks(competition)
    chart = bump_chart(team_history(competition))
    drawn = {c["number"]: {} for c in chart["columns"]}
    by_x = {c["x"]: c["number"] for c in chart["columns"]}
    for line in chart["lines"]:
        for point in line["points"]:
            drawn[by_x[point["x"]]][line["entry"]] = (
                round((point["y"] - chart["top"]) / chart["gap"]) + 1
            )
    assert drawn == live
    rows = team_standings_after(competition, 2)
    assert {r["entry"]: r["rank"] for r in rows} == live[2]
    page = Client().get(f"/p/{club.slug}/{competition.slug}/team-standings/").content.decode()
    assert 'id="bump"' in page and page.count('<g class="line') == len(live[3])
    # The chart follows the stream: it is inside the team standings' live region.
    region = region_of(page, "bump")
    assert region["id"] == "team-standings-live" and "standings" in region["data-stream-on"]
