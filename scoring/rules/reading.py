"""Problems and strict reading: how a game's module reports what is wrong with a document.

A problem the player can fix raises :class:`RuleViolation`, carrying one :class:`Problem` per
error with a ``field`` path and a ``code``; :class:`Problems` collects them while a
:class:`Reader` reads a JSON object strictly, so that every error is reported at once. The human
message is not made here (``scoring.messages``). Pure Python, like all of ``scoring.rules``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# ---------------------------------------------------------------------------------------------
# Errors


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entry: where (``field``), what (``code``) and the facts a message
    needs (``params``). ``hand`` is the number of the hand concerned, if any."""

    field: str
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    hand: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "field": self.field, "code": self.code}


class RuleViolation(Exception):
    """Something the player can fix. Carries every problem found, never an empty list."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems: tuple[Problem, ...] = tuple(problems)
        assert self.problems, "a RuleViolation needs at least one problem"
        super().__init__("; ".join(f"{p.field}: {p.code}" for p in self.problems))

    def for_hand(self, number: int) -> RuleViolation:
        """The same problems, labelled with the number of the hand they belong to."""
        return RuleViolation(
            Problem(p.field, p.code, p.params, number if p.hand is None else p.hand)
            for p in self.problems
        )


class Problems:
    """Collects problems while a document is read, so that every error is reported at once."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, field_: str, code: str, **params: Any) -> None:
        self.items.append(Problem(field_, code, params))

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise RuleViolation(self.items)


# ---------------------------------------------------------------------------------------------
# Reading JSON values strictly


def is_int(value: Any) -> bool:
    """A JSON integer: ``True``, ``7.0`` and ``"7"`` are not."""
    return isinstance(value, int) and not isinstance(value, bool)


def join(path: str, key: str | int) -> str:
    """Field path of a nested key (``soloist_cards.aces``) or list entry (``points[1]``)."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


class Reader:
    """Reads one JSON object strictly, recording a :class:`Problem` for every mistake.

    Each ``read_*`` method returns the value when it is valid and ``None`` otherwise (a missing
    optional key also gives ``None``), so a game can go on checking the rest of the document.
    """

    def __init__(self, obj: Mapping[str, Any], problems: Problems, path: str = ""):
        self.obj = obj
        self.problems = problems
        self.path = path

    @classmethod
    def of(cls, value: Any, problems: Problems, path: str) -> Reader | None:
        """A reader for ``value`` if it is a JSON object, else a ``type`` problem and None."""
        if not isinstance(value, Mapping):
            problems.add(path or "document", "type", expected="object")
            return None
        return cls(value, problems, path)

    def at(self, key: str) -> str:
        return join(self.path, key)

    def only(self, allowed: Iterable[str]) -> None:
        """``unknown_key`` for every key outside ``allowed``."""
        allowed = set(allowed)
        for key in self.obj:
            if key not in allowed:
                self.problems.add(self.at(str(key)), "unknown_key")

    def not_allowed(self, keys: Iterable[str], reason: str) -> None:
        """``not_allowed`` for every key of ``keys`` present in the object."""
        for key in keys:
            if key in self.obj:
                self.problems.add(self.at(key), "not_allowed", reason=reason)

    def _get(self, key: str, required: bool) -> tuple[bool, Any]:
        if key not in self.obj:
            if required:
                self.problems.add(self.at(key), "required")
            return False, None
        return True, self.obj[key]

    def read_int(self, key: str, lo: int, hi: int, *, required: bool = True) -> int | None:
        present, value = self._get(key, required)
        if not present:
            return None
        if not is_int(value):
            self.problems.add(self.at(key), "type", expected="integer")
            return None
        if not lo <= value <= hi:
            self.problems.add(self.at(key), "range", min=lo, max=hi, value=value)
            return None
        return value

    def read_seat(self, key: str, n: int, *, required: bool = True) -> int | None:
        present, value = self._get(key, required)
        if not present:
            return None
        if not is_int(value):
            self.problems.add(self.at(key), "type", expected="seat")
            return None
        if not 0 <= value < n:
            self.problems.add(self.at(key), "not_a_seat", max=n - 1, value=value)
            return None
        return value

    def read_bool(self, key: str, *, required: bool = True) -> bool | None:
        present, value = self._get(key, required)
        if not present:
            return None
        if not isinstance(value, bool):
            self.problems.add(self.at(key), "type", expected="boolean")
            return None
        return value

    def read_choice(self, key: str, choices: Sequence[str], *, required: bool = True) -> str | None:
        present, value = self._get(key, required)
        if not present:
            return None
        if not isinstance(value, str):
            self.problems.add(self.at(key), "type", expected="string")
            return None
        if value not in choices:
            self.problems.add(self.at(key), "choice", choices=tuple(choices), value=value)
            return None
        return value

    def read_object(self, key: str) -> Reader | None:
        """A reader for the object under ``key``, which the caller knows is present."""
        return Reader.of(self.obj[key], self.problems, self.at(key))

    def read_list(self, key: str, *, required: bool = True) -> list[Any] | None:
        present, value = self._get(key, required)
        if not present:
            return None
        if not isinstance(value, list):
            self.problems.add(self.at(key), "type", expected="list")
            return None
        return value

    def exactly_one(self, first: str, second: str) -> str | None:
        """Two alternative forms: ``required`` on ``first`` if neither is sent, ``conflict`` on
        ``second`` if both are. Returns the key that was sent, or None."""
        if first in self.obj and second in self.obj:
            self.problems.add(self.at(second), "conflict", other=self.at(first))
            return None
        if first in self.obj:
            return first
        if second in self.obj:
            return second
        self.problems.add(self.at(first), "required", alternative=self.at(second))
        return None
