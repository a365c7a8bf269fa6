"""Validation every game shares, decided by the engine (scoring/rules/engine.py): no hand after
the end of a game, and every problem of a hand reported at once. Each game's own rules:
test_validation_soloist.py, test_validation_turkish.py, test_validation_briscola.py."""

import pytest

from scoring.rules import RuleViolation, engine

from .helpers import errors, new_game

#: A game of each ruleset that ends at its first hand, that hand, and a hand that would follow.
FINISHED_AFTER_ONE = [
    pytest.param(
        "terziglio",
        3,
        {"max_hands": 1},
        {"dealer": 0, "outcome": "passed_out"},
        {"dealer": 1, "outcome": "passed_out"},
        id="T-V13-game-finished",
    ),
    pytest.param(
        "calabrasella",
        3,
        {"deals": 1},
        {"dealer": 0, "outcome": "passed_out"},
        {"dealer": 1, "outcome": "passed_out"},
        id="K-V12-game-finished",
    ),
    pytest.param(
        "turkish",
        3,
        {"deals": 1},
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 5}, {"seat": 2, "points": 10}],
        },
        {
            "dealer": 1,
            "went_out": 1,
            "penalties": [{"seat": 0, "points": 5}, {"seat": 2, "points": 10}],
        },
        id="U-V13-game-finished",
    ),
    pytest.param(
        "briscola",
        2,
        {"hands_to_win": 1},
        {"dealer": 0, "points": [70, 50]},
        {"dealer": 1, "points": [70, 50]},
        id="B-V7-game-finished",
    ),
    pytest.param(
        "briscola_chiamata",
        5,
        {"deals": 1},
        {"dealer": 0, "outcome": "passed_out"},
        {"dealer": 1, "outcome": "passed_out"},
        id="C-V10-game-finished",
    ),
]


@pytest.mark.parametrize(("key", "players", "options", "last", "after"), FINISHED_AFTER_ONE)
def test_a_hand_after_the_end_of_the_game_is_refused(key, players, options, last, after):
    game = engine.play(new_game(key, players, options), last)
    assert game.finished
    with pytest.raises(RuleViolation) as caught:
        engine.play(game, after)
    assert errors(caught.value) == {("game", "game_finished")}
    assert {p.hand for p in caught.value.problems} == {2}


def test_every_problem_of_a_hand_is_reported_at_once():
    document = {
        "dealer": 9,
        "outcome": "played",
        "soloist": 7,
        "contract": "tutto",
        "soloist_points": 12,
        "x": 1,
    }
    with pytest.raises(RuleViolation) as caught:
        engine.play(new_game("terziglio", 3), document)
    assert errors(caught.value) == {
        ("x", "unknown_key"),
        ("dealer", "not_a_seat"),
        ("soloist", "not_a_seat"),
        ("contract", "choice"),
        ("soloist_points", "range"),
    }
