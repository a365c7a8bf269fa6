"""The contract every ruleset follows, checked over the whole registry, and the common rules of
docs/rules/README.md §2–5 (options, documents, types, rotation) that the game files do not repeat."""

import pytest

from scoring.rules import RULESETS, RuleViolation, engine, get
from scoring.rules.base import Problem, places

from .helpers import errors, new_game


def test_the_registry_holds_the_five_games_under_their_keys():
    assert list(RULESETS) == [
        "terziglio",
        "calabrasella",
        "turkish",
        "briscola",
        "briscola_chiamata",
    ]
    for key, rules in RULESETS.items():
        assert rules.key == key and get(key) is rules


@pytest.mark.parametrize("key", RULESETS)
def test_resolved_options_hold_every_key_with_a_concrete_value(key):
    rules = RULESETS[key]
    for n in range(rules.min_seats, rules.max_seats + 1):
        resolved = rules.resolve_options({}, n)
        assert set(resolved) == {option.key for option in rules.options}
        nullable_left = {k for k, v in resolved.items() if v is None}
        assert nullable_left <= {"max_hands"}  # the only null that means "no cap", not "automatic"
        assert rules.resolve_options(resolved, n) == resolved  # resolving twice changes nothing


@pytest.mark.parametrize("key", RULESETS)
def test_every_option_is_described_for_forms_and_the_api(key):
    described = RULESETS[key].describe_options()
    assert [d["key"] for d in described] == [o.key for o in RULESETS[key].options]
    for d in described:
        assert d["type"] in {"integer", "boolean", "choice", "object"}
        assert "default" in d and "nullable" in d


@pytest.mark.parametrize("key", RULESETS)
def test_seat_counts_outside_the_range_are_rejected(key):
    rules = RULESETS[key]
    for n in (rules.min_seats - 1, rules.max_seats + 1, True):
        with pytest.raises(RuleViolation) as caught:
            rules.resolve_options({}, n)
        assert ("players", "range") in errors(caught.value)


def test_readme_example_calabrasella_options_are_stored_resolved():
    stored = get("calabrasella").resolve_options({"sweep_payment": 50}, 4)
    assert stored == {
        "deals": 12,
        "sweep_payment": 50,
        "sitting_out_dealer_pays": False,
        "free_dealer": False,
    }


def test_automatic_values_depend_on_the_number_of_seats():
    assert get("calabrasella").resolve_options(None, 3)["deals"] == 9
    assert get("turkish").resolve_options({}, 5) | {} == {
        "deals": 10,
        "values": {"court": 10, "ten": 20, "other": 5},
        "packs": 1,
        "free_dealer": False,
    }
    assert get("turkish").resolve_options({}, 6)["packs"] == 2
    assert get("turkish").resolve_options({"packs": 1, "deals": 4}, 6)["packs"] == 1
    assert get("briscola").resolve_options({}, 4)["format"] == "pairs"
    assert get("briscola").resolve_options({}, 3)["format"] == "singles"
    assert get("briscola_chiamata").resolve_options({}, 6)["deals"] == 12


def test_a_preset_is_copied_and_explicit_options_override_it():
    stored = get("terziglio").resolve_options(
        {"preset": "traditional", "all_points_multiplier": 5}, 3
    )
    assert "preset" not in stored
    assert stored["contract_values"]["solissimo"] == 3
    assert stored["all_tricks_multiplier"] == 1
    assert stored["all_points_multiplier"] == 5
    assert get("terziglio").resolve_options({"preset": "standard"}, 3) == get(
        "terziglio"
    ).resolve_options({}, 3)


@pytest.mark.parametrize(
    ("key", "options", "field", "code"),
    [
        pytest.param(
            "terziglio", {"preset": "modern"}, "options.preset", "choice", id="unknown-preset"
        ),
        pytest.param(
            "terziglio", {"preset": 1}, "options.preset", "choice", id="preset-not-a-string"
        ),
        pytest.param(
            "calabrasella", {"preset": "standard"}, "options.preset", "unknown_key", id="no-presets"
        ),
        pytest.param(
            "terziglio", {"contract_values": 5}, "options.contract_values", "type", id="object-type"
        ),
        pytest.param(
            "terziglio",
            {
                "contract_values": {
                    "chiamo": 1,
                    "solo": 2,
                    "solissimo": 4,
                    "dividete": 8,
                    "scegliete": 0,
                }
            },
            "options.contract_values.scegliete",
            "range",
            id="object-value-range",
        ),
        pytest.param(
            "turkish",
            {"values": {"court": 10, "ten": 20, "other": 5, "ace": 1}},
            "options.values.ace",
            "unknown_key",
            id="object-unknown-key",
        ),
        pytest.param(
            "terziglio",
            {"stack_multipliers": 1},
            "options.stack_multipliers",
            "type",
            id="bool-type",
        ),
        pytest.param(
            "terziglio", {"tie_at_target": 2}, "options.tie_at_target", "type", id="choice-type"
        ),
        pytest.param(
            "terziglio",
            {"tie_at_target": "Shared"},
            "options.tie_at_target",
            "choice",
            id="choice-case",
        ),
        pytest.param(
            "terziglio",
            {"target_score": 21.0},
            "options.target_score",
            "type",
            id="float-is-no-integer",
        ),
        pytest.param(
            "terziglio",
            {"target_score": None},
            "options.target_score",
            "type",
            id="null-not-allowed",
        ),
        pytest.param(
            "terziglio", {"bonus": 1}, "options.bonus", "unknown_key", id="unknown-option"
        ),
        pytest.param(
            "briscola", {"format": "pairs"}, "options.format", "inconsistent", id="pairs-need-four"
        ),
        pytest.param("terziglio", [], "options", "type", id="options-not-an-object"),
    ],
)
def test_bad_options_are_rejected_with_field_and_code(key, options, field, code):
    with pytest.raises(RuleViolation) as caught:
        RULESETS[key].resolve_options(options, 3)
    assert (field, code) in errors(caught.value)


