"""Terziglio: every worked and invalid example of docs/rules/terziglio.md, one row each."""

import pytest

from .games.terziglio import GAMES
from .helpers import assert_game, assert_invalid_hand, assert_invalid_options, assert_single_hand

KEY = "terziglio"

SINGLE_HANDS = [
    pytest.param(
        3,
        {},
        {
            "dealer": 0,
            "outcome": "played",
            "soloist": 0,
            "contract": "chiamo",
            "soloist_cards": {"aces": 2, "thirds": 7, "last_trick": True},
        },
        [-2, 1, 1],
        id="T1-cards-count-fails",
    ),
    pytest.param(
        3,
        {},
        {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "solo", "soloist_points": 8},
        [-2, 4, -2],
        id="T2-solo-made",
    ),
    pytest.param(
        3,
        {},
        {
            "dealer": 0,
            "outcome": "played",
            "soloist": 2,
            "contract": "solissimo",
            "soloist_points": 11,
        },
        [-12, -12, 24],
        id="T3-all-points",
    ),
    pytest.param(
        3,
        {},
        {
            "dealer": 0,
            "outcome": "played",
            "soloist": 0,
            "contract": "solo",
            "soloist_points": 11,
            "sweep": "soloist",
        },
        [24, -12, -12],
        id="T4-every-trick",
    ),
    pytest.param(
        3,
        {},
        {
            "dealer": 0,
            "outcome": "played",
            "soloist": 1,
            "contract": "scegliete",
            "soloist_points": 4,
        },
        [16, -32, 16],
        id="T5-scegliete-failed",
    ),
    pytest.param(
        3,
        {},
        {
            "dealer": 0,
            "outcome": "played",
            "soloist": 2,
            "contract": "dividete",
            "soloist_points": 0,
            "sweep": "opponents",
        },
        [48, 48, -96],
        id="T6-opponents-every-trick",
    ),
    pytest.param(
        3,
        {},
        {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "chiamo", "soloist_points": 0},
        [3, -6, 3],
        id="T7-opponents-all-points",
    ),
    pytest.param(
        4,
        {},
        {"dealer": 3, "outcome": "played", "soloist": 0, "contract": "chiamo", "soloist_points": 6},
        [2, -1, -1, 0],
        id="T8-four-seats-dealer-sits-out",
    ),
    pytest.param(
        4,
        {"sitting_out_dealer_pays": True},
        {"dealer": 3, "outcome": "played", "soloist": 0, "contract": "chiamo", "soloist_points": 6},
        [3, -1, -1, -1],
        id="T9-idle-dealer-pays",
    ),
    pytest.param(3, {}, {"dealer": 0, "outcome": "passed_out"}, [0, 0, 0], id="T10-passed-out"),
    pytest.param(
        3,
        {"preset": "traditional"},
        {
            "dealer": 0,
            "outcome": "played",
            "soloist": 2,
            "contract": "solissimo",
            "soloist_points": 11,
        },
        [-6, -6, 12],
        id="T11-traditional-all-points",
    ),
    pytest.param(
        3,
        {"preset": "traditional"},
        {
            "dealer": 0,
            "outcome": "played",
            "soloist": 0,
            "contract": "solo",
            "soloist_points": 11,
            "sweep": "soloist",
        },
        [8, -4, -4],
        id="T12-traditional-every-trick",
    ),
    pytest.param(
        3,
        {"stack_multipliers": False},
        {
            "dealer": 0,
            "outcome": "played",
            "soloist": 0,
            "contract": "solo",
            "soloist_points": 11,
            "sweep": "soloist",
        },
        [12, -6, -6],
        id="T13-no-stacking",
    ),
    pytest.param(
        3,
        {},
        {
            "dealer": 0,
            "outcome": "played",
            "soloist": 0,
            "contract": "scegliete",
            "soloist_cards": {"aces": 4, "thirds": 20, "last_trick": True},
            "sweep": "soloist",
        },
        [192, -96, -96],
        id="T14-largest-hand",
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
        3,
        {},
        [],
        {
            "dealer": 0,
            "outcome": "played",
            "soloist": 1,
            "contract": "solo",
            "soloist_points": 5,
            "sweep": "opponents",
        },
        "sweep",
        "inconsistent",
        id="X1-sweep-opponents-with-points",
    ),
    pytest.param(
        4,
        {},
        [],
        {"dealer": 3, "outcome": "played", "soloist": 3, "contract": "chiamo", "soloist_points": 6},
        "soloist",
        "sitting_out",
        id="X2-soloist-sits-out",
    ),
    pytest.param(
        3,
        {},
        [],
        {"dealer": 0, "outcome": "passed_out", "soloist": 1},
        "soloist",
        "not_allowed",
        id="X3-passed-out-with-soloist",
    ),
    pytest.param(
        3,
        {},
        [
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 0,
                "contract": "chiamo",
                "soloist_points": 7,
            }
        ],
        {"dealer": 2, "outcome": "played", "soloist": 1, "contract": "solo", "soloist_points": 8},
        "dealer",
        "wrong_dealer",
        id="X4-dealer-out-of-turn",
    ),
    pytest.param(
        3,
        {},
        [],
        {
            "dealer": 0,
            "outcome": "played",
            "soloist": 0,
            "contract": "solo",
            "soloist_points": 8,
            "bonus": 2,
        },
        "bonus",
        "unknown_key",
        id="X5-unknown-key",
    ),
]


@pytest.mark.parametrize(("players", "options", "earlier", "hand", "field", "code"), INVALID_HANDS)
def test_invalid_hand_is_rejected_with_field_and_code(players, options, earlier, hand, field, code):
    assert_invalid_hand(KEY, players, options, earlier, hand, field, code)


INVALID_OPTIONS = [
    pytest.param(3, {"target_score": 0}, "options.target_score", "range", id="XO1"),
    pytest.param(
        3,
        {"contract_values": {"chiamo": 1, "solo": 2}},
        "options.contract_values.solissimo",
        "required",
        id="XO2",
    ),
    pytest.param(5, {}, "players", "range", id="XO3"),
]


@pytest.mark.parametrize(("players", "options", "field", "code"), INVALID_OPTIONS)
def test_invalid_options_are_rejected(players, options, field, code):
    assert_invalid_options(KEY, players, options, field, code)
