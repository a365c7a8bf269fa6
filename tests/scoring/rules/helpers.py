"""Shared checks for the rules tests: play documents through the engine, compare figures."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules import RULESETS, RuleViolation, engine


def new_game(key: str, players: int, options: dict[str, Any] | None = None) -> engine.ScoredGame:
    ruleset = RULESETS[key]
    return engine.start(ruleset, ruleset.resolve_options(options, players), players)


def errors(violation: RuleViolation) -> set[tuple[str, str]]:
    return {(p.field, p.code) for p in violation.problems}


def assert_single_hand(key, players, options, hand, deltas):
    game = engine.play(new_game(key, players, options), hand)
    assert game.hands[0].deltas == tuple(deltas)
    assert game.totals == tuple(deltas)  # hand 1 of a new game: totals = deltas
    assert len(game.hands[0].deltas) == players


def assert_game(key, players, options, hands, ranking, card_points):
    game = new_game(key, players, options)
    for number, (document, deltas, totals, status) in enumerate(hands, start=1):
        game = engine.play(game, document)
        assert game.hands[-1].number == number
        assert game.hands[-1].deltas == tuple(deltas), f"hand {number}"
        assert game.totals == tuple(totals), f"hand {number}"
        assert game.status == status, f"hand {number}"
    assert [p.as_dict() for p in game.ranking] == ranking
    if card_points is not None:
        assert game.state.card_points == tuple(card_points)
    # Recomputing the whole game from its stored documents gives the same figures.
    again = engine.replay(game.ruleset, game.options, players, [h.document for h in game.hands])
    assert again == game


def assert_invalid_hand(key, players, options, earlier, hand, field, code):
    game = new_game(key, players, options)
    for document in earlier:
        game = engine.play(game, document)
    before = game
    with pytest.raises(RuleViolation) as caught:
        engine.play(game, hand)
    assert (field, code) in errors(caught.value)
    assert {p.hand for p in caught.value.problems} == {len(earlier) + 1}
    assert game == before and len(game.hands) == len(earlier)


def assert_invalid_options(key, players, options, field, code):
    with pytest.raises(RuleViolation) as caught:
        RULESETS[key].resolve_options(options, players)
    assert (field, code) in errors(caught.value)
    assert all(p.hand is None for p in caught.value.problems)
