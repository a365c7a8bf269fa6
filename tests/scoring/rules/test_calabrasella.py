"""Calabrasella: every worked and invalid example of docs/rules/calabrasella.md, one row each."""

import pytest

from .games.calabrasella import GAMES
from .helpers import assert_game, assert_invalid_hand, assert_invalid_options, assert_single_hand

KEY = "calabrasella"

SINGLE_HANDS = [
    pytest.param(
        3,
        {},
        {
            "dealer": 0,
            "outcome": "played",
            "soloist": 0,
            "soloist_cards": {"aces": 3, "counters": 9, "last_trick": True},
        },
        [14, -7, -7],
        id="K1-cards-count",
    ),
    pytest.param(
        3,
        {},
        {"dealer": 0, "outcome": "played", "soloist": 1, "soloist_points": 15},
        [5, -10, 5],
        id="K2-soloist-loses",
    ),
    pytest.param(
        3,
        {},
        {"dealer": 0, "outcome": "played", "soloist": 2, "soloist_points": 18},
        [-1, -1, 2],
        id="K3-smallest-win",
    ),
    pytest.param(
        3,
        {},
        {"dealer": 0, "outcome": "played", "soloist": 0, "soloist_points": 35},
        [70, -35, -35],
        id="K4-all-points-not-every-trick",
    ),
    pytest.param(
        3,
        {},
        {"dealer": 0, "outcome": "played", "soloist": 0, "soloist_points": 35, "sweep": "soloist"},
        [140, -70, -70],
        id="K5-every-trick",
    ),
    pytest.param(
        3,
        {},
        {"dealer": 0, "outcome": "played", "soloist": 1, "soloist_points": 0, "sweep": "opponents"},
        [70, -140, 70],
        id="K6-no-trick",
    ),
    pytest.param(
        4,
        {},
        {"dealer": 3, "outcome": "played", "soloist": 0, "soloist_points": 21},
        [14, -7, -7, 0],
        id="K7-four-seats-dealer-sits-out",
    ),
    pytest.param(
        4,
        {"sitting_out_dealer_pays": True},
        {"dealer": 3, "outcome": "played", "soloist": 0, "soloist_points": 21},
        [21, -7, -7, -7],
        id="K8-idle-dealer-pays",
    ),
    pytest.param(
        3,
        {"sweep_payment": 50},
        {"dealer": 0, "outcome": "played", "soloist": 0, "soloist_points": 35, "sweep": "soloist"},
        [100, -50, -50],
        id="K9-smaller-sweep-payment",
    ),
    pytest.param(3, {}, {"dealer": 0, "outcome": "passed_out"}, [0, 0, 0], id="K10-passed-out"),
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
        3,
        {},
        [],
        {"dealer": 0, "outcome": "played", "soloist": 0, "soloist_points": 36},
        "soloist_points",
        "range",
        id="X1-points-over-35",
    ),
    pytest.param(
        3,
        {},
        [],
        {"dealer": 0, "outcome": "played", "soloist": 0, "soloist_points": 34, "sweep": "soloist"},
        "sweep",
        "inconsistent",
        id="X2-sweep-without-all-points",
    ),
    pytest.param(
        4,
        {},
        [],
        {"dealer": 2, "outcome": "played", "soloist": 2, "soloist_points": 20},
        "soloist",
        "sitting_out",
        id="X3-soloist-sits-out",
    ),
    pytest.param(
        3,
        {},
        [],
        {"dealer": 0, "outcome": "played", "soloist": 0, "soloist_points": 20, "contract": "solo"},
        "contract",
        "unknown_key",
        id="X4-no-contracts",
    ),
    pytest.param(
        3,
        {},
        [],
        {"dealer": 0, "outcome": "played", "soloist": 1},
        "soloist_points",
        "required",
        id="X5-no-points",
    ),
]


@pytest.mark.parametrize(("players", "options", "earlier", "hand", "field", "code"), INVALID_HANDS)
def test_invalid_hand_is_rejected_with_field_and_code(players, options, earlier, hand, field, code):
    assert_invalid_hand(KEY, players, options, earlier, hand, field, code)


INVALID_OPTIONS = [
    pytest.param(3, {"deals": 0}, "options.deals", "range", id="XO1"),
    pytest.param(3, {"sweep_payment": "70"}, "options.sweep_payment", "type", id="XO2"),
    pytest.param(2, {}, "players", "range", id="XO3"),
]


@pytest.mark.parametrize(("players", "options", "field", "code"), INVALID_OPTIONS)
def test_invalid_options_are_rejected(players, options, field, code):
    assert_invalid_options(KEY, players, options, field, code)
