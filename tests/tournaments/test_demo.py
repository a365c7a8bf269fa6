"""``manage.py loaddemo`` gives the demo club a finished tournament and a running league (see
``tournaments.demo``), built through the services and left alone when loaded again."""

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.models import Game, Hand
from tests.demo_loading import load_demo
from tournaments import demo, selectors
from tournaments.models import (
    CheckIn,
    Competition,
    CompetitionEvent,
    Entry,
    Round,
    RoundStatus,
    Table,
)


def games_of(round_: Round) -> list[Game]:
    return [table.game for table in round_.tables.select_related("game")]


def counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Competition, Entry, Round, CheckIn, Table, Game, Hand, CompetitionEvent)
    }


@pytest.mark.django_db
def test_the_tournament_is_over_every_game_played_and_its_standings_final(demo_output):
    assert f"Created the tournament {demo.TOURNAMENT_NAME}" in demo_output
    tournament = Competition.objects.get(slug=demo.TOURNAMENT_SLUG, club__slug="circolo-demo")
    assert (tournament.kind, tournament.rulesets, tournament.public) == (
        "tournament",
        ["terziglio"],
        True,
    )
    assert tournament.finalized_at is not None
    rounds = list(tournament.rounds.order_by("number"))
    assert len(rounds) == demo.TOURNAMENT_ROUNDS
    entries = tournament.entries.count()
    for round_ in rounds:
        assert round_.status == RoundStatus.CLOSED
        assert round_.date < timezone.localdate()
        games = games_of(round_)
        assert {g.status for g in games} == {"finished"}
        assert {g.n for g in games} <= {3, 4}
        assert sum(g.n for g in games) == entries  # everybody plays every round
    (overall,) = selectors.standings_of(tournament)["tables"]
    rows = overall["rows"]
    assert len(rows) == entries
    ranks = [row["rank"] for row in rows]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    assert all(row["ranked"] and row["games"] == demo.TOURNAMENT_ROUNDS for row in rows)
    assert rows[0]["points"] > rows[-1]["points"]


@pytest.mark.django_db
def test_the_league_has_closed_nights_one_under_way_and_one_to_draw(demo_output):
    assert f"Created the league {demo.LEAGUE_NAME}" in demo_output
    league = Competition.objects.get(slug=demo.LEAGUE_SLUG, club__slug="circolo-demo")
    assert (league.kind, league.format, league.public) == ("league", "club_night", True)
    assert set(league.rulesets) == {"briscola", "terziglio"}
    today = timezone.localdate()
    rounds = list(league.rounds.order_by("number"))
    closed = [r for r in rounds if r.status == RoundStatus.CLOSED]
    (tonight,) = [r for r in rounds if r.status == RoundStatus.PUBLISHED]
    (next_night,) = [r for r in rounds if r.status == RoundStatus.DRAFT]
    assert rounds == [*closed, tonight, next_night]
    assert len(closed) >= 2 and {r.ruleset for r in closed} == {"briscola", "terziglio"}
    entries = league.entries.count()
    for night in closed:
        assert night.date < today
        # Only those who came that night were seated.
        present = night.check_ins.count()
        assert 0 < present < entries
        assert sum(g.n for g in games_of(night)) == present
        assert {g.status for g in games_of(night)} == {"finished"}
    assert tonight.date == today
    statuses = [g.status for g in games_of(tonight)]
    assert "finished" in statuses and "in_progress" in statuses
    assert all(g.hand_count > 0 for g in games_of(tonight))
    assert next_night.date > today and not next_night.tables.exists()
    standings = selectors.standings_of(league)["tables"]
    assert [t["key"] for t in standings] == ["overall", *league.rulesets]
    assert standings[0]["rows"][0]["rank"] == 1 and standings[0]["rows"][0]["points"] > 0


@pytest.mark.django_db
def test_loading_the_demo_again_leaves_the_competitions_alone(demo_output):
    before = counts()
    again = load_demo()
    assert f"Kept the tournament {demo.TOURNAMENT_NAME}" in again
    assert f"Kept the league {demo.LEAGUE_NAME}" in again
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("slug", [demo.TOURNAMENT_SLUG, demo.LEAGUE_SLUG])
def test_anyone_may_follow_the_demo_competitions_and_their_standings(demo_output, client, slug):
    competition = Competition.objects.get(slug=slug)
    leader = selectors.standings_of(competition)["tables"][0]["rows"][0]["name"]
    for name in ("public-competition", "public-standings"):
        response = client.get(reverse(name, args=["circolo-demo", slug]))
        assert response.status_code == 200, name
        assert leader in response.content.decode()
