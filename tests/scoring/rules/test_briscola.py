"""Briscola (and famiglia Prini): every worked and invalid example of docs/rules/briscola.md, one row each."""

import pytest

from .games.briscola import GAMES
from .helpers import assert_game, assert_invalid_hand, assert_invalid_options, assert_single_hand

KEY = "briscola"

SINGLE_HANDS = [
    pytest.param(2, {}, {"dealer": 0, "points": [67, 53]}, [1, 0], id="B1-two-players"),
    pytest.param(2, {}, {"dealer": 0, "points": [60, 60]}, [0, 0], id="B2-sixty-all-drawn"),
    pytest.param(4, {}, {"dealer": 0, "points": [45, 75]}, [0, 1, 0, 1], id="B3-pairs"),
    pytest.param(
        3, {}, {"dealer": 0, "points": [52, 41, 27]}, [1, 0, 0], id="B4-three-highest-wins"
    ),
    pytest.param(
        3,
        {"individual_win_rule": "over_60"},
        {"dealer": 0, "points": [52, 41, 27]},
        [0, 0, 0],
        id="B5-over-60-nobody",
    ),
    pytest.param(3, {}, {"dealer": 0, "points": [48, 48, 24]}, [0, 0, 0], id="B6-tie-at-top-drawn"),
    pytest.param(
        5, {}, {"dealer": 0, "points": [30, 25, 25, 20, 20]}, [1, 0, 0, 0, 0], id="B7-five-players"
    ),
    pytest.param(
        4,
        {"format": "singles"},
        {"dealer": 0, "points": [40, 30, 30, 20]},
        [1, 0, 0, 0],
        id="B8-four-singles",
    ),
    pytest.param(
        2, {"variant": "famiglia_prini"}, {"dealer": 0, "points": [64, 56]}, [1, 0], id="B9-prini"
    ),
    pytest.param(
        4,
        {"variant": "famiglia_prini"},
        {"dealer": 0, "points": [60, 60]},
        [0, 0, 0, 0],
        id="B10-prini-pairs-drawn",
    ),
]


@pytest.mark.parametrize(("players", "options", "hand", "deltas"), SINGLE_HANDS)
def test_worked_example_gives_the_listed_deltas(players, options, hand, deltas):
    assert_single_hand(KEY, players, options, hand, deltas)


@pytest.mark.parametrize(("players", "options", "hands", "ranking", "card_points"), GAMES)
def test_complete_game_runs_hand_by_hand_to_the_listed_result(
    players, options, hands, ranking, card_points
):
    assert_game(KEY, players, options, hands, ranking, card_points)


INVALID_HANDS = [
    pytest.param(
        2,
        {},
        [],
        {"dealer": 0, "points": [119, 1]},
        "points[0]",
        "impossible",
        id="X1-impossible-points",
    ),
    pytest.param(
        3, {}, [], {"dealer": 0, "points": [50, 40, 20]}, "points", "sum", id="X2-wrong-sum"
    ),
    pytest.param(
        4,
        {},
        [],
        {"dealer": 0, "points": [40, 30, 30, 20]},
        "points",
        "length",
        id="X3-pairs-length",
    ),
    pytest.param(
        2, {}, [], {"dealer": 0, "points": [130, -10]}, "points[0]", "range", id="X4-out-of-range"
    ),
    pytest.param(
        2,
        {},
        [],
        {"dealer": 0, "points": [67, 53], "winner": 0},
        "winner",
        "unknown_key",
        id="X5-winner-key",
    ),
]


@pytest.mark.parametrize(("players", "options", "earlier", "hand", "field", "code"), INVALID_HANDS)
def test_invalid_hand_is_rejected_with_field_and_code(players, options, earlier, hand, field, code):
    assert_invalid_hand(KEY, players, options, earlier, hand, field, code)


INVALID_OPTIONS = [
    pytest.param(3, {"format": "pairs"}, "options.format", "inconsistent", id="XO1"),
    pytest.param(2, {"hands_to_win": 0}, "options.hands_to_win", "range", id="XO2"),
    pytest.param(2, {"variant": "prini"}, "options.variant", "choice", id="XO3"),
]


@pytest.mark.parametrize(("players", "options", "field", "code"), INVALID_OPTIONS)
def test_invalid_options_are_rejected(players, options, field, code):
    assert_invalid_options(KEY, players, options, field, code)
