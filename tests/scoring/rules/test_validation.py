"""Validation rules of each game beyond the spec's invalid examples: one row per rule of the
games' validation tables, each named after the rule it checks (V-numbers of the game files)."""

import pytest

from scoring.rules import RuleViolation, engine

from .helpers import errors, new_game

T = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "solo"}
K = {"dealer": 0, "outcome": "played", "soloist": 1}
C = {"dealer": 0, "outcome": "played", "caller": 1, "partner": 2}


def cards_left(*entries):
    return [dict(zip(("seat", "court", "tens", "other"), e, strict=True)) for e in entries]


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
    # Turkish
    pytest.param(
        "turkish",
        4,
        {"dealer": 0, "cards_left": []},
        "went_out",
        "required",
        id="U-V3-went-out-required",
    ),
    pytest.param(
        "turkish", 4, {"dealer": 0, "went_out": 1}, "cards_left", "required", id="U-V4-neither-form"
    ),
    pytest.param(
        "turkish",
        4,
        {"dealer": 0, "went_out": 1, "cards_left": [], "penalties": []},
        "penalties",
        "conflict",
        id="U-V4-both-forms",
    ),
    pytest.param(
        "turkish",
        4,
        {"dealer": 0, "went_out": 1, "penalties": {"seat": 0}},
        "penalties",
        "type",
        id="U-V4-not-a-list",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": [5, {"seat": 2, "court": 0, "tens": 0, "other": 1}],
        },
        "cards_left[0]",
        "type",
        id="U-V5-entry-not-an-object",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": [
                {"court": 1, "tens": 0, "other": 0},
                {"seat": 2, "court": 0, "tens": 0, "other": 1},
            ],
        },
        "cards_left[0].seat",
        "required",
        id="U-V5-seat-required",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": cards_left((0, 1, 0, 0), (1, 0, 0, 1), (2, 1, 0, 0)),
        },
        "cards_left[0].seat",
        "not_allowed",
        id="U-V5-entry-for-the-seat-out",
    ),
    pytest.param(
        "turkish",
        3,
        {"dealer": 0, "went_out": 0, "cards_left": cards_left((1, 1, 0, 0), (1, 0, 0, 1))},
        "cards_left[1].seat",
        "duplicate_seat",
        id="U-V5-duplicate-seat",
    ),
    pytest.param(
        "turkish",
        3,
        {"dealer": 0, "went_out": 0, "cards_left": cards_left((1, 17, 0, 0), (2, 0, 0, 1))},
        "cards_left[0].court",
        "range",
        id="U-V7-court-range",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": [
                {"seat": 1, "court": 1, "tens": 0},
                {"seat": 2, "court": 0, "tens": 0, "other": 1},
            ],
        },
        "cards_left[0].other",
        "required",
        id="U-V7-count-required",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": [
                {"seat": 1, "court": 1, "tens": 0, "other": 0, "aces": 1},
                {"seat": 2, "court": 0, "tens": 0, "other": 1},
            ],
        },
        "cards_left[0].aces",
        "unknown_key",
        id="U-V1-unknown-entry-key",
    ),
    pytest.param(
        "turkish",
        8,
        {
            "dealer": 0,
            "went_out": 0,
            "cards_left": cards_left(*[(s, 5, 1, 10) for s in range(1, 8)]),
        },
        "cards_left",
        "exceeds_pack",
        id="U-V9-more-cards-than-in-play",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 0}, {"seat": 2, "points": 5}],
        },
        "penalties[0].points",
        "range",
        id="U-V10-below-one-card",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 425}, {"seat": 2, "points": 5}],
        },
        "penalties[0].points",
        "range",
        id="U-V10-above-the-pack",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 400}, {"seat": 2, "points": 100}],
        },
        "penalties",
        "exceeds_pack",
        id="U-V12-sum-over-the-pack",
    ),
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
    # The rules of the validation tables that no row above names
    pytest.param(
        "terziglio",
        3,
        {"dealer": 0, "outcome": "passed_out", "bid": "solo"},
        "bid",
        "unknown_key",
        id="T-V1-unknown-key",
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
    pytest.param(
        "turkish",
        3,
        {"went_out": 0, "penalties": [{"seat": 1, "points": 5}, {"seat": 2, "points": 5}]},
        "dealer",
        "required",
        id="U-V2-dealer-required",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 3,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 5}, {"seat": 2, "points": 5}],
        },
        "dealer",
        "not_a_seat",
        id="U-V2-dealer-not-a-seat",
    ),
    pytest.param(
        "turkish",
        4,
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 5}, {"seat": 2, "points": 5}],
        },
        "penalties",
        "missing_seat",
        id="U-V6-missing-seat-quick-entry",
    ),
    pytest.param(
        "turkish",
        3,
        {"dealer": 0, "went_out": 0, "cards_left": cards_left((1, 0, 0, 1), (2, 0, 0, 0))},
        "cards_left[1]",
        "no_cards",
        id="U-V8-loser-without-cards",
    ),
    pytest.param(
        "turkish",
        3,
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 7}, {"seat": 2, "points": 5}],
        },
        "penalties[0].points",
        "not_multiple",
        id="U-V11-not-a-multiple-of-5",
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


def test_turkish_missing_entries_are_named_by_seat():
    with pytest.raises(RuleViolation) as caught:
        engine.play(
            new_game("turkish", 5),
            {"dealer": 0, "went_out": 0, "penalties": [{"seat": 2, "points": 5}]},
        )
    (problem,) = caught.value.problems
    assert (problem.field, problem.code, problem.params["seats"]) == (
        "penalties",
        "missing_seat",
        (1, 3, 4),
    )


def test_turkish_two_packs_allow_more_cards():
    game = engine.play(
        new_game("turkish", 6),
        {"dealer": 0, "went_out": 0, "penalties": [{"seat": s, "points": 5} for s in range(1, 6)]},
    )
    assert game.totals == (0, 5, 5, 5, 5, 5)


def test_turkish_custom_values_change_the_smallest_penalty_and_its_step():
    game = new_game("turkish", 3, {"values": {"court": 10, "ten": 20, "other": 4}})
    with pytest.raises(RuleViolation) as caught:
        engine.play(
            game,
            {
                "dealer": 0,
                "went_out": 0,
                "penalties": [{"seat": 1, "points": 3}, {"seat": 2, "points": 5}],
            },
        )
    assert errors(caught.value) == {
        ("penalties[0].points", "range"),
        ("penalties[1].points", "not_multiple"),
    }
    assert engine.play(
        game,
        {
            "dealer": 0,
            "went_out": 0,
            "penalties": [{"seat": 1, "points": 4}, {"seat": 2, "points": 6}],
        },
    ).totals == (0, 4, 6)


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


def test_terziglio_sitting_out_dealer_pays_has_no_effect_with_three_seats():
    game = new_game("terziglio", 3, {"sitting_out_dealer_pays": True})
    assert engine.play(game, dict(T, soloist_points=8)).totals == (-2, 4, -2)


def test_terziglio_max_hands_ends_the_game_whatever_the_totals():
    game = new_game("terziglio", 3, {"max_hands": 1})
    game = engine.play(game, {"dealer": 0, "outcome": "passed_out"})
    assert game.finished
    assert [p.place for p in game.ranking] == [1, 1, 1]


def test_briscola_over_60_lets_a_side_over_60_win_among_three():
    game = new_game("briscola", 3, {"individual_win_rule": "over_60"})
    assert engine.play(game, {"dealer": 0, "points": [20, 70, 30]}).totals == (0, 1, 0)
