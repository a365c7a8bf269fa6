"""The game document (docs/rules/README.md §11): one JSON object for a whole game."""

import pytest

from scoring.rules import RULESETS, RuleViolation, engine

from .helpers import errors

README_EXAMPLE = {
    "ruleset": "terziglio",
    "options": {"target_score": 31},
    "players": ["Anna", "Bruno", "Carla"],
    "hands": [
        {"dealer": 0, "outcome": "played", "soloist": 0, "contract": "chiamo", "soloist_points": 7},
        {"dealer": 1, "outcome": "passed_out"},
    ],
}


def test_the_readme_example_scores_with_resolved_options():
    game, players = engine.score_document(README_EXAMPLE, RULESETS)
    assert players == ["Anna", "Bruno", "Carla"]
    assert game.options["target_score"] == 31 and game.options["contract_values"]["chiamo"] == 1
    assert game.totals == (2, -1, -1)
    assert game.next_dealer == 2
    assert game.status == "in_progress"


def test_options_and_hands_may_be_absent():
    game, _ = engine.score_document({"ruleset": "briscola", "players": ["A", "B"]}, RULESETS)
    assert game.hands == () and game.totals == (0, 0) and game.state.card_points == (0, 0)


def test_exporting_and_scoring_again_gives_the_same_result():
    game, players = engine.score_document(README_EXAMPLE, RULESETS)
    exported = {
        "ruleset": game.ruleset.key,
        "options": dict(game.options),
        "players": players,
        "hands": [dict(h.document) for h in game.hands],
    }
    again, _ = engine.score_document(exported, RULESETS)
    assert again == game


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        pytest.param([], {("document", "type")}, id="not-an-object"),
        pytest.param({"players": ["A", "B", "C"]}, {("ruleset", "required")}, id="no-ruleset"),
        pytest.param(
            {"ruleset": "scopa", "players": ["A", "B"]},
            {("ruleset", "choice")},
            id="unknown-ruleset",
        ),
        pytest.param({"ruleset": "terziglio"}, {("players", "required")}, id="no-players"),
        pytest.param(
            {"ruleset": "terziglio", "players": "A,B,C"},
            {("players", "type")},
            id="players-not-a-list",
        ),
        pytest.param(
            {"ruleset": "terziglio", "players": ["A", " ", 0]},
            {("players[1]", "type"), ("players[2]", "type")},
            id="blank-player",
        ),
        pytest.param(
            {"ruleset": "terziglio", "players": ["A", "B"], "options": {"target_score": 0}},
            {("players", "range"), ("options.target_score", "range")},
            id="players-and-options",
        ),
        pytest.param(
            {"ruleset": "terziglio", "players": ["A", "B", "C"], "hands": {}},
            {("hands", "type")},
            id="hands-not-a-list",
        ),
        pytest.param(
            {"ruleset": "terziglio", "players": ["A", "B", "C"], "notes": ""},
            {("notes", "unknown_key")},
            id="unknown-key",
        ),
    ],
)
def test_a_bad_game_document_reports_every_problem_without_a_hand_number(document, expected):
    with pytest.raises(RuleViolation) as caught:
        engine.score_document(document, RULESETS)
    assert errors(caught.value) == expected
    assert all(p.hand is None for p in caught.value.problems)


def test_a_bad_hand_stops_the_replay_and_names_the_hand():
    document = dict(
        README_EXAMPLE, hands=[*README_EXAMPLE["hands"], {"dealer": 0, "outcome": "passed_out"}]
    )
    with pytest.raises(RuleViolation) as caught:
        engine.score_document(document, RULESETS)
    assert [p.as_dict() for p in caught.value.problems] == [
        {"hand": 3, "field": "dealer", "code": "wrong_dealer"}
    ]


def test_players_may_be_ids_of_existing_players():
    game, players = engine.score_document({"ruleset": "briscola", "players": [4, 7]}, RULESETS)
    assert players == [4, 7] and game.n == 2
