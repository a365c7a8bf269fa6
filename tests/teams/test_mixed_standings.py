"""The pure standings of teams at mixed tables (``teams.standings.mixed``): totals, the lowest
total first when the lowest wins, the classifica avulsa of the duels at shared tables and its
recomputation among a sub-group still level, the tables won, the lots."""

from __future__ import annotations

import pytest

from teams.standings import mixed
from teams.standings.mixed import Seat

# Teams 1, 2, 3 of two members each (entrants 11, 12; 21, 22; 31, 32), team 4 of one (41).
MEMBERS = {1: [11, 12], 2: [21, 22], 3: [31, 32], 4: [41]}


def ranks(standings):
    return [(row.team, row.rank, row.decided_by) for row in standings.rows]


def test_a_three_way_tie_split_by_the_avulsa_then_recomputed_between_the_two_still_level():
    scores = {11: 5, 12: 5, 21: 5, 22: 5, 31: 6, 32: 4, 41: 1}
    seats = [
        # Game 1: team 3 ahead of team 1, team 1 ahead of team 2 (their head to head).
        Seat(1, 31, 1), Seat(1, 11, 2), Seat(1, 21, 3),
        # Game 2: team 2 ahead of team 3 (team 4 is not level: its duels do not count).
        Seat(2, 22, 1), Seat(2, 32, 2), Seat(2, 41, 3),
    ]  # fmt: skip
    standings = mixed.compute(MEMBERS, scores, seats)
    assert ranks(standings) == [(3, 1, "avulsa"), (1, 2, "avulsa"), (2, 3, "avulsa"), (4, 4, None)]
    first, second = standings.mini_tables
    # Level 1, the three level on 10: team 3 won 2 duels (4), teams 1 and 2 one each (2).
    assert (first.level, dict(first.points), first.matches) == (1, {3: 4, 1: 2, 2: 2}, 4)
    # Level 2, teams 1 and 2 still level: only the duel between them (game 1).
    assert (second.level, dict(second.points), second.matches) == (2, {1: 2, 2: 0}, 1)


def test_the_lowest_total_first_when_the_lowest_wins():
    standings = mixed.compute({1: [11], 2: [21]}, {11: 30, 21: 10}, [], lowest_wins=True)
    assert [(row.team, row.total) for row in standings.rows] == [(2, 10), (1, 30)]
    assert standings.row(2).members == ((21, 10),)


def test_teams_that_never_shared_a_table_go_to_the_tables_won_then_the_lots():
    seats = [Seat(1, 11, 1), Seat(1, 41, 2), Seat(2, 21, 2), Seat(2, 41, 1)]
    standings = mixed.compute({1: [11], 2: [21], 4: [41]}, {11: 2, 21: 2, 41: 0}, seats)
    assert ranks(standings)[:2] == [(1, 1, "wins"), (2, 2, "wins")]
    level = mixed.compute({1: [11], 2: [21]}, {11: 2, 21: 2}, [], seed="s")
    assert {row.decided_by for row in level.rows} == {"lots"}
    assert level.rows[0].values["lots"] > level.rows[1].values["lots"]


def test_an_entrant_on_two_teams_is_a_bug():
    with pytest.raises(ValueError, match="two teams"):
        mixed.compute({1: [11], 2: [11]}, {}, [])


def test_a_player_on_no_team_sits_at_the_tables_but_counts_for_no_team():
    """An entrant of the competition on no team (entered alone, or taken off a roster) plays at
    the tables: neither its games nor its wins go to a team, and its duels count for none."""
    seats = [Seat(1, 99, 1), Seat(1, 11, 2), Seat(1, 21, 3)]
    standings = mixed.compute({1: [11], 2: [21]}, {11: 2, 21: 2, 99: 4}, seats)
    assert [(row.team, row.total, row.games, row.wins) for row in standings.rows] == [
        (1, 2, 1, 0),
        (2, 2, 1, 0),
    ]
    assert ranks(standings) == [(1, 1, "avulsa"), (2, 2, "avulsa")]  # their one duel
    assert standings.row(2).members == ((21, 2),)  # found past the first row
    with pytest.raises(KeyError):
        standings.row(99)
