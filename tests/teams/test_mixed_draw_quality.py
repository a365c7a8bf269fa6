"""Team events at mixed tables on the organizer's round page (issue 32 leftovers): the draw's
quality panel counts the tables that seat two team-mates and says whether the tables forced it,
and a swap's preview warns of the team-mates it would seat together (the swap stays possible)."""

from __future__ import annotations

import re

import pytest

from scoring import services as scoring
from scoring.services import Actor
from teams.services import teams
from tests.clients import login
from tests.teams.mixed_helpers import mixed_event, team_of_entries
from tests.tournaments.helpers import make_competition, tables_of
from tournaments import presenters, services
from tournaments.models import Round

pytestmark = pytest.mark.django_db

GROUPS = [("Castello", [1, 2, 3, 4, 5]), ("Borgo", [6, 7, 8]), ("Duomo", [9, 10, 11])]


def test_no_team_mates_at_one_table_is_said_with_none_forced():
    line = presenters.team_mates_line(GROUPS[1:], [(6, 9, 12), (7, 10, 13), (8, 11, 14)])
    assert line["text"] == "Team-mates at one table: 0 (none forced)"
    assert line["good"] and line["count"] == 0


def test_team_mates_the_tables_force_together_are_named_with_the_team():
    # Castello has 5 players for 4 tables: one table must seat two of them.
    tables = [(1, 6, 9, 12), (2, 7, 10, 13), (3, 8, 11, 14), (4, 5, 15, 16)]
    line = presenters.team_mates_line(GROUPS, tables)
    assert line["text"] == (
        "Team-mates at one table: 1 (forced: team Castello has 5 players for 4 tables)"
    )
    assert line["good"] and line["forced"] == 1


def test_team_mates_together_beyond_what_the_tables_force_are_not_good():
    tables = [(1, 2, 9, 12), (3, 7, 10, 13), (6, 8, 11, 14), (4, 5, 15, 16)]  # Borgo together too
    line = presenters.team_mates_line(GROUPS, tables)
    assert line["count"] == 3 and line["forced"] == 1 and not line["good"]
    assert "(only 1 forced: team Castello has 5 players for 4 tables)" in line["text"]
    apart = presenters.team_mates_line(GROUPS[1:], [(6, 7, 9), (8, 10, 12), (11, 13, 14)])
    assert apart["text"] == (
        "Team-mates at one table: 1 (none forced: the tables leave room to seat every team apart)"
    )
    assert not apart["good"]


def test_a_competition_of_individuals_has_no_team_mates_line():
    assert presenters.team_mates_line([], [(1, 2, 3)]) is None


def quality_line(html: str) -> str:
    found = re.search(r'data-quality="team-mates">([^<]*)<', html)
    assert found, "no team-mates line in the draw-quality panel"
    return found.group(1)


def test_the_round_page_shows_team_mates_kept_apart(club, olga):
    competition, _teams = mixed_event(club, olga, game="terziglio", size=3, format="swiss")
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    html = login(olga).get(f"/c/{club.slug}/k/{competition.slug}/rounds/1/").content.decode()
    assert quality_line(html) == "Team-mates at one table: 0 (none forced)"


def borgo_palio_drawn(club, olga):
    """9 players at 3 tables of Terziglio, Borgo's 5 among them (two tables must seat two of
    them): the palio and its first round, drawn."""
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name="Palio", format="swiss", table_size=3,
                                   min_table_size=3, max_table_size=3)  # fmt: skip
    teams.set_team_rules(competition=competition, by=by, kind="mixed_tables", lots_seed="palio")
    for name, size in (("Borgo", 5), ("Castello", 2), ("Duomo", 2)):
        players = [scoring.new_player(club, f"{name} {i}") for i in range(1, size + 1)]
        teams.add_team(competition=competition, name=name, by=by, players=players)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    return competition, round_


