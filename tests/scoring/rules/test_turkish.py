"""Turkish: every worked and invalid example of docs/rules/turkish.md, one row each."""

import pytest

from .games.turkish import GAMES
from .helpers import assert_game, assert_invalid_hand, assert_invalid_options, assert_single_hand

KEY = "turkish"

SINGLE_HANDS = [
    pytest.param(
        4,
        {},
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": [
                {"seat": 1, "court": 2, "tens": 1, "other": 3},
                {"seat": 2, "court": 0, "tens": 0, "other": 2},
                {"seat": 3, "court": 1, "tens": 1, "other": 4},
            ],
        },
        [0, 55, 10, 50],
        id="U1-cards-left",
    ),
    pytest.param(
        4,
        {},
        {
            "dealer": 1,
            "went_out": 1,
            "cards_left": [
                {"seat": 0, "court": 1, "tens": 1, "other": 1},
                {"seat": 2, "court": 1, "tens": 0, "other": 2},
                {"seat": 3, "court": 0, "tens": 0, "other": 3},
            ],
        },
        [35, 0, 20, 15],
        id="U2-cards-left-2",
    ),
    pytest.param(
        4,
        {},
        {
            "dealer": 2,
            "went_out": 2,
            "cards_left": [
                {"seat": 0, "court": 0, "tens": 0, "other": 1},
                {"seat": 1, "court": 0, "tens": 2, "other": 0},
                {"seat": 3, "court": 3, "tens": 1, "other": 4},
            ],
        },
        [5, 40, 0, 70],
        id="U3-cards-left-3",
    ),
    pytest.param(
        4,
        {},
        {
            "dealer": 3,
            "went_out": 0,
            "cards_left": [
                {"seat": 1, "court": 0, "tens": 1, "other": 1},
                {"seat": 2, "court": 3, "tens": 0, "other": 0},
                {"seat": 3, "court": 0, "tens": 0, "other": 2},
            ],
        },
        [0, 25, 30, 10],
        id="U4-cards-left-4",
    ),
    pytest.param(
        4,
        {"values": {"court": 10, "ten": 20, "other": 10}},
        {
            "dealer": 2,
            "went_out": 2,
            "cards_left": [
                {"seat": 0, "court": 0, "tens": 0, "other": 1},
                {"seat": 1, "court": 0, "tens": 2, "other": 0},
                {"seat": 3, "court": 3, "tens": 1, "other": 4},
            ],
        },
        [10, 40, 0, 90],
        id="U5-custom-values",
    ),
    pytest.param(
        6,
        {},
        {
            "dealer": 0,
            "went_out": 2,
            "cards_left": [
                {"seat": 0, "court": 2, "tens": 5, "other": 0},
                {"seat": 1, "court": 0, "tens": 0, "other": 1},
                {"seat": 3, "court": 1, "tens": 0, "other": 0},
                {"seat": 4, "court": 0, "tens": 1, "other": 2},
                {"seat": 5, "court": 0, "tens": 0, "other": 3},
            ],
        },
        [120, 5, 0, 10, 30, 15],
        id="U6-two-packs",
    ),
    pytest.param(
        4,
        {},
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [
                {"seat": 1, "points": 55},
                {"seat": 2, "points": 10},
                {"seat": 3, "points": 50},
            ],
        },
        [0, 55, 10, 50],
        id="U7-quick-entry",
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
        4,
        {},
        [],
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": [
                {"seat": 1, "court": 0, "tens": 3, "other": 0},
                {"seat": 2, "court": 0, "tens": 2, "other": 0},
                {"seat": 3, "court": 0, "tens": 0, "other": 1},
            ],
        },
        "cards_left",
        "exceeds_pack",
        id="X1-too-many-tens",
    ),
    pytest.param(
        4,
        {},
        [],
        {
            "dealer": 0,
            "went_out": 4,
            "cards_left": [
                {"seat": 1, "court": 0, "tens": 0, "other": 1},
                {"seat": 2, "court": 0, "tens": 0, "other": 1},
                {"seat": 3, "court": 0, "tens": 0, "other": 1},
            ],
        },
        "went_out",
        "not_a_seat",
        id="X2-went-out-not-a-seat",
    ),
    pytest.param(
        4,
        {},
        [],
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": [
                {"seat": 1, "court": 1, "tens": 0, "other": 0},
                {"seat": 2, "court": 0, "tens": 0, "other": 1},
            ],
        },
        "cards_left",
        "missing_seat",
        id="X3-missing-seat",
    ),
    pytest.param(
        4,
        {},
        [],
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": [
                {"seat": 1, "court": 0, "tens": 0, "other": 0},
                {"seat": 2, "court": 0, "tens": 0, "other": 1},
                {"seat": 3, "court": 0, "tens": 0, "other": 1},
            ],
        },
        "cards_left[0]",
        "no_cards",
        id="X4-loser-without-cards",
    ),
    pytest.param(
        4,
        {},
        [],
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [
                {"seat": 1, "points": 12},
                {"seat": 2, "points": 10},
                {"seat": 3, "points": 50},
            ],
        },
        "penalties[0].points",
        "not_multiple",
        id="X5-penalty-not-multiple",
    ),
]


@pytest.mark.parametrize(("players", "options", "earlier", "hand", "field", "code"), INVALID_HANDS)
def test_invalid_hand_is_rejected_with_field_and_code(players, options, earlier, hand, field, code):
    assert_invalid_hand(KEY, players, options, earlier, hand, field, code)


INVALID_OPTIONS = [
    pytest.param(4, {"packs": 3}, "options.packs", "range", id="XO1"),
    pytest.param(
        4,
        {"values": {"court": 10, "ten": 20, "other": 5, "ace": 10}},
        "options.values.ace",
        "unknown_key",
        id="XO2",
    ),
    pytest.param(9, {}, "players", "range", id="XO3"),
]


@pytest.mark.parametrize(("players", "options", "field", "code"), INVALID_OPTIONS)
def test_invalid_options_are_rejected(players, options, field, code):
    assert_invalid_options(KEY, players, options, field, code)
