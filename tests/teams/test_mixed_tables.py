"""Team events at mixed tables, one per game of three players or more: the draw seats no two
team-mates at a table, and the team standings add up the members' results with the tie-breaks
of ``teams.standings.mixed`` (``docs/team-standings.md``, "Teams at mixed tables")."""

from __future__ import annotations

import pytest

from teams import selectors as team_selectors
from teams.standings.teams import lot
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


def by_lots(data, names):
    """``names`` in the order the drawing of lots seeded "palio" puts them."""
    ids = {n: t for t, n in data["team_name"].items()}
    ticket = {t: i for i, t in enumerate(sorted(data["team_name"]), start=1)}
    return sorted(names, key=lambda n: -lot("palio", ticket[ids[n]]))


def calabrasella_won_by(order):
    """One deal: the best placed plays and makes 25 of 35 (each of the two pays 15)."""
    return [{"dealer": 0, "outcome": "played", "soloist": order[0], "soloist_points": 25}]


def test_calabrasella_game_points_added_up_and_a_tie_left_to_the_drawing_of_lots(club, olga):
    competition, _teams = mixed_event(
        club,
        olga,
        game="calabrasella",
        size=3,
        format="rotation",
        planned_rounds=3,
        scheme="game_score",
        options={"calabrasella": {"deals": 1}},
    )
    orders = [["Borgo", "Castello", "Duomo", "Porta"]] * 3
    for number in (1, 2, 3):
        tables = play_round(competition, olga, orders, calabrasella_won_by, number)
        assert team_mates_together(tables) == 0, tables
    rows, data = standings_of(competition)
    # A round: Borgo plays and wins at its 3 tables (+90); Castello wins the table without
    # Borgo and pays at two (0); Duomo and Porta pay at their three (-45).
    assert rows[:2] == [(1, "Borgo", 270, None), (2, "Castello", 0, None)]
    # Duomo and Porta: level, their duels all drawn (both pay), no table won: the lots.
    assert [r[1:] for r in rows[2:]] == [
        (name, -135, "lots") for name in by_lots(data, ["Duomo", "Porta"])
    ]
    assert data["standings"].mini_tables[0].points[0][1] == 6  # 6 drawn duels: 1 each


def turkish_in_order(order):
    """One deal: the best placed goes out, the others pay 10 and 20 penalty points."""
    return [
        {
            "dealer": 0,
            "went_out": order[0],
            "penalties": [{"seat": order[1], "points": 10}, {"seat": order[2], "points": 20}],
        }
    ]


def test_turkish_the_lowest_team_total_of_penalty_points_wins(club, olga):
    competition, _teams = mixed_event(
        club,
        olga,
        game="turkish",
        size=3,
        format="rotation",
        planned_rounds=3,
        scheme="game_score",
        options={"turkish": {"deals": 1}},
    )
    orders = [
        ["Borgo", "Castello", "Duomo", "Porta"],
        ["Castello", "Borgo", "Duomo", "Porta"],
        ["Borgo", "Castello", "Porta", "Duomo"],
    ]
    for number in (1, 2, 3):
        tables = play_round(competition, olga, orders, turkish_in_order, number)
        assert team_mates_together(tables) == 0, tables
    rows, data = standings_of(competition)
    # A round: first team 0, second 20 (out once, 10 twice), third 40, last 60.
    assert rows == [
        (1, "Borgo", 20, None),
        (2, "Castello", 40, None),
        (3, "Duomo", 140, None),
        (4, "Porta", 160, None),
    ]
    assert data["standings"].lowest_wins


def chiamata_in_order(order):
    """One deal: the best placed calls the second as partner and makes 68 of 120."""
    return [
        {
            "dealer": 0,
            "outcome": "played",
            "caller": order[0],
            "partner": order[1],
            "caller_points": 68,
        }
    ]


def test_briscola_chiamata_five_teams_of_two_one_of_each_team_at_every_table(club, olga):
    competition, _teams = mixed_event(
        club,
        olga,
        game="briscola_chiamata",
        size=5,
        count=5,
        per_team=2,
        format="rotation",
        planned_rounds=2,
        options={"briscola_chiamata": {"deals": 1}},
    )
    orders = [
        ["Borgo", "Castello", "Duomo", "Porta", "Rione"],
        ["Duomo", "Borgo", "Castello", "Porta", "Rione"],
    ]
    for number in (1, 2):
        tables = play_round(competition, olga, orders, chiamata_in_order, number)
        assert [sorted(t) for t in tables] == [sorted(orders[0])] * 2
    rows, data = standings_of(competition)
    # Placement points 4/3/2/1/0: the caller 4, the partner 3, three defenders share 1 each.
    assert rows[:3] == [
        (1, "Borgo", 14, None),
        (2, "Duomo", 10, None),
        (3, "Castello", 8, None),
    ]
    assert [r[1:] for r in rows[3:]] == [
        (name, 4, "lots") for name in by_lots(data, ["Porta", "Rione"])
    ]
