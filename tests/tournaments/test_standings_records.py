"""Standings recomputed from plain game results: the records in and out, and the results
rejected."""

import dataclasses
from fractions import Fraction

import pytest

from tournaments.standings import Result, compute

from .standings_helpers import ANNA, BRUNO, CARLA, DARIO, duel, game

# --------------------------------------------------------------------------------------------
# Records and validation
# --------------------------------------------------------------------------------------------


def test_records_in_and_out_are_frozen_and_rows_hashable():
    table = compute(duel(1, ANNA, BRUNO))
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.rows[0].points = Fraction(99)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.rows = ()  # type: ignore[misc]
    assert len({*table.rows}) == 2


def test_looking_up_an_entrant_not_in_the_standings_raises_key_error():
    with pytest.raises(KeyError):
        compute(duel(1, ANNA, BRUNO)).row(CARLA)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"competitors": 1, "place": 1}, "at least 2 competitors"),
        ({"place": 0}, "place 0 is not between 1 and 2"),
        ({"place": 3}, "place 3 is not between 1 and 2"),
        ({"opponents": (ANNA,)}, "its own opponent"),
        ({"opponents": (BRUNO, CARLA)}, "2 opponents at a table of 2"),
    ],
)
def test_an_impossible_result_is_rejected(fields, message):
    base = {"entrant": ANNA, "game": 1, "group": 1, "place": 1, "competitors": 2, "score": 0}
    with pytest.raises(ValueError, match=message):
        Result(**{**base, **fields})


@pytest.mark.parametrize(
    ("results", "message"),
    [
        (
            game(1, {ANNA: 1, BRUNO: 2}) + game(1, {CARLA: 1, DARIO: 2}),
            "4 results at a table of 2",
        ),
        (
            game(1, {ANNA: 1, BRUNO: 2, CARLA: 3})[:2] + game(1, {ANNA: 1, BRUNO: 2, CARLA: 3})[:1],
            "more than one result",
        ),
        (  # Anna at a table of two, Bruno at a table of three
            game(1, {ANNA: 1, BRUNO: 2})[:1] + game(1, {ANNA: 1, BRUNO: 2, CARLA: 3})[1:2],
            "disagree",
        ),
        (  # the same game in two club nights
            game(1, {ANNA: 1, BRUNO: 2}, group=1)[:1] + game(1, {ANNA: 1, BRUNO: 2}, group=2)[1:],
            "disagree",
        ),
        (  # Turkish for one, not for the other
            game(1, {ANNA: 1, BRUNO: 2})[:1] + game(1, {ANNA: 1, BRUNO: 2}, lowest_wins=True)[1:],
            "disagree",
        ),
        (game(1, {ANNA: 1, BRUNO: 3, CARLA: 3}), "2 entrants share place 3"),
    ],
)
def test_results_of_one_game_that_contradict_each_other_are_rejected(results, message):
    with pytest.raises(ValueError, match=message):
        compute(results)
