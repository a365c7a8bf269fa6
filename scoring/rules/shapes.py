"""The shape of a game's hand document, declared once: each ruleset lists its alternative shapes
(played or passed out, points or cards, cards left or penalties) as :class:`Shape` values, and
from them come the keys its reader accepts (``Ruleset.hand_keys``), the ranges it reads with, and
the JSON Schema that the API publishes (``/api/v1/rulesets/``, the OpenAPI components).

The schema says what a document looks like; the reader still decides what it means in its
context (the dealer's turn, a seat sitting out, sums and sweeps), so a document the schema
accepts may still be refused with a 400 naming the field. Pure Python, like all of
``scoring.rules``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Field:
    """One key of a hand document and what it holds."""

    key: str
    description: str = ""

    def value_schema(self, max_seats: int) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def schema(self, max_seats: int) -> dict[str, Any]:
        described = {"description": self.description} if self.description else {}
        return self.value_schema(max_seats) | described


@dataclass(frozen=True)
class Seat(Field):
    """A seat number, ``0 … n-1`` (the table's ``n``; the schema can only say ``max_seats-1``)."""

    def value_schema(self, max_seats: int) -> dict[str, Any]:
        return {"type": "integer", "minimum": 0, "maximum": max_seats - 1}


@dataclass(frozen=True)
class Int(Field):
    lo: int = 0
    hi: int = 0

    def value_schema(self, max_seats: int) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.lo, "maximum": self.hi}


@dataclass(frozen=True)
class Choice(Field):
    choices: tuple[str, ...] = ()

    def value_schema(self, max_seats: int) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.choices)}


@dataclass(frozen=True)
class Counts(Field):
    """An object of card counts, each ``lo … hi``, and the boolean ``flag`` (the last trick)."""

    counts: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    flag: str = "last_trick"

    @property
    def keys(self) -> tuple[str, ...]:
        return (*self.counts, self.flag)

    def value_schema(self, max_seats: int) -> dict[str, Any]:
        properties: dict[str, Any] = {
            key: {"type": "integer", "minimum": lo, "maximum": hi}
            for key, (lo, hi) in self.counts.items()
        }
        properties[self.flag] = {"type": "boolean"}
        return {
            "type": "object",
            "properties": properties,
            "required": list(self.keys),
            "additionalProperties": False,
        }


@dataclass(frozen=True)
class IntList(Field):
    """One integer ``lo … hi`` per side, ``min_items … max_items`` of them."""

    lo: int = 0
    hi: int = 0
    min_items: int = 0
    max_items: int = 0

    def value_schema(self, max_seats: int) -> dict[str, Any]:
        return {
            "type": "array",
            "items": {"type": "integer", "minimum": self.lo, "maximum": self.hi},
            "minItems": self.min_items,
            "maxItems": self.max_items,
        }


@dataclass(frozen=True)
class Entries(Field):
    """One object per seat concerned: its ``seat`` and the integer ``counts`` (key → lo, hi)."""

    counts: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def keys(self) -> tuple[str, ...]:
        return ("seat", *self.counts)

    def value_schema(self, max_seats: int) -> dict[str, Any]:
        properties: dict[str, Any] = {"seat": Seat("seat").value_schema(max_seats)}
        for key, (lo, hi) in self.counts.items():
            properties[key] = {"type": "integer", "minimum": lo, "maximum": hi}
        item = {
            "type": "object",
            "properties": properties,
            "required": list(self.keys),
            "additionalProperties": False,
        }
        return {"type": "array", "items": item, "minItems": 1, "maxItems": max_seats - 1}


@dataclass(frozen=True)
class Shape:
    """One alternative form of a hand document: its keys in order, and those of them that may
    be left out (``optional``)."""

    name: str
    fields: tuple[Field, ...]
    optional: frozenset[str] = frozenset()

    def schema(self, max_seats: int) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {f.key: f.schema(max_seats) for f in self.fields},
            "required": [f.key for f in self.fields if f.key not in self.optional],
            "additionalProperties": False,
        }


def keys_of(shapes: tuple[Shape, ...]) -> tuple[str, ...]:
    """Every key any of ``shapes`` may hold, once, in the order they are declared."""
    return tuple(dict.fromkeys(f.key for shape in shapes for f in shape.fields))


def field_of(shapes: tuple[Shape, ...], key: str) -> Field:
    """The declaration of ``key`` (the first shape that holds it)."""
    return next(f for shape in shapes for f in shape.fields if f.key == key)
