"""Standings recomputed from plain game results: the league options (best of, minimum
attendance), adjustments and corrections.

Every expected table below is worked out by hand in the comments next to it. Entrants are named
for readability; their ids order the display of entrants sharing a rank.
"""

import dataclasses
from fractions import Fraction

import pytest

from tournaments.standings import Adjustment, compute

from .standings_helpers import (
    ANNA,
    BRUNO,
    CARLA,
    DARIO,
    ELENA,
    FRANCO,
    duel,
    game,
    order,
    played,
    points,
    ranks,
)

# --------------------------------------------------------------------------------------------
# League options
# --------------------------------------------------------------------------------------------

# Three club nights, one table of four each (3/2/1/0):
# night 1: Bruno 3, Anna 2, Carla 1, Dario 0
# night 2: Bruno 3, Anna 2, Dario 1, Carla 0
# night 3: Carla 3, Anna 2, Dario 1, Bruno 0
# Totals: Anna 2 + 2 + 2 = 6, Bruno 3 + 3 + 0 = 6, Carla 1 + 0 + 3 = 4, Dario 0 + 1 + 1 = 2.
NIGHTS = played(
    game(1, {BRUNO: 1, ANNA: 2, CARLA: 3, DARIO: 4}, group=1),
    game(2, {BRUNO: 1, ANNA: 2, DARIO: 3, CARLA: 4}, group=2),
    game(3, {CARLA: 1, ANNA: 2, DARIO: 3, BRUNO: 4}, group=3),
)


def test_every_group_counts_without_best_of():
    table = compute(NIGHTS, tie_breaks=("wins",))
    # Anna and Bruno 6: Bruno has 2 wins, Anna none.
    assert order(table) == [BRUNO, ANNA, CARLA, DARIO]
    assert points(table) == {ANNA: 6, BRUNO: 6, CARLA: 4, DARIO: 2}
    assert all(row.counted_groups == (1, 2, 3) for row in table.rows)
    assert all(row.groups_played == 3 for row in table.rows)


def test_best_of_counts_only_each_entrants_best_groups():
    # Best 2 of 3: Anna 2 + 2 = 4 (all nights equal: the earliest two count),
    # Bruno 3 + 3 = 6, Carla 3 + 1 = 4 (nights 1 and 3), Dario 1 + 1 = 2 (nights 2 and 3).
    # Anna and Carla tied on 4: Carla has a win (night 3), Anna none.
    table = compute(NIGHTS, best_of=2, tie_breaks=("wins",))
    assert points(table) == {ANNA: 4, BRUNO: 6, CARLA: 4, DARIO: 2}
    assert order(table) == [BRUNO, CARLA, ANNA, DARIO]
    counted = {row.entrant: row.counted_groups for row in table.rows}
    assert counted == {ANNA: (1, 2), BRUNO: (1, 2), CARLA: (1, 3), DARIO: (2, 3)}
    # Attendance, games and statistics still cover every night.
    assert table.row(ANNA).groups_played == 3
    assert table.row(BRUNO).games_played == 3


def test_best_of_more_than_the_groups_played_counts_them_all():
    table = compute(NIGHTS, best_of=5)
    assert points(table) == {ANNA: 6, BRUNO: 6, CARLA: 4, DARIO: 2}


def test_best_of_breaks_ties_between_groups_that_cannot_be_compared_by_their_repr():
    # Groups "night-a" and 2 cannot be sorted together; by repr "'night-a'" comes before "2".
    results = played(duel(1, ANNA, BRUNO, group=2), duel(2, ANNA, BRUNO, group="night-a"))
    table = compute(results, best_of=1)
    assert table.row(ANNA).counted_groups == ("night-a",)
    assert table.row(ANNA).points == 2
    assert compute(results).row(ANNA).counted_groups == ("night-a", 2)


def test_best_of_must_be_positive():
    with pytest.raises(ValueError, match="best_of must be at least 1"):
        compute(NIGHTS, best_of=0)


def test_entrants_below_the_minimum_attendance_are_listed_last_unranked():
    # Elena plays twice on night 1 only, beating Franco both times: 4 points, more than Dario,
    # but one night is below the minimum of two.
    results = NIGHTS + played(duel(4, ELENA, FRANCO), duel(5, ELENA, FRANCO))
    table = compute(results, min_groups=2, tie_breaks=("wins",))
    assert order(table) == [BRUNO, ANNA, CARLA, DARIO, ELENA, FRANCO]
    assert [row.rank for row in table.rows] == [1, 2, 3, 4, None, None]
    assert [row.ranked for row in table.rows] == [True, True, True, True, False, False]
    assert table.row(ELENA).points == 4
    assert table.row(ELENA).groups_played == 1


