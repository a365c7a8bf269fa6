"""Validation of Briscola and Briscola chiamata (scoring/rules/briscola.py, briscola_chiamata.py):
one row per rule of their validation tables, named after the rule it checks (B- and C-
V-numbers of the game files), the bid levels and the options that change a hand's result."""

import pytest

from scoring.rules import RuleViolation, engine

from .helpers import errors, new_game

C = {"dealer": 0, "outcome": "played", "caller": 1, "partner": 2}


INVALID = [
    # Briscola
    pytest.param("briscola", 2, {"dealer": 0}, "points", "required", id="B-V3-points-required"),
    pytest.param(
        "briscola",
        2,
        {"dealer": 0, "points": "67-53"},
        "points",
        "type",
        id="B-V3-points-not-a-list",
    ),
    pytest.param(
        "briscola", 2, {"points": [67, 53]}, "dealer", "required", id="B-V2-dealer-required"
    ),
    pytest.param(
        "briscola",
        2,
        {"dealer": 0, "points": [60, 60], "trump": "cups"},
        "trump",
        "unknown_key",
        id="B-V1-unknown-key",
    ),
    pytest.param(
        "briscola", 2, {"dealer": 0, "points": [60, "60"]}, "points[1]", "type", id="B-V4-type"
    ),
    pytest.param(
        "briscola", 3, {"dealer": 0, "points": [121, 0, 0]}, "points[0]", "range", id="B-V4-range"
    ),
    pytest.param(
        "briscola",
        3,
        {"dealer": 0, "points": [0, 119, 1]},
        "points[2]",
        "impossible",
        id="B-V5-one-point",
    ),
    pytest.param("briscola", 2, {"dealer": 0, "points": [60, 50]}, "points", "sum", id="B-V6-sum"),
    # Briscola chiamata
    pytest.param(
        "briscola_chiamata", 5, dict(C), "caller_points", "required", id="C-V8-points-required"
    ),
    pytest.param(
        "briscola_chiamata",
        5,
        dict(C, caller_points=121),
        "caller_points",
        "range",
        id="C-V8-points-range",
    ),
    pytest.param(
        "briscola_chiamata",
        5,
        dict(C, caller_points=1),
        "caller_points",
        "impossible",
        id="C-V9-one-point",
    ),
    pytest.param(
        "briscola_chiamata",
        5,
        {"dealer": 0, "outcome": "played", "caller": 1, "caller_points": 70},
        "partner",
        "required",
        id="C-V6-partner-required",
    ),
    pytest.param(
        "briscola_chiamata",
        6,
        {"dealer": 2, "outcome": "played", "caller": 2, "partner": 1, "caller_points": 70},
        "caller",
        "sitting_out",
        id="C-V5-caller-sits-out",
    ),
    pytest.param(
        "briscola_chiamata",
        5,
        {"dealer": 0, "outcome": "passed_out", "target": 61},
        "target",
        "not_allowed",
        id="C-V4-target-on-passed-out",
    ),
    pytest.param(
        "briscola_chiamata",
        5,
        {"dealer": 0, "outcome": "folded"},
        "outcome",
        "choice",
        id="C-V3-outcome-choice",
    ),
    pytest.param(
        "briscola_chiamata",
        5,
        dict(C, caller_points=70, bonus=1),
        "bonus",
        "unknown_key",
        id="C-V1-unknown-key",
    ),
    pytest.param(
        "briscola_chiamata",
        5,
        {"dealer": 5, "outcome": "passed_out"},
        "dealer",
        "not_a_seat",
        id="C-V2-dealer-not-a-seat",
    ),
    pytest.param(
        "briscola_chiamata",
        5,
        dict(C, target=121, caller_points=70),
        "target",
        "range",
        id="C-V7-target-over-120",
    ),
]


@pytest.mark.parametrize(("key", "players", "document", "field", "code"), INVALID)
def test_invalid_hand_names_the_field_and_the_rule(key, players, document, field, code):
    with pytest.raises(RuleViolation) as caught:
        engine.play(new_game(key, players), document)
    assert (field, code) in errors(caught.value)


def test_chiamata_bid_levels():
    from scoring.rules.briscola_chiamata import bid_level

    assert [bid_level(t) for t in (61, 70, 71, 80, 81, 91, 100, 101, 120)] == [
        1,
        1,
        2,
        2,
        3,
        4,
        4,
        5,
        5,
    ]


def test_chiamata_sixty_is_a_draw_only_against_target_61():
    game = new_game("briscola_chiamata", 5, {"sixty_is_draw": True})
    hand = dict(C, target=65, caller_points=60)
    assert engine.play(game, hand).totals == (1, -2, -1, 1, 1)


def test_chiamata_alone_caller_units_option():
    game = new_game("briscola_chiamata", 5, {"alone_caller_units": 3})
    assert engine.play(game, dict(C, partner=1, caller_points=70)).totals == (-1, 3, -1, -1, -1)


def test_briscola_over_60_lets_a_side_over_60_win_among_three():
    game = new_game("briscola", 3, {"individual_win_rule": "over_60"})
    assert engine.play(game, {"dealer": 0, "points": [20, 70, 30]}).totals == (0, 1, 0)
