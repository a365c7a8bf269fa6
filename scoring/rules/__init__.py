"""The rules of every game Segnapunti scores: pure Python, one module per game.

``RULESETS`` is the one registry: model choices, API enums, form menus, the help page and the
contract tests are all derived from it. Adding a game is one module here, one line below, one
hand-entry form and one test file (see the README).
"""

from __future__ import annotations

from . import briscola, briscola_chiamata, calabrasella, terziglio, turkish
from .base import (
    GameState,
    Hand,
    HandContext,
    Placing,
    Problem,
    Ruleset,
    RuleViolation,
    SummaryPart,
)
from .engine import FINISHED, IN_PROGRESS, ScoredGame, ScoredHand

RULESETS: dict[str, Ruleset] = {
    rules.key: rules
    for rules in (
        terziglio.RULES,
        calabrasella.RULES,
        turkish.RULES,
        briscola.RULES,
        briscola_chiamata.RULES,
    )
}


def get(key: str) -> Ruleset:
    """The ruleset registered under ``key`` (KeyError for an unknown key: a bug, not input)."""
    return RULESETS[key]


__all__ = [
    "FINISHED",
    "IN_PROGRESS",
    "RULESETS",
    "GameState",
    "Hand",
    "HandContext",
    "Placing",
    "Problem",
    "RuleViolation",
    "Ruleset",
    "ScoredGame",
    "ScoredHand",
    "SummaryPart",
    "get",
]