def test_minimum_attendance_cannot_be_negative():
    with pytest.raises(ValueError, match="min_groups cannot be negative"):
        compute(NIGHTS, min_groups=-1)


def test_listed_entrants_without_results_appear_with_nothing():
    table = compute(duel(1, ANNA, BRUNO), entrants=[CARLA, ANNA])
    row = table.row(CARLA)
    assert (row.points, row.games_played, row.groups_played, row.wins) == (0, 0, 0, 0)
    assert row.counted_groups == ()
    assert row.values == {"points": 0, "wins": 0, "opponents_strength": 0}
    # Bruno lost his duel: 0 points and no win, like Carla; but his opponent Anna has
    # 2 points (opponents' strength 2 against Carla's 0), so Bruno is ahead.
    assert order(table) == [ANNA, BRUNO, CARLA]
    assert ranks(table) == {ANNA: 1, BRUNO: 2, CARLA: 3}


def test_entrants_without_results_are_unranked_when_attendance_is_required():
    table = compute(duel(1, ANNA, BRUNO), entrants=[CARLA], min_groups=1)
    assert ranks(table) == {ANNA: 1, BRUNO: 2, CARLA: None}


# --------------------------------------------------------------------------------------------
# Adjustments
# --------------------------------------------------------------------------------------------


def test_adjustments_are_added_on_top_of_the_schemes_points():
    # Duels: Anna beats Bruno (2), Bruno beats Carla (2).
    # The organizer gives Carla 2 for a forfeit, takes 1 from Bruno, and gives Anna 1/2 twice.
    # Anna 2 + 1/2 + 1/2 = 3, Bruno 2 - 1 = 1, Carla 0 + 2 = 2.
    results = played(duel(1, ANNA, BRUNO), duel(2, BRUNO, CARLA))
    adjustments = [
        Adjustment(CARLA, 1, 2, "forfeit: Dario did not show"),
        Adjustment(BRUNO, 1, -1, "late"),
        Adjustment(ANNA, 1, Fraction(1, 2), "fair play"),
        Adjustment(ANNA, 2, Fraction(1, 2), "fair play"),
    ]
    table = compute(results, adjustments=adjustments)
    assert points(table) == {ANNA: 3, BRUNO: 1, CARLA: 2}
    assert order(table) == [ANNA, CARLA, BRUNO]
    # Adjustments are not games: Carla still played one game.
    assert table.row(CARLA).games_played == 1


def test_an_adjustment_alone_puts_an_entrant_in_the_standings():
    table = compute([], adjustments=[Adjustment(DARIO, "night 1", 3, "forfeit")])
    assert [(row.entrant, row.points, row.games_played) for row in table.rows] == [(DARIO, 3, 0)]


def test_adjustments_are_never_dropped_by_best_of():
    # Best 2 of 3 gives Dario 2 (test above); a 1-point penalty on night 2 still counts.
    table = compute(NIGHTS, best_of=2, adjustments=[Adjustment(DARIO, 2, -1, "penalty")])
    assert table.row(DARIO).points == 1


# --------------------------------------------------------------------------------------------
# Corrections
# --------------------------------------------------------------------------------------------


def test_a_corrected_result_flows_through_to_the_standings():
    # g1 Anna beats Carla, g2 Anna beats Bruno, g3 Bruno beats Carla: Anna 4, Bruno 2, Carla 0.
    # Game 2 was entered wrongly: the corrected sheet says Bruno won it. Anna 2, Bruno 4.
    wrong = played(duel(1, ANNA, CARLA), duel(2, ANNA, BRUNO), duel(3, BRUNO, CARLA))
    before = compute(wrong)
    assert ranks(before) == {ANNA: 1, BRUNO: 2, CARLA: 3}

    corrected = [
        dataclasses.replace(r, place=2 if r.entrant == ANNA else 1) if r.game == 2 else r
        for r in wrong
    ]
    after = compute(corrected)
    assert points(after) == {ANNA: 2, BRUNO: 4, CARLA: 0}
    assert ranks(after) == {BRUNO: 1, ANNA: 2, CARLA: 3}
    # Carla's opponents' strength follows too: Anna + Bruno = 4 + 2 before, 2 + 4 after.
    assert before.row(CARLA).values["opponents_strength"] == 6
    assert after.row(CARLA).values["opponents_strength"] == 6
    assert before.row(ANNA).values["opponents_strength"] == 2  # Carla 0 + Bruno 2
    assert after.row(ANNA).values["opponents_strength"] == 4  # Carla 0 + Bruno 4
