"""How a hand reads on a page: the ruleset's summary parts put in words. Display only.

A ruleset says what a hand was (``Ruleset.summarise``: parts with a code, values and seats); this
module says it in the active language, with the players' names for the seats, the way
``scoring.messages`` words a rule ``Problem``. No game is named here: a new game whose summary
uses a new code adds its phrase to ``PHRASES`` (the contract test lists any code missing).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.labels import CONTRACT_LABELS
from scoring.rules import RULESETS, SummaryPart

SEPARATOR = " · "

#: The soloist's counted cards in words, one per key of ``soloist_cards``.
CARD_COUNTS: dict[str, Callable[[Any], str]] = {
    "aces": lambda n: ngettext("%(n)s ace", "%(n)s aces", n) % {"n": n},
    "thirds": lambda n: ngettext("%(n)s third", "%(n)s thirds", n) % {"n": n},
    "counters": lambda n: ngettext("%(n)s counter", "%(n)s counters", n) % {"n": n},
    "last_trick": lambda taken: _("the last trick") if taken else "",
}


def _cards(params: Mapping[str, Any]) -> str:
    """ "cards counted: 3 aces, 12 thirds, the last trick"."""
    words = [CARD_COUNTS[key](value) for key, value in params["cards"] if key in CARD_COUNTS]
    return _("cards counted: %(cards)s") % {"cards": ", ".join(w for w in words if w)}


#: Summary code -> its words, given the part's params and its seats already named.
PHRASES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "passed_out": lambda p: _("Passed out"),
    "passed_or_thrown_in": lambda p: _("Passed or thrown in"),
    "soloist": lambda p: p["seat"],
    "contract": lambda p: str(CONTRACT_LABELS[p["contract"]]),
    "points": lambda p: _("%(points)s points") % {"points": p["points"]},
    "cards_counted": _cards,
    "sweep_soloist": lambda p: _("every trick"),
    "sweep_opponents": lambda p: _("no trick"),
    "went_out": lambda p: _("%(name)s went out") % {"name": p["seat"]},
    "side_points": lambda p: "–".join(str(points) for points in p["points"]),
    "caller_and_partner": lambda p: f"{p['caller']} + {p['partner']}",
    "caller_alone": lambda p: f"{p['caller']} ({_('alone')})",
    "points_of_target": lambda p: f"{p['points']}/{p['target']}",
}


def phrase(part: SummaryPart, names: Sequence[str]) -> str:
    """One part in words; a seat outside the table reads "?" (a bug shows, it does not crash)."""
    params = dict(part.params)
    for key, seat in part.seats.items():
        params[key] = names[seat] if 0 <= seat < len(names) else "?"
    words = PHRASES.get(part.code)
    return part.code if words is None else words(params)


def hand_summary(ruleset: str, document: Mapping[str, Any], names: Sequence[str]) -> str:
    """One line for the history, e.g. "Anna · Solo · 8 points"."""
    parts = RULESETS[ruleset].summarise(document)
    return SEPARATOR.join(phrase(part, names) for part in parts)


MINUS = "\u2212"


def signed(value: int) -> str:
    """A score change as the table writes it: +24, −12 (a true minus sign), 0."""
    if value > 0:
        return f"+{value}"
    return f"{MINUS}{-value}" if value < 0 else "0"


def verification(ruleset: str, document: Mapping[str, Any], deltas, names: Sequence[str]) -> str:
    """The sentence an opponent checks: the hand in words, then each player's change."""
    changes = ", ".join(f"{name} {signed(d)}" for name, d in zip(names, deltas, strict=True))
    return f"{hand_summary(ruleset, document, names)} — {changes}"
