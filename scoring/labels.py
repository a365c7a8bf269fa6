"""The words of the games in the reader's language: their names, contracts, house rules and
presets. The pure rules name things by key (and in English); pages, forms, the API's choices and
e-mails ask here, so that a game is called the same everywhere.

``game_name`` is the one way to name a game; the menus of both apps (``game_choices``) and the
model's choices are made from it.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.rules import RULESETS

#: The games' names in the active language; a game missing here shows the name its rules give.
GAME_NAMES = {
    "terziglio": _("Terziglio"),
    "calabrasella": _("Calabrasella"),
    "turkish": _("Turkish"),
    "briscola": _("Briscola"),
    "briscola_chiamata": _("Briscola chiamata"),
}


def game_name(ruleset: str) -> str:
    """The game's name in the reader's language (the key itself for a ruleset no longer
    registered)."""
    if ruleset not in RULESETS:
        return ruleset
    return str(GAME_NAMES.get(ruleset, RULESETS[ruleset].name))


#: How a competition titles a table's game ("<competition> · R<round> · T<table>", stored so in
#: the game's title whatever the organizer's language: tournaments.services._tables).
TABLE_SUFFIX = re.compile(r" · R(\d+) · T(\d+)$")


def game_title(title: str) -> str:
    """A game's title in the reader's language: a table's suffix "· R4 · T2" reads "· Round 4 ·
    Table 2", "· Turno 4 · Tavolo 2"...; any other title as it was typed."""
    found = TABLE_SUFFIX.search(title)
    if not found:
        return title
    where = gettext("Round %(round)s · Table %(table)s") % {
        "round": found.group(1),
        "table": found.group(2),
    }
    return f"{title[: found.start()]} · {where}"


def game_choices(rulesets=None) -> list[tuple[str, str]]:
    """``(key, name)`` of every registered game, or of ``rulesets`` in their order, for a
    menu."""
    keys = RULESETS if rulesets is None else [k for k in rulesets if k in RULESETS]
    return [(key, game_name(key)) for key in keys]


#: The model's choices: lazy names, translated when a form or the admin shows them.
RULESET_CHOICES = [(key, GAME_NAMES.get(key, rules.name)) for key, rules in RULESETS.items()]

CONTRACT_LABELS = {
    "chiamo": _("Chiamo"),
    "solo": _("Solo"),
    "solissimo": _("Solissimo"),
    "dividete": _("Solissimo dividete"),
    "scegliete": _("Solissimo scegliete"),
}

#: The house rules (``Ruleset.options``) in words.
OPTION_LABELS = {
    "target_score": _("Target score"),
    "contract_values": _("Stake of each contract"),
    "all_points_multiplier": _("Multiplier when one side has all the points"),
    "all_tricks_multiplier": _("Multiplier when one side takes every trick"),
    "stack_multipliers": _("Both multipliers together when every trick is taken"),
    "sitting_out_dealer_pays": _("The idle dealer pays too (4 players)"),
    "tie_at_target": _("A tie at the target"),
    "max_hands": _("Maximum number of hands"),
    "free_dealer": _("Any player may deal any hand"),
    "deals": _("Number of hands"),
    "sweep_payment": _("Payment for every trick"),
    "values": _("Penalty per card"),
    "packs": _("Packs of cards"),
    "format": _("Sides"),
    "hands_to_win": _("Length of the match"),
    "individual_win_rule": _("Who wins a hand with 3 or more sides"),
    "variant": _("Variant"),
    "alone_caller_units": _("Units of a caller playing alone"),
    "cappotto_multiplier": _("Cappotto multiplier"),
    "bid_level_multiplier": _("Multiply by the level of the bid"),
    "sixty_is_draw": _("60 against a target of 61 is a draw"),
}

#: The values of the house rules' choices in words.
CHOICE_LABELS = {
    "play_on": _("play on"),
    "shared": _("shared win"),
    "singles": _("every player alone"),
    "pairs": _("two pairs"),
    "highest": _("the highest score"),
    "over_60": _("only over 60"),
    "classic": _("classic"),
    "famiglia_prini": _("famiglia Prini"),
    "court": _("court card"),
    "ten": _("ten"),
    "other": _("other card"),
    **CONTRACT_LABELS,
}

#: The rules presets (``Ruleset.presets``) in words.
PRESET_LABELS = {
    "standard": _("Standard stakes"),
    "traditional": _("Traditional stakes"),
}


def option_label(key: str) -> str:
    return str(OPTION_LABELS.get(key, key.replace("_", " ").capitalize()))


def choice_label(value: str) -> str:
    return str(CHOICE_LABELS.get(value, value.replace("_", " ")))


def preset_label(name: str) -> str:
    return str(PRESET_LABELS.get(name, name.capitalize()))


#: A match played to a number of wins, as organizers say it ("al meglio delle tre" in Italian):
#: by the wins it takes.
MATCH_LABELS = {
    1: _("a single hand"),
    2: _("best of 3"),
    3: _("best of 5"),
    4: _("best of 7"),
}


def match_label(wins: int) -> str:
    """A match won by the first to win ``wins`` hands, in words: "best of 3" for 2."""
    if wins in MATCH_LABELS:
        return str(MATCH_LABELS[wins])
    return str(_("best of %(hands)s")) % {"hands": 2 * wins - 1}
