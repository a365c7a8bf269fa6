"""The JSON Schema of each game's hand document (``Ruleset.hand_schema``), made from the shapes
the ruleset declares (``scoring.rules.shapes``), agrees with the rules engine: every document of
the rules pages' complete games is valid against it, tagged with its ruleset or not; a
misspelt key, a missing one or a wrong tag is not; and the engine accepts the tag and refuses a
wrong one on ``ruleset``."""

from __future__ import annotations

import jsonschema
import pytest

from scoring.rules import RULESETS, RuleViolation, engine

from .games import COMPLETE_GAMES


def documents():
    for key, rows in COMPLETE_GAMES.items():
        for row in rows:
            for hand in row.values[2]:
                yield pytest.param(key, hand[0], id=f"{key}-{row.id}")


def valid(schema: dict, document: dict) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(document)


@pytest.mark.parametrize(("key", "document"), list(documents()))
def test_every_worked_document_fits_its_schema(key, document):
    rules = RULESETS[key]
    assert valid(rules.hand_schema(), document)
    assert valid(rules.hand_schema(tagged=True), {"ruleset": key, **document})
    assert not valid(rules.hand_schema(tagged=True), document)


@pytest.mark.parametrize("key", RULESETS)
def test_a_misspelt_or_foreign_key_does_not_fit(key):
    rules = RULESETS[key]
    (row, *_rest) = COMPLETE_GAMES[key]
    document = row.values[2][0][0]
    misspelt = {"dealr" if k == "dealer" else k: v for k, v in document.items()}
    assert not valid(rules.hand_schema(), misspelt)
    other = next(k for k in RULESETS if k != key)
    assert not valid(rules.hand_schema(tagged=True), {"ruleset": other, **document})


@pytest.mark.parametrize("key", RULESETS)
def test_the_keys_the_reader_accepts_are_the_declared_ones(key):
    rules = RULESETS[key]
    declared = {
        name for shape in rules.hand_schemas(tagged=False).values() for name in shape["properties"]
    }
    assert set(rules.hand_keys) == declared
    assert rules.hand_keys[0] == "dealer"


def test_the_engine_takes_the_tag_and_does_not_store_it():
    rules = RULESETS["briscola"]
    game = engine.start(rules, rules.resolve_options({}, 2), 2)
    played = engine.play(game, {"ruleset": "briscola", "dealer": 0, "points": [70, 50]})
    assert played.hands[-1].document == {"dealer": 0, "points": [70, 50]}
    with pytest.raises(RuleViolation) as refused:
        engine.play(game, {"ruleset": "turkish", "dealer": 0, "points": [70, 50]})
    assert [(p.field, p.code) for p in refused.value.problems] == [("ruleset", "choice")]


@pytest.mark.parametrize("key", RULESETS)
def test_the_options_schema_takes_the_defaults_and_refuses_unknown_keys(key):
    rules = RULESETS[key]
    schema = rules.options_schema()
    defaults = {option.key: option.default for option in rules.options}
    assert valid(schema, defaults)
    assert not valid(schema, {"no_such_option": 1})
