"""Briscola chiamata: every worked and invalid example of docs/rules/briscola_chiamata.md, one row each."""

import pytest

from .games.briscola_chiamata import GAMES
from .helpers import assert_game, assert_invalid_hand, assert_invalid_options, assert_single_hand

KEY = "briscola_chiamata"

SINGLE_HANDS = [
    pytest.param(
        5,
        {},
        {"dealer": 0, "outcome": "played", "caller": 0, "partner": 2, "caller_points": 68},
        [2, -1, 1, -1, -1],
        id="C1-made",
    ),
    pytest.param(
        5,
        {},
        {
            "dealer": 0,
            "outcome": "played",
            "caller": 1,
            "partner": 4,
            "target": 75,
            "caller_points": 72,
        },
        [1, -2, 1, 1, -1],
        id="C2-failed-raised-target",
    ),
    pytest.param(
        5,
        {"bid_level_multiplier": True},
        {
            "dealer": 0,
            "outcome": "played",
            "caller": 1,
            "partner": 4,
            "target": 75,
            "caller_points": 72,
        },
        [2, -4, 2, 2, -2],
        id="C3-bid-level",
    ),
    pytest.param(
        5,
        {},
        {"dealer": 0, "outcome": "played", "caller": 3, "partner": 3, "caller_points": 80},
        [-1, -1, -1, 4, -1],
        id="C4-alone-made",
    ),
    pytest.param(
        5,
        {},
        {"dealer": 0, "outcome": "played", "caller": 2, "partner": 0, "caller_points": 120},
        [2, -2, 4, -2, -2],
        id="C5-cappotto-made",
    ),
    pytest.param(
        5,
        {},
        {"dealer": 0, "outcome": "played", "caller": 4, "partner": 1, "caller_points": 0},
        [2, -2, 2, 2, -4],
        id="C6-cappotto-failed",
    ),
    pytest.param(
        5,
        {},
        {"dealer": 0, "outcome": "played", "caller": 0, "partner": 1, "caller_points": 60},
        [-2, -1, 1, 1, 1],
        id="C7-sixty-fails",
    ),
    pytest.param(
        5,
        {"sixty_is_draw": True},
        {"dealer": 0, "outcome": "played", "caller": 0, "partner": 1, "caller_points": 60},
        [0, 0, 0, 0, 0],
        id="C8-sixty-is-draw",
    ),
    pytest.param(
        5,
        {"bid_level_multiplier": True},
        {
            "dealer": 0,
            "outcome": "played",
            "caller": 2,
            "partner": 0,
            "target": 85,
            "caller_points": 90,
        },
        [3, -3, 6, -3, -3],
        id="C9-bid-level-3",
    ),
    pytest.param(
        6,
        {},
        {"dealer": 5, "outcome": "played", "caller": 0, "partner": 3, "caller_points": 70},
        [2, -1, -1, 1, -1, 0],
        id="C10-six-seats-dealer-sits-out",
    ),
    pytest.param(
        5,
        {},
        {"dealer": 0, "outcome": "played", "caller": 1, "partner": 1, "caller_points": 120},
        [-2, 8, -2, -2, -2],
        id="C11-alone-cappotto",
    ),
    pytest.param(
        5, {}, {"dealer": 0, "outcome": "passed_out"}, [0, 0, 0, 0, 0], id="C12-thrown-in"
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
        5,
        {},
        [],
        {"dealer": 0, "outcome": "played", "caller": 0, "partner": 2, "caller_points": 119},
        "caller_points",
        "impossible",
        id="X1-impossible-points",
    ),
    pytest.param(
        5,
        {},
        [],
        {
            "dealer": 0,
            "outcome": "played",
            "caller": 0,
            "partner": 2,
            "target": 60,
            "caller_points": 70,
        },
        "target",
        "range",
        id="X2-target-too-low",
    ),
    pytest.param(
        6,
        {},
        [],
        {"dealer": 5, "outcome": "played", "caller": 0, "partner": 5, "caller_points": 70},
        "partner",
        "sitting_out",
        id="X3-partner-sits-out",
    ),
    pytest.param(
        5,
        {},
        [],
        {"dealer": 0, "outcome": "played", "caller": 5, "partner": 2, "caller_points": 70},
        "caller",
        "not_a_seat",
        id="X4-caller-not-a-seat",
    ),
    pytest.param(
        5,
        {},
        [{"dealer": 0, "outcome": "played", "caller": 0, "partner": 2, "caller_points": 68}],
        {"dealer": 0, "outcome": "played", "caller": 1, "partner": 2, "caller_points": 68},
        "dealer",
        "wrong_dealer",
        id="X5-dealer-out-of-turn",
    ),
]


@pytest.mark.parametrize(("players", "options", "earlier", "hand", "field", "code"), INVALID_HANDS)
def test_invalid_hand_is_rejected_with_field_and_code(players, options, earlier, hand, field, code):
    assert_invalid_hand(KEY, players, options, earlier, hand, field, code)


INVALID_OPTIONS = [
    pytest.param(7, {}, "players", "range", id="XO1"),
    pytest.param(5, {"deals": 0}, "options.deals", "range", id="XO2"),
    pytest.param(5, {"cappotto_multiplier": 0}, "options.cappotto_multiplier", "range", id="XO3"),
]


@pytest.mark.parametrize(("players", "options", "field", "code"), INVALID_OPTIONS)
def test_invalid_options_are_rejected(players, options, field, code):
    assert_invalid_options(KEY, players, options, field, code)
