"""Look-alike names: a new name that reads as one already there, but is not it.

"Аnna" with a Cyrillic "А", "Anna" with a zero-width space inside, "Ａｎｎａ" in full-width letters
all read as "Anna" on a standings table, and would each be a player, a team or a registrant of
their own. Two names are look-alikes when their :func:`key` is the same and they differ otherwise
(whatever the case: names equal but for the case are the duplicates the callers refuse already):

1. NFKC (full-width and mathematical letters become the plain ones, as Django's usernames);
2. invisible characters removed: format characters (zero-width space, joiners, bidi marks, the
   byte-order mark, the soft hyphen) and variation selectors;
3. Unicode's confusables (UTS #39 ``confusables.txt``) mapped to their prototype, case folded,
   and mapped again (so that a Cyrillic capital "А" meets a Latin small "a").

The confusables come from ``confusable_homoglyphs`` (the data of Unicode's ``confusables.txt``,
the package django-registration checks usernames with) rather than a table of our own. Its data
name, for each character, either its prototype (one entry, itself listing the character back) or
every character confusable with it (then it is a prototype): :func:`_prototype` reads it so.

:func:`refuse` is what the services call: a ``RuleViolation`` (``look_alike``) naming the field
and the existing name. Pure: no Django, no database.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from confusable_homoglyphs.confusables import confusables_data

from scoring.rules import Problem, RuleViolation

#: Marks the package adds around right-to-left characters so that they print in order.
_MARKS = "\u200e\u200f"


def _clean(entry: str) -> str:
    return entry.strip(_MARKS)


@functools.cache
def _prototype(character: str) -> str:
    """What ``character`` reads as: its prototype in ``confusables.txt``, else itself."""
    entries = confusables_data.get(character)
    if not entries or len(entries) != 1:
        return character  # not confusable, or a prototype that many characters read as
    target = _clean(entries[0]["c"])
    back = [_clean(e["c"]) for e in confusables_data.get(target, ())]
    if len(back) == 1 and back[0] == character:
        return min(character, target)  # a pair that only reads as each other: either one
    return target


def _invisible(character: str) -> bool:
    return unicodedata.category(character) == "Cf" or (
        "\ufe00" <= character <= "\ufe0f" or "\U000e0100" <= character <= "\U000e01ef"
    )


def visible(name: str) -> str:
    """``name`` in NFKC, without its invisible characters and with single spaces."""
    kept = "".join(c for c in unicodedata.normalize("NFKC", name) if not _invisible(c))
    return " ".join(kept.split())


def _skeleton(text: str) -> str:
    return "".join(_prototype(c) for c in text)


def key(name: str) -> str:
    """What ``name`` reads as: equal keys, names a reader cannot tell apart."""
    return _skeleton(_skeleton(visible(name)).casefold())


def look_alike(name: str, existing: Iterable[str]) -> str | None:
    """The first of ``existing`` that ``name`` reads as without being it (the case aside)."""
    wanted, folded = key(name), name.casefold()
    for other in existing:
        if other.casefold() != folded and key(other) == wanted:
            return other
    return None


def character(name: str, other: str) -> str:
    """The first character of ``name`` that ``other`` does not have, the case aside, as
    ``U+0430 CYRILLIC SMALL LETTER A``: what makes two names that read alike differ."""
    folded = other.casefold()
    for c in name:
        if c.casefold() not in folded:
            return f"U+{ord(c):04X} {unicodedata.name(c, '')}".strip()
    return ""


def refuse(field: str, name: str, existing: Iterable[str], *, reason: str) -> None:
    """Raise ``RuleViolation`` (``field``, ``look_alike``) when ``name`` is a look-alike of one of
    ``existing``; the message names it and the character that differs (``reason``: which kind of
    name, for ``scoring.messages``)."""
    other = look_alike(name, existing)
    if other is not None:
        params = {"reason": reason, "value": name, "existing": other}
        params["character"] = character(name, other)
        raise RuleViolation([Problem(field, "look_alike", params)])
