"""Validation of the soloist games (scoring/rules/soloist.py, terziglio.py, calabrasella.py): one
row per rule of their validation tables, named after the rule it checks (T- and K- V-numbers of
the game files), and the options that change what a hand may be."""

import pytest

from scoring.rules import RuleViolation, engine

from .helpers import errors, new_game

T = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "solo"}
K = {"dealer": 0, "outcome": "played", "soloist": 1}


INVALID = [
    # Terziglio
    pytest.param(
        "terziglio", 3, {"outcome": "passed_out"}, "dealer", "required", id="T-V2-dealer-required"
    ),
    pytest.param(
        "terziglio",
        3,
        {"dealer": 3, "outcome": "passed_out"},
        "dealer",
        "not_a_seat",
        id="T-V2-dealer-not-a-seat",
    ),
    pytest.param("terziglio", 3, {"dealer": 0}, "outcome", "required", id="T-V3-outcome-required"),
    pytest.param(
        "terziglio",
        3,
        {"dealer": 0, "outcome": "won"},
        "outcome",
        "choice",
        id="T-V3-outcome-choice",
    ),
    pytest.param(
        "terziglio", 3, {"dealer": 0, "outcome": 1}, "outcome", "type", id="T-V3-outcome-type"
    ),
    pytest.param(
        "terziglio",
        3,
        {"dealer": 0, "outcome": "passed_out", "sweep": "none"},
        "sweep",
        "not_allowed",
        id="T-V4-sweep-on-passed-out",
    ),
    pytest.param(
        "terziglio",
        3,
        {"dealer": 0, "outcome": "played", "contract": "solo", "soloist_points": 6},
        "soloist",
        "required",
        id="T-V5-soloist-required",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist=-1, soloist_points=6),
        "soloist",
        "not_a_seat",
        id="T-V5-soloist-negative",
    ),
    pytest.param(
        "terziglio",
        3,
        {"dealer": 0, "outcome": "played", "soloist": 1, "soloist_points": 6},
        "contract",
        "required",
        id="T-V6-contract-required",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, contract="Solo", soloist_points=6),
        "contract",
        "choice",
        id="T-V6-contract-choice",
    ),
    pytest.param("terziglio", 3, T, "soloist_points", "required", id="T-V7-points-required"),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist_points=6, soloist_cards={"aces": 1, "thirds": 3, "last_trick": True}),
        "soloist_cards",
        "conflict",
        id="T-V7-both-forms",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist_points=-1),
        "soloist_points",
        "range",
        id="T-V8-points-range",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist_cards={"aces": 5, "thirds": 3, "last_trick": True}),
        "soloist_cards.aces",
        "range",
        id="T-V9-aces-range",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist_cards={"aces": 1, "thirds": 21, "last_trick": True}),
        "soloist_cards.thirds",
        "range",
        id="T-V9-thirds-range",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist_cards={"aces": 1, "thirds": 3}),
        "soloist_cards.last_trick",
        "required",
        id="T-V9-last-trick-required",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist_cards={"aces": 1, "thirds": 3, "last_trick": 1}),
        "soloist_cards.last_trick",
        "type",
        id="T-V9-last-trick-type",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist_cards={"aces": 1, "thirds": 3, "last_trick": True, "kings": 1}),
        "soloist_cards.kings",
        "unknown_key",
        id="T-V1-unknown-card-key",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist_cards=[1, 3, True]),
        "soloist_cards",
        "type",
        id="T-V9-cards-not-an-object",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist_points=6, sweep="all"),
        "sweep",
        "choice",
        id="T-V10-sweep-choice",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist_points=10, sweep="soloist"),
        "sweep",
        "inconsistent",
        id="T-V11-sweep-needs-11",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist_cards={"aces": 4, "thirds": 19, "last_trick": True}, sweep="soloist"),
        "sweep",
        "inconsistent",
        id="T-V11-sweep-needs-every-card",
    ),
    pytest.param(
        "terziglio",
        3,
        dict(T, soloist_cards={"aces": 0, "thirds": 2, "last_trick": False}, sweep="opponents"),
        "sweep",
        "inconsistent",
        id="T-V12-soloist-took-a-trick",
    ),
    pytest.param(
        "terziglio",
        3,
        {"dealer": 0, "outcome": "passed_out", "bid": "solo"},
        "bid",
        "unknown_key",
        id="T-V1-unknown-key",
    ),
    # Calabrasella
    pytest.param(
        "calabrasella",
        3,
        dict(K, soloist_cards={"aces": 1, "counters": 21, "last_trick": True}),
        "soloist_cards.counters",
        "range",
        id="K-V8-counters-range",
    ),
    pytest.param(
        "calabrasella",
        3,
        dict(K, soloist_points=1, sweep="opponents"),
        "sweep",
        "inconsistent",
        id="K-V11-sweep-needs-0",
    ),
    pytest.param(
        "calabrasella",
        3,
        {"dealer": 0, "outcome": "passed_out", "soloist_points": 3},
        "soloist_points",
        "not_allowed",
        id="K-V4-points-on-passed-out",
    ),
    pytest.param(
        "calabrasella",
        3,
        dict(K, soloist_points=20, trump="cups"),
        "trump",
        "unknown_key",
        id="K-V1-unknown-key",
    ),
    pytest.param(
        "calabrasella",
        3,
        dict(K, soloist_cards={"aces": 1, "counters": 3, "last_trick": True, "thirds": 1}),
        "soloist_cards.thirds",
        "unknown_key",
        id="K-V1-unknown-card-key",
    ),
    pytest.param(
        "calabrasella",
        3,
        {"outcome": "passed_out"},
        "dealer",
        "required",
        id="K-V2-dealer-required",
    ),
    pytest.param(
        "calabrasella",
        3,
        {"dealer": 3, "outcome": "passed_out"},
        "dealer",
        "not_a_seat",
        id="K-V2-dealer-not-a-seat",
    ),
    pytest.param(
        "calabrasella", 3, {"dealer": 0}, "outcome", "required", id="K-V3-outcome-required"
    ),
    pytest.param(
        "calabrasella",
        3,
        {"dealer": 0, "outcome": "won"},
        "outcome",
        "choice",
        id="K-V3-outcome-choice",
    ),
    pytest.param(
        "calabrasella",
        3,
        {"dealer": 0, "outcome": "played", "soloist_points": 20},
        "soloist",
        "required",
        id="K-V5-soloist-required",
    ),
    pytest.param(
        "calabrasella",
        3,
        dict(K, soloist=3, soloist_points=20),
        "soloist",
        "not_a_seat",
        id="K-V5-soloist-not-a-seat",
    ),
    pytest.param(
        "calabrasella",
        4,
        dict(K, dealer=1, soloist=1, soloist_points=20),
        "soloist",
        "sitting_out",
        id="K-V5-soloist-sits-out",
    ),
    pytest.param(
        "calabrasella",
        3,
        dict(K, soloist_points=20, soloist_cards={"aces": 2, "counters": 6, "last_trick": True}),
        "soloist_cards",
        "conflict",
        id="K-V6-both-forms",
    ),
    pytest.param(
        "calabrasella",
        3,
        dict(K, soloist_points=-1),
        "soloist_points",
        "range",
        id="K-V7-points-range",
    ),
    pytest.param(
        "calabrasella",
        3,
        dict(K, soloist_points=20, sweep="both"),
        "sweep",
        "choice",
        id="K-V9-sweep-choice",
    ),
    pytest.param(
        "calabrasella",
        3,
        dict(K, soloist_cards={"aces": 3, "counters": 20, "last_trick": True}, sweep="soloist"),
        "sweep",
        "inconsistent",
        id="K-V10-sweep-needs-every-card",
    ),
]


@pytest.mark.parametrize(("key", "players", "document", "field", "code"), INVALID)
def test_invalid_hand_names_the_field_and_the_rule(key, players, document, field, code):
    with pytest.raises(RuleViolation) as caught:
        engine.play(new_game(key, players), document)
    assert (field, code) in errors(caught.value)


def test_terziglio_sitting_out_dealer_pays_has_no_effect_with_three_seats():
    game = new_game("terziglio", 3, {"sitting_out_dealer_pays": True})
    assert engine.play(game, dict(T, soloist_points=8)).totals == (-2, 4, -2)


def test_terziglio_max_hands_ends_the_game_whatever_the_totals():
    game = new_game("terziglio", 3, {"max_hands": 1})
    game = engine.play(game, {"dealer": 0, "outcome": "passed_out"})
    assert game.finished
    assert [p.place for p in game.ranking] == [1, 1, 1]
