"""Validators (ETags) of games, hands and standings: the one place that makes and reads them.

A validator names the thing itself AND its version, so that no other thing can ever share it:

- ``"g77.15"``: game 77 at version 15 (the game's version is bumped by every change of the game
  or of any of its hands, renumbering included);
- ``"h1234.2"``: the hand row 1234 at version 2. Hands are addressed by their number in a URL
  (``/games/77/hands/3/``) but named here by their primary key, which never moves: when hand 2 is
  removed, the hand that was number 4 becomes number 3 and keeps its own validator, so a write
  sent with the old hand 3's validator is refused instead of reaching the wrong hand;
- ``"s5.3"``: the standings of competition 5 at version 3;
- ``"r12.40"``: the round row 12 (not its number: deleting a draft round renumbers the later
  ones) as it was after the competition's event 40, the last that changed it;
- ``"e7.41"``: the competition's entry 7 as it was after event 41, the last that named it.

Reading is strict and cheap (RFC 9110 §8.8.3, §13.1.1, §13.1.2). A header is ``*`` or a list of
entity tags, each ``"…"`` or ``W/"…"``; anything else, or a header longer than ``MAX_HEADER``,
is *garbled*. Numbers are ASCII digits only (``"²"`` is not a number) and at most 19 of them, so
a 5,000-digit validator costs nothing and matches nothing. A well-formed tag that is not one of
ours (``"3"``, an old form) simply matches nothing.

- ``If-Match`` compares strongly: a weak tag never matches. A garbled one matches nothing (412).
- ``If-None-Match`` compares weakly; ``*`` matches anything that exists. A garbled one matches
  nothing (the answer is a 200, never a 304).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

GAME, HAND, STANDINGS, ROUND, ENTRY = "g", "h", "s", "r", "e"

#: The longest If-Match / If-None-Match header read; a longer one is garbled.
MAX_HEADER = 512

# One entity tag of a list, and the separator after it (RFC 9110 §5.6.1 list syntax).
_ENTITY_TAG = re.compile(r'[ \t]*(W/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(,|\Z)')
# Our opaque tags: a kind letter, the id, a dot, the version (ASCII digits, at most 19 each).
_OURS = re.compile(r"([ghsre])([0-9]{1,19})\.([0-9]{1,19})", re.ASCII)


@dataclass(frozen=True)
class Tag:
    """A validator: what it names (``kind`` and ``id``) and the version it was read at."""

    kind: str
    id: int
    version: int

    def __str__(self) -> str:
        """The header form, quotes included (as sent back in ``If-Match``)."""
        return f'"{self.kind}{self.id}.{self.version}"'


def game_tag(game) -> Tag:
    return Tag(GAME, game.pk, game.version)


def hand_tag(hand) -> Tag:
    return Tag(HAND, hand.pk, hand.version)


def standings_tag(competition_id: int, version: int) -> Tag:
    return Tag(STANDINGS, competition_id, version)


def round_tag(round_id: int, version: int) -> Tag:
    return Tag(ROUND, round_id, version)


def entry_tag(entry_id: int, version: int) -> Tag:
    return Tag(ENTRY, entry_id, version)


@dataclass(frozen=True)
class Condition:
    """A parsed ``If-Match`` / ``If-None-Match`` header."""

    #: The header was ``*``.
    any: bool = False
    #: Our strong tags in the list.
    strong: tuple[Tag, ...] = ()
    #: Our weak (``W/``) tags in the list.
    weak: tuple[Tag, ...] = ()
    #: The header is not a list of entity tags (or is too long): it matches nothing.
    garbled: bool = False

    def matches_weakly(self, current: Tag) -> bool:
        """``If-None-Match``: ``*``, or a tag of the list, weak or strong, names ``current``."""
        return self.any or current in self.strong or current in self.weak


GARBLED = Condition(garbled=True)


def parse(header: str | None) -> Condition | None:
    """The condition a header states; None when it is absent or blank."""
    if header is None or not header.strip(" \t"):
        return None
    if len(header) > MAX_HEADER:
        return GARBLED
    if header.strip(" \t") == "*":
        return Condition(any=True)
    strong: list[Tag] = []
    weak: list[Tag] = []
    position, end = 0, len(header)
    while position < end:
        match = _ENTITY_TAG.match(header, position)
        if match is None:
            return GARBLED
        is_weak, opaque, separator = match.groups()
        ours = _OURS.fullmatch(opaque)
        if ours is not None:
            tag = Tag(ours[1], int(ours[2]), int(ours[3]))
            (weak if is_weak else strong).append(tag)
        position = match.end()
        if not separator:
            break
        # Empty list elements ("a", , "b") are allowed by the list syntax.
        while position < end and header[position] in " \t,":
            position += 1
    return Condition(strong=tuple(strong), weak=tuple(weak))


def parse_value(value: object) -> Tag | None:
    """One validator given in a JSON body (the ``versions`` of a correction): the header form
    ``"h1234.2"`` with or without its quotes. None when it is not one of ours."""
    if not isinstance(value, str) or len(value) > 64:
        return None
    ours = _OURS.fullmatch(value.strip().strip('"'))
    return None if ours is None else Tag(ours[1], int(ours[2]), int(ours[3]))
