"""The demo's palio (``teams/demo.py``): four districts in a round robin of Briscola, two rounds
played and confirmed, the last one dated and still to play; left alone when loaded again."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from teams import demo, selectors
from teams.models import LineupSlot, Team, TeamMatch
from tests.demo_loading import load_demo
from tournaments.models import Competition


def palio() -> Competition:
    return Competition.objects.get(club__slug="circolo-demo", slug=demo.SLUG)


@pytest.mark.django_db
def test_the_palio_has_four_districts_two_rounds_confirmed_and_the_last_one_dated(demo_output):
    assert f"Created the palio {demo.NAME}" in demo_output
    competition = palio()
    rules = competition.team_rules
    assert (competition.format, rules.boards, rules.players_per_board) == ("round_robin", 2, 1)
    teams = list(competition.teams.order_by("name"))
    assert [t.name for t in teams] == [name for name, _ in demo.DISTRICTS]
    assert all(t.roster.count() == 3 for t in teams)
    today = timezone.localdate()
    matches = list(competition.team_matches.order_by("round_number", "number"))
    assert len(matches) == 6  # four teams, everyone meets everyone: 3 rounds of 2
    for match in matches:
        assert match.date is not None and match.start_time == demo.EVENING
        if match.round_number <= demo.PLAYED_ROUNDS:
            assert match.date < today and match.confirmed_at is not None
            # The confirmed result is the one the boards give, every board played to its end.
            outcome = selectors.match_outcome(match, rules)
            assert (match.home_score, match.away_score) == (
                outcome.home_score,
                outcome.away_score,
            )
            assert {b.game.status for b in match.boards.select_related("game")} == {"finished"}
        else:
            # Next Friday's, or tonight's when the demo is loaded on a Friday.
            assert match.date >= today and match.confirmed_at is None
            # Its lineups are not given yet: no board has its game.
            assert not LineupSlot.objects.filter(match=match).exists()
            assert not match.boards.filter(game__isnull=False).exists()


@pytest.mark.django_db
def test_the_palio_standings_add_up_the_confirmed_matches_and_the_page_shows_them(demo_output):
    competition = palio()
    rules = competition.team_rules
    rows = selectors.team_standings(competition)["standings"].rows
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    confirmed = TeamMatch.objects.filter(competition=competition, confirmed_at__isnull=False)
    for row in rows:
        expected = 0
        for match in confirmed.filter(home_id=row.team) | confirmed.filter(away_id=row.team):
            mine, theirs = (
                (match.home_score, match.away_score)
                if match.home_id == row.team
                else (match.away_score, match.home_score)
            )
            expected += (
                rules.win_points
                if mine > theirs
                else rules.draw_points
                if mine == theirs
                else rules.loss_points
            )
        assert row.match_points == expected
        assert row.played == demo.PLAYED_ROUNDS
    leader = Team.objects.get(pk=rows[0].team).name
    page = Client().get(reverse("public-team-standings", args=["circolo-demo", demo.SLUG]))
    assert page.status_code == 200
    assert leader in page.content.decode()


@pytest.mark.django_db
def test_loading_the_demo_again_keeps_the_palio(demo_output):
    before = (Team.objects.count(), TeamMatch.objects.count())
    again = load_demo()
    assert f"Kept the palio {demo.NAME}" in again
    assert (Team.objects.count(), TeamMatch.objects.count()) == before