def test_every_options_error_is_reported_at_once():
    with pytest.raises(RuleViolation) as caught:
        get("terziglio").resolve_options({"target_score": 0, "max_hands": "x", "free_dealer": 0}, 7)
    assert errors(caught.value) == {
        ("players", "range"),
        ("options.target_score", "range"),
        ("options.max_hands", "type"),
        ("options.free_dealer", "type"),
    }


def test_null_means_automatic_where_an_option_allows_it():
    assert get("terziglio").resolve_options({"max_hands": None}, 3)["max_hands"] is None
    assert get("calabrasella").resolve_options({"deals": None}, 4)["deals"] == 12


# -- documents ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "players", "document", "stored"),
    [
        pytest.param(
            "terziglio",
            3,
            {
                "outcome": "played",
                "dealer": 0,
                "soloist": 1,
                "contract": "solo",
                "soloist_points": 8,
            },
            {
                "outcome": "played",
                "dealer": 0,
                "soloist": 1,
                "contract": "solo",
                "soloist_points": 8,
                "sweep": "none",
            },
            id="sweep-default-filled",
        ),
        pytest.param(
            "calabrasella",
            3,
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 0,
                "soloist_cards": {"aces": 1, "counters": 2, "last_trick": False},
            },
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 0,
                "soloist_cards": {"aces": 1, "counters": 2, "last_trick": False},
                "sweep": "none",
            },
            id="cards-kept-as-sent",
        ),
        pytest.param(
            "briscola_chiamata",
            5,
            {"dealer": 0, "outcome": "played", "caller": 0, "partner": 2, "caller_points": 68},
            {
                "dealer": 0,
                "outcome": "played",
                "caller": 0,
                "partner": 2,
                "caller_points": 68,
                "target": 61,
            },
            id="target-default-filled",
        ),
        pytest.param(
            "turkish",
            3,
            {
                "dealer": 0,
                "went_out": 0,
                "penalties": [{"seat": 2, "points": 5}, {"seat": 1, "points": 10}],
            },
            {
                "dealer": 0,
                "went_out": 0,
                "penalties": [{"seat": 2, "points": 5}, {"seat": 1, "points": 10}],
            },
            id="penalties-kept-as-sent",
        ),
        pytest.param(
            "terziglio",
            3,
            {"dealer": 2, "outcome": "passed_out"},
            {"dealer": 2, "outcome": "passed_out"},
            id="passed-out",
        ),
    ],
)
def test_the_stored_document_is_the_submitted_one_with_defaults_filled_in(
    key, players, document, stored
):
    game = engine.play(new_game(key, players), document)
    assert game.hands[0].document == stored
    assert list(game.hands[0].document)[: len(document)] == list(document)