def test_the_round_page_names_the_team_that_has_more_players_than_tables(club, olga):
    # 9 players at 3 tables of Terziglio: Borgo's 5 cannot sit apart, two tables seat two.
    competition, _round = borgo_palio_drawn(club, olga)
    html = login(olga).get(f"/c/{club.slug}/k/{competition.slug}/rounds/1/").content.decode()
    assert quality_line(html) == (
        "Team-mates at one table: 2 (forced: team Borgo has 5 players for 3 tables)"
    )
    assert 'class="quality-team-mates good"' in html


def test_team_mates_forced_together_are_not_counted_as_repeated_meetings(club, olga):
    # The draw keeps team-mates apart by weighing them as past meetings; the round's figures
    # count the meetings played only: a first round has none ("No pair meets more than 11
    # times" was printed when two of Borgo's five sat together).
    _competition, round_ = borgo_palio_drawn(club, olga)
    round_.refresh_from_db()
    assert round_.metrics["repeated_pairs"] == 0
    assert round_.metrics["max_meetings"] <= 1


def test_an_individual_competition_shows_no_team_mates_line(club, olga):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, slug="coppa")
    for name in ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"):
        services.add_entry(competition=competition, player=name, by=by)
    services.generate_round(round_=services.add_round(competition=competition, by=by), by=by)
    html = login(olga).get(f"/c/{club.slug}/k/coppa/rounds/1/").content.decode()
    assert 'id="quality"' in html and 'data-quality="team-mates"' not in html


def swap_seating_team_mates(competition, round_: Round) -> tuple[int, int, str]:
    """``a`` at table 1 and ``b`` at table 2 such that swapping them seats ``b`` beside a
    team-mate at table 1 (who is not ``a``)."""
    team_of = team_of_entries(competition)
    first, second = tables_of(round_)[:2]
    for b in second:
        for a in first:
            others = [e for e in first if e != a]
            if team_of[b] in {team_of[e] for e in others} and team_of[a] != team_of[b]:
                return a, b, team_of[b]
    raise AssertionError("no such swap")


def test_a_swap_preview_warns_of_team_mates_it_seats_together_and_the_swap_stays_possible(
    club, olga
):
    competition, _teams = mixed_event(club, olga, game="terziglio", size=3, format="swiss")
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    a, b, team = swap_seating_team_mates(competition, round_)
    names = {e.pk: e.name for e in competition.entries.all()}
    mate = next(
        e for e in tables_of(round_)[0] if e != a and team_of_entries(competition)[e] == team
    )
    client = login(olga)
    url = f"/c/{club.slug}/k/{competition.slug}/rounds/1/"
    response = client.post(url, {"action": "swap_preview", "a": a, "b": b})
    assert response.status_code == 200
    box = response.content.decode().split('id="swap-preview"', 1)[1].split("</form>", 1)[0]
    pair = " and ".join(sorted((names[b], names[mate])))
    assert f"{pair} are both {team}" in box
    assert 'data-swap="team-mates"' in box and "Confirm the swap" in box
    before = tables_of(round_)
    assert client.post(url, {"action": "swap", "a": a, "b": b}).status_code == 302
    assert tables_of(round_) != before  # the organizer decided: the swap is made
    after = client.get(url).content.decode()
    assert quality_line(after).startswith("Team-mates at one table: ")
    assert quality_line(after) != "Team-mates at one table: 0 (none forced)"


def test_a_swap_preview_of_players_of_other_teams_warns_of_nothing(club, olga):
    competition, _teams = mixed_event(club, olga, game="terziglio", size=3, format="swiss")
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    team_of = team_of_entries(competition)
    first, second = tables_of(round_)[:2]
    a, b = next(
        (a, b)
        for a in first
        for b in second
        if team_of[a] == team_of[b]  # team-mates changing places stay apart
    )
    response = login(olga).post(
        f"/c/{club.slug}/k/{competition.slug}/rounds/1/", {"action": "swap_preview", "a": a, "b": b}
    )
    box = response.content.decode().split('id="swap-preview"', 1)[1].split("</form>", 1)[0]
    assert 'data-swap="team-mates"' not in box and "are both" not in box
