"""Team events at mixed tables, one per game of three players or more: the draw seats no two
team-mates at a table, and the team standings add up the members' results with the tie-breaks
of ``teams.standings.mixed`` (``docs/team-standings.md``, "Teams at mixed tables")."""

from __future__ import annotations

import pytest

from teams import selectors as team_selectors
from tests.teams.mixed_helpers import mixed_event, play_round, team_mates_together
from tests.tournaments.helpers import terziglio_in_order

pytestmark = pytest.mark.django_db


def standings_of(competition):
    data = team_selectors.mixed_team_standings(competition)
    name = data["team_name"]
    return [
        (row.rank, name[row.team], row.total, row.decided_by) for row in data["standings"].rows
    ], data


def test_terziglio_four_teams_of_three_over_three_rounds_the_worked_example(club, olga):
    competition, _teams = mixed_event(
        club, olga, game="terziglio", size=3, format="rotation", planned_rounds=3
    )
    orders = [
        ["Borgo", "Castello", "Duomo", "Porta"],
        ["Duomo", "Borgo", "Castello", "Porta"],
        ["Castello", "Duomo", "Porta", "Borgo"],
    ]
    for number in (1, 2, 3):
        tables = play_round(competition, olga, orders, terziglio_in_order, number)
        assert len(tables) == 4 and all(len(t) == 3 for t in tables)
        assert team_mates_together(tables) == 0, tables
    rows, data = standings_of(competition)
    # Placement points 4/2/0: a round's first team 12, second 8, third 4, last 0.
    assert rows == [
        (1, "Castello", 24, "avulsa"),
        (2, "Duomo", 24, "avulsa"),
        (3, "Borgo", 20, None),
        (4, "Porta", 4, None),
    ]
    (mini,) = data["standings"].mini_tables
    by_name = {data["team_name"][t]: p for t, p in mini.points}
    # Castello and Duomo share two tables a round: 6 duels, Castello ahead in rounds 1 and 3.
    assert (by_name, mini.matches) == ({"Castello": 8, "Duomo": 4}, 6)