@pytest.mark.parametrize("value", [True, 7.0, "7", None, [7]])
@pytest.mark.parametrize(
    ("key", "players", "document", "field"),
    [
        (
            "terziglio",
            3,
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 1,
                "contract": "solo",
                "soloist_points": "VALUE",
            },
            "soloist_points",
        ),
        ("terziglio", 3, {"dealer": "VALUE", "outcome": "passed_out"}, "dealer"),
        ("briscola", 2, {"dealer": 0, "points": ["VALUE", 60]}, "points[0]"),
        (
            "briscola_chiamata",
            5,
            {
                "dealer": 0,
                "outcome": "played",
                "caller": 0,
                "partner": 1,
                "target": "VALUE",
                "caller_points": 70,
            },
            "target",
        ),
        (
            "turkish",
            3,
            {
                "dealer": 0,
                "went_out": 0,
                "cards_left": [
                    {"seat": 1, "court": "VALUE", "tens": 0, "other": 1},
                    {"seat": 2, "court": 0, "tens": 0, "other": 1},
                ],
            },
            "cards_left[0].court",
        ),
    ],
)
def test_integers_must_be_json_integers(key, players, document, field, value):
    def put(obj):
        if isinstance(obj, dict):
            return {k: put(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [put(v) for v in obj]
        return value if obj == "VALUE" else obj

    with pytest.raises(RuleViolation) as caught:
        engine.play(new_game(key, players), put(document))
    assert (field, "type") in errors(caught.value)


@pytest.mark.parametrize("key", RULESETS)
@pytest.mark.parametrize("document", [None, [], "hand", 3, {"deltas": [0, 0, 0]}])
def test_a_document_that_is_not_a_hand_is_rejected_not_crashed_on(key, document):
    rules = RULESETS[key]
    with pytest.raises(RuleViolation) as caught:
        engine.play(new_game(key, rules.min_seats), document)
    fields = {p.field for p in caught.value.problems}
    assert fields & {"document", "deltas", "dealer"}


def test_the_dealer_must_follow_the_rotation_and_the_error_names_the_expected_seat():
    game = engine.play(new_game("briscola", 3), {"dealer": 2, "points": [50, 40, 30]})
    with pytest.raises(RuleViolation) as caught:
        engine.play(game, {"dealer": 2, "points": [50, 40, 30]})
    (problem,) = caught.value.problems
    assert (problem.field, problem.code, problem.params["expected"], problem.hand) == (
        "dealer",
        "wrong_dealer",
        0,
        2,
    )
    assert game.next_dealer == 0


def test_free_dealer_accepts_any_seat():
    game = engine.play(
        new_game("briscola", 3, {"free_dealer": True}), {"dealer": 2, "points": [50, 40, 30]}
    )
    game = engine.play(game, {"dealer": 2, "points": [50, 40, 30]})
    assert len(game.hands) == 2


def test_a_hand_after_the_end_is_refused_and_other_errors_are_listed_too():
    game = new_game("briscola", 2, {"hands_to_win": 1})
    game = engine.play(game, {"dealer": 0, "points": [70, 50]})
    assert game.finished and game.next_dealer is None and game.sitting_out_next is None
    with pytest.raises(RuleViolation) as caught:
        engine.play(game, {"dealer": 1, "points": [70, 51]})
    assert errors(caught.value) == {("game", "game_finished"), ("points", "sum")}


def test_the_next_dealer_and_the_seat_sitting_out_next():
    game = new_game("terziglio", 4)
    assert game.next_dealer is None and game.ranking is None
    game = engine.play(game, {"dealer": 3, "outcome": "passed_out"})
    assert (game.next_dealer, game.sitting_out_next) == (0, 0)
    game = engine.play(new_game("terziglio", 3), {"dealer": 2, "outcome": "passed_out"})
    assert (game.next_dealer, game.sitting_out_next) == (0, None)


def test_places_share_equal_scores_and_skip_the_next_place():
    assert places([5, 3, 3, 1]) == (1, 2, 2, 4)
    assert places([5, 3, 3, 1], lowest_wins=True) == (4, 2, 2, 1)


def test_a_rule_violation_needs_a_problem_and_keeps_the_hand_number_it_has():
    with pytest.raises(AssertionError):
        RuleViolation([])
    violation = RuleViolation([Problem("dealer", "required", hand=4)]).for_hand(9)
    assert violation.problems[0].hand == 4
    assert "dealer: required" in str(violation)


def test_scored_game_as_dict_has_the_scored_document_shape():
    game = engine.play(new_game("briscola", 2), {"dealer": 0, "points": [70, 50]})
    data = game.as_dict(["Anna", "Bruno"])
    assert data == {
        "ruleset": "briscola",
        "options": game.options,
        "players": ["Anna", "Bruno"],
        "hands": [
            {
                "number": 1,
                "document": {"dealer": 0, "points": [70, 50]},
                "deltas": [1, 0],
                "totals": [1, 0],
                "card_points": [70, 50],
            }
        ],
        "totals": [1, 0],
        "status": "in_progress",
        "ranking": [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}],
        "next_dealer": 1,
        "card_points": [70, 50],
    }
    data = engine.start(game.ruleset, game.options, 2)
    assert data.as_dict(["A", "B"])["ranking"] is None


def test_games_without_fixed_sides_report_per_seat_figures_only():
    game = engine.play(new_game("terziglio", 3), {"dealer": 0, "outcome": "passed_out"})
    assert game.ruleset.sides(game.options, 3) is None
    data = game.as_dict(["A", "B", "C"])
    assert "card_points" not in data and "card_points" not in data["hands"][0]
    assert data["ranking"] == [
        {"seat": 0, "place": 1},
        {"seat": 1, "place": 1},
        {"seat": 2, "place": 1},
    ]
