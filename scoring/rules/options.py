"""House rules: the option types a game declares (``Ruleset.options``), each checking its value
and describing itself for forms and the API. Pure Python, like all of ``scoring.rules``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .reading import Problems, Reader, is_int

# ---------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class Option:
    """One house rule. ``default=None`` with ``nullable=True`` means *automatic*: the ruleset
    replaces it by a concrete value for the number of seats (``Ruleset.finish_options``)."""

    key: str
    default: Any
    nullable: bool = False
    kind: ClassVar[str] = ""

    def check(self, value: Any, path: str, problems: Problems) -> Any:
        if value is None and self.nullable:
            return None
        return self.check_value(value, path, problems)

    def check_value(self, value: Any, path: str, problems: Problems) -> Any:  # pragma: no cover
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        return {"type": self.kind, "default": self.default, "nullable": self.nullable}

    def schema(self) -> dict[str, Any]:
        """The option's value as a JSON Schema (``null`` allowed where the option is automatic)."""
        schema = self.value_schema()
        if self.nullable:
            schema = {"anyOf": [schema, {"type": "null"}]}
        return schema | {"default": self.default}

    def value_schema(self) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError


@dataclass(frozen=True)
class IntOption(Option):
    lo: int = 0
    hi: int = 0
    kind: ClassVar[str] = "integer"

    def check_value(self, value: Any, path: str, problems: Problems) -> Any:
        if not is_int(value):
            problems.add(path, "type", expected="integer")
        elif not self.lo <= value <= self.hi:
            problems.add(path, "range", min=self.lo, max=self.hi, value=value)
        else:
            return value
        return None

    def describe(self) -> dict[str, Any]:
        return super().describe() | {"min": self.lo, "max": self.hi}

    def value_schema(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.lo, "maximum": self.hi}


@dataclass(frozen=True)
class BoolOption(Option):
    kind: ClassVar[str] = "boolean"

    def check_value(self, value: Any, path: str, problems: Problems) -> Any:
        if not isinstance(value, bool):
            problems.add(path, "type", expected="boolean")
            return None
        return value

    def value_schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


@dataclass(frozen=True)
class ChoiceOption(Option):
    choices: tuple[str, ...] = ()
    kind: ClassVar[str] = "choice"

    def check_value(self, value: Any, path: str, problems: Problems) -> Any:
        if not isinstance(value, str):
            problems.add(path, "type", expected="string")
        elif value not in self.choices:
            problems.add(path, "choice", choices=self.choices, value=value)
        else:
            return value
        return None

    def describe(self) -> dict[str, Any]:
        return super().describe() | {"choices": list(self.choices)}

    def value_schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.choices)}


@dataclass(frozen=True)
class IntMapOption(Option):
    """An object with exactly the keys ``keys``, each an integer ``lo … hi``; given whole."""

    keys: tuple[str, ...] = ()
    lo: int = 0
    hi: int = 0
    kind: ClassVar[str] = "object"

    def check_value(self, value: Any, path: str, problems: Problems) -> Any:
        reader = Reader.of(value, problems, path)
        if reader is None:
            return None
        before = len(problems.items)
        reader.only(self.keys)
        result = {key: reader.read_int(key, self.lo, self.hi) for key in self.keys}
        return None if len(problems.items) > before else result

    def describe(self) -> dict[str, Any]:
        return super().describe() | {"keys": list(self.keys), "min": self.lo, "max": self.hi}

    def value_schema(self) -> dict[str, Any]:
        number = {"type": "integer", "minimum": self.lo, "maximum": self.hi}
        return {
            "type": "object",
            "properties": dict.fromkeys(self.keys, number),
            "required": list(self.keys),
            "additionalProperties": False,
        }


FREE_DEALER = BoolOption("free_dealer", False)
