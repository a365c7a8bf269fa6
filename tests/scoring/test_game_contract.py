"""The sixth game's checklist: everything a ruleset needs beyond its rules module, checked over
``RULESETS``. A game that forgets one item fails here with the item named (README, "Adding a
game"). The checklist itself is tested on a made-up game that has nothing but its rules."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from scoring import demo
from scoring.forms.hands import HAND_FORMS, HandForm
from scoring.labels import CHOICE_LABELS, CONTRACT_LABELS, OPTION_LABELS
from scoring.presenters import PHRASES, hand_summary
from scoring.rules import RULESETS, Ruleset
from scoring.rules.base import ChoiceOption, GameState, IntMapOption, IntOption
from scoring.stats.players import PER_GAME

#: What every ruleset's facts hold (``Ruleset.facts``): the page's script reads these keys.
FACT_KEYS = {
    "ruleset",
    "seats",
    "dealer_sits_out",
    "dealer_after",
    "hand_keys",
    "active_seat_keys",
    "total_points",
    "default_target",
    "sides",
}
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]


def demo_hands(key: str, rules: Ruleset) -> list[dict[str, Any]]:
    """Stored documents of a few demo hands of the game, dealt by its demo hand maker."""
    n = rules.ideal_seats
    options = rules.resolve_options({}, n)
    plan = demo.Plan(key, (), "contract", finish=False, hands=3)
    _documents, game = demo.deal_once(key, options, n, random.Random(6), plan)
    return [dict(hand.document) for hand in game.hands]


def missing_items(key: str, rules: Ruleset) -> list[str]:
    """The checklist items ``rules`` lacks, in words; empty when the game is complete."""
    missing: list[str] = []
    form = HAND_FORMS.get(key)
    if not (isinstance(form, type) and issubclass(form, HandForm)):
        missing.append("a hand form class in scoring.forms.hands.HAND_FORMS")
    else:
        template = getattr(form, "entry_template", None)
        try:
            get_template(template) if template else None
        except TemplateDoesNotExist:
            template = None
        if not template:
            missing.append(f"the hand-form template named by {form.__name__}.entry_template")
    if not getattr(rules, "name", ""):
        missing.append("a name (Ruleset.name)")
    for option in rules.options:
        if option.key not in OPTION_LABELS:
            missing.append(f"a label for option {option.key!r} in scoring.labels.OPTION_LABELS")
        choices = option.choices if isinstance(option, ChoiceOption) else ()
        choices += option.keys if isinstance(option, IntMapOption) else ()
        missing += [
            f"a label for choice {choice!r} in scoring.labels.CHOICE_LABELS"
            for choice in choices
            if choice not in CHOICE_LABELS
        ]
    missing += [
        f"a label for contract {contract!r} in scoring.labels.CONTRACT_LABELS"
        for contract in getattr(rules, "contracts", ())
        if contract not in CONTRACT_LABELS
    ]
    try:
        n = rules.ideal_seats
        facts = rules.facts(rules.resolve_options({}, n), n)
        assert set(facts) >= FACT_KEYS and json.loads(json.dumps(facts)) == facts
    except Exception:  # any failure means the facts are not there
        missing.append(f"its facts (Ruleset.facts with {sorted(FACT_KEYS)}, JSON data)")
    if key not in PER_GAME:
        missing.append("its player statistics in scoring.stats.players.PER_GAME")
    if key not in demo.HAND_MAKERS or key not in demo.TYPO_MAKERS:
        missing.append("a demo hand maker and typo maker in scoring.demo")
        return [*missing, "a summary (needs the demo hand maker to deal a real hand)"]
    try:
        for document in demo_hands(key, rules):
            parts = rules.summarise(document)
            unknown = [part.code for part in parts if part.code not in PHRASES]
            assert parts and not unknown, f"codes without words: {unknown}"
            assert hand_summary(key, document, NAMES).strip()
    except Exception as error:  # any failure means the summary is not there
        missing.append(f"a summary (Ruleset.summarise, words in presenters.PHRASES): {error!r}")
    return missing


@pytest.mark.parametrize("key", RULESETS)
def test_every_game_has_its_form_template_labels_demo_summary_and_facts(key):
    missing = missing_items(key, RULESETS[key])
    assert not missing, f"{key} lacks: " + "; ".join(missing)


class Sixth(Ruleset):
    """A new game with its rules only: the checklist must name everything else."""

    key = "sixth"
    name = ""
    min_seats = max_seats = ideal_seats = 2
    options = (
        IntOption("rounds_to_play", 3, lo=1, hi=9),
        ChoiceOption("scoring_mode", "plain", choices=("plain", "doubled")),
    )
    contracts = ("grand",)

    def is_finished(self, state: GameState) -> bool:  # pragma: no cover - never played
        return False


def test_a_sixth_game_that_forgets_everything_is_told_what_is_missing(monkeypatch):
    monkeypatch.setitem(RULESETS, "sixth", Sixth())
    missing = "\n".join(missing_items("sixth", RULESETS["sixth"]))
    for item in (
        "hand form class",
        "name",
        "option 'rounds_to_play'",
        "option 'scoring_mode'",
        "choice 'doubled'",
        "contract 'grand'",
        "facts",
        "player statistics",
        "demo hand maker",
        "summary",
    ):
        assert item in missing, item


def test_a_game_whose_form_names_no_existing_template_is_told_so(monkeypatch):
    class Nowhere(HAND_FORMS["briscola"]):
        entry_template = "scoring/hand_forms/nowhere.html"

    monkeypatch.setitem(HAND_FORMS, "briscola", Nowhere)
    assert missing_items("briscola", RULESETS["briscola"]) == [
        "the hand-form template named by Nowhere.entry_template"
    ]


def test_a_game_whose_summary_has_no_words_is_told_so(monkeypatch):
    monkeypatch.delitem(PHRASES, "went_out")
    (item,) = missing_items("turkish", RULESETS["turkish"])
    assert item.startswith("a summary") and "went_out" in item
