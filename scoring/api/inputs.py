"""Strict input serializers for both apps' APIs: each endpoint declares its body once.

An endpoint's nested ``InputSerializer`` derives from :class:`StrictInput` and uses the fields
below. They are DRF fields (so drf-spectacular documents them: types, enums, limits), read
strictly: ``7.0``, ``"7"`` and ``true`` are not integers, unknown keys are refused (the schema
says ``additionalProperties: false``), ``null`` is refused where the schema says the field is not
nullable (``allow_null``), as a value of the wrong type. Every problem is a ``Problem(field, code, params)``, the
vocabulary of the rules engine, and ``is_valid(raise_exception=True)`` raises them all at once
as a ``RuleViolation``: the API's exception handler turns it into the one error shape, with the
sentence of ``scoring.messages``. A field that is wrong is named by its path
(``placement_points.3``, ``entries[1]``), like a problem of a hand document.

What the serializers check is what a field can tell by itself (type, enum, limit). Rules that
need the database or several fields stay in the services, the one door of every write.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import SkipField, empty

from scoring.api.common import Named
from scoring.rules import Problem, RuleViolation
from scoring.rules.base import is_int, join
from scoring.validators import text_problem

DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
TIME_RE = re.compile(r"\d{2}:\d{2}")
#: A key of a numbered object: ASCII digits only (``"²"`` and ``"٣"`` are digits to Python's
#: ``str.isdigit``, not to ``int``), and short enough for any integer column.
NUMBER_KEY = re.compile(r"[0-9]{1,9}")
#: The characters a text may not hold (``scoring.validators``), as a regular expression's class
#: for the schema; lone surrogates (refused too) are left out, as no Unicode text holds them and
#: a pattern naming them is one a client's regular expressions (and schemathesis) cannot use.
REFUSED = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"


def text_pattern(*, single_line: bool, non_blank: bool) -> str:
    """The schema's ``pattern`` of a text: none of the refused characters (nor tabs and line
    breaks on a single line) and, when ``non_blank``, some character that is not a space."""
    refused = REFUSED + (r"\t\n\r" if single_line else "")
    if non_blank:
        return rf"^[^{refused}]*[^\s{refused}][^{refused}]*$"
    return rf"^[^{refused}]*$"


class Invalid(serializers.ValidationError):
    """Problems of one field, their paths relative to it ("" for the field itself)."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = tuple(problems)
        super().__init__([f"{p.field or '.'}: {p.code}" for p in self.problems])

    @classmethod
    def one(cls, code: str, **params: Any) -> Invalid:
        return cls([Problem("", code, params)])


def _nested(path: str, key: str | int, problems: Iterable[Problem]) -> list[Problem]:
    """``problems`` of the value at ``key``, their paths made relative to the container."""
    out = []
    for p in problems:
        head = join(path, key)
        sub = p.field
        field_ = head if not sub else (f"{head}{sub}" if sub.startswith("[") else f"{head}.{sub}")
        out.append(Problem(field_, p.code, p.params))
    return out


class Strict:
    """Absent and required is the ``required`` problem; ``null`` where the field does not allow
    it is the problem of any value of the wrong type (``to_internal_value`` refuses ``None``)."""

    def validate_empty_values(self, data: Any) -> tuple[bool, Any]:
        if data is None and not self.allow_null:
            self.to_internal_value(None)
            raise Invalid.one("type", expected="string")  # pragma: no cover - every field refuses
        if data is empty:
            if self.required:
                raise Invalid.one("required")
            if self.default is empty:
                raise SkipField()
            return True, self.get_default()
        if data is None:
            return True, None
        return False, data


class Integer(Strict, serializers.IntegerField):
    """A JSON integer, within ``min_value … max_value`` when both are given."""

    def to_internal_value(self, data: Any) -> int:
        if not is_int(data):
            raise Invalid.one("type", expected="integer")
        lo, hi = self.min_value, self.max_value
        if lo is not None and hi is not None and not lo <= data <= hi:
            raise Invalid.one("range", min=lo, max=hi, value=data)
        return data


class Boolean(Strict, serializers.BooleanField):
    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            raise Invalid.one("type", expected="boolean")
        return data


def _refuse_control_characters(text: str, *, multiline: bool) -> None:
    problem = text_problem(text, "", multiline=multiline)
    if problem is not None:
        raise Invalid([problem])


class Text(Strict, serializers.CharField):
    """A string; ``max_length`` counts the characters once the ends are trimmed. Control
    characters are refused (``scoring.validators``); tabs and line breaks too when
    ``single_line`` (a name, a slug). ``non_blank``: required, and blank or only spaces is the
    ``required`` problem (a reason for the audit trail). The schema's ``pattern`` says both
    (:func:`text_pattern`)."""

    def __init__(self, *, single_line: bool = False, non_blank: bool = False, **kwargs: Any):
        self.single_line = single_line
        self.non_blank = non_blank
        kwargs.setdefault("allow_blank", True)  # blank is this class's problem, not DRF's
        kwargs.setdefault("trim_whitespace", False)
        pattern = text_pattern(single_line=single_line, non_blank=non_blank)
        kwargs.setdefault("validators", [RegexValidator(pattern)])
        super().__init__(**kwargs)

    def run_validators(self, value: Any) -> None:
        """The length is checked by ``to_internal_value``, as a problem; the validators stay
        for the schema."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            raise Invalid.one("type", expected="string")
        if self.max_length and len(data.strip()) > self.max_length:
            raise Invalid.one("range", min=1, max=self.max_length, value=len(data.strip()))
        _refuse_control_characters(data, multiline=not self.single_line)
        if self.non_blank and not data.strip():
            raise Invalid.one("required")
        return data


class Choice(Strict, serializers.ChoiceField):
    """One key of an enum or a registry (``Kind.values``, ``RULESETS``...)."""

    def __init__(self, choices: Iterable[str], **kwargs: Any):
        super().__init__(list(choices), **kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            raise Invalid.one("type", expected="string")
        if data not in self.choices:
            raise Invalid.one("choice", choices=tuple(self.choices), value=data)
        return data


class _Iso(Strict):
    """A date or a time written in one ISO form (``pattern``), read by ``parse``."""

    pattern: re.Pattern
    expected = ""

    @staticmethod
    def parse(text: str) -> Any:  # pragma: no cover - every subclass gives its own
        raise NotImplementedError

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and self.pattern.fullmatch(data):
            try:
                return self.parse(data)
            except ValueError:
                pass
        raise Invalid.one("type", expected=self.expected)


class Date(_Iso, serializers.DateField):
    """A date written ``YYYY-MM-DD``."""

    pattern, expected = DATE_RE, "date"
    parse = staticmethod(dt.date.fromisoformat)


@extend_schema_field(
    {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$", "example": "20:30"}
)
class Time(_Iso, serializers.TimeField):
    """A time of day written ``HH:MM``."""

    pattern, expected = TIME_RE, "time"
    parse = staticmethod(dt.time.fromisoformat)


class ListOf(Strict, serializers.ListField):
    """A list whose items are read by ``child``; each bad item is named ``key[i]``."""

    def to_internal_value(self, data: Any) -> list[Any]:
        if not isinstance(data, list):
            raise Invalid.one("type", expected="list")
        values, problems = [], []
        for index, item in enumerate(data):
            try:
                values.append(self.child.to_internal_value(item))
            except Invalid as invalid:
                problems.extend(_nested("", index, invalid.problems))
        if problems:
            raise Invalid(problems)
        return values


class ObjectOf(Strict, serializers.DictField):
    """An object whose values are read by ``child``; each bad value is named ``key.k``."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            raise Invalid.one("type", expected="object")
        values, problems = {}, []
        for key, value in data.items():
            try:
                values[key] = self.child.run_validation(value)
            except Invalid as invalid:
                problems.extend(_nested("", str(key), invalid.problems))
            except SkipField:
                values[key] = value
        if problems:
            raise Invalid(problems)
        return values


class NumberedObject(ObjectOf):
    """An object keyed by whole numbers (``{"3": …}``); another key is ``key_problem``."""

    def __init__(self, key_problem: tuple[str, dict[str, Any]], **kwargs: Any):
        self.key_problem = key_problem
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            raise Invalid.one("type", expected="object")
        code, params = self.key_problem
        good = {k: v for k, v in data.items() if NUMBER_KEY.fullmatch(str(k))}
        bad = [Problem(str(k), code, params) for k in data if k not in good]
        try:
            values = super().to_internal_value(good)
        except Invalid as invalid:
            raise Invalid([*bad, *invalid.problems]) from None
        if bad:
            raise Invalid(bad)
        return values


class Numbers(Strict, serializers.ListField):
    """A list of numbers (integers or decimals) of at most ``limit`` in size."""

    def __init__(self, *, limit: float, **kwargs: Any):
        self.limit = limit
        super().__init__(child=serializers.FloatField(), **kwargs)

    def to_internal_value(self, data: Any) -> list[int | float]:
        if not isinstance(data, list) or not all(
            (is_int(p) or isinstance(p, float)) and abs(p) <= self.limit for p in data
        ):
            raise Invalid.one("type", expected="list")
        return data


@extend_schema_field({"type": "object", "additionalProperties": True})
class Document(Strict, serializers.JSONField):
    """A JSON object passed through as it is: the rules engine reads it (hand and game
    documents), so the serializer only makes sure it is an object."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            raise Invalid.one("type", expected="object")
        return dict(data)


class Value(Strict, serializers.JSONField):
    """Any JSON value, passed through for the service to read (``null`` included)."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        return data


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer"},
            {"type": "string", "pattern": text_pattern(single_line=True, non_blank=True)},
        ]
    }
)
class PlayerRef(Strict, serializers.Field):
    """A player of the club: an id, or a name (spaces tidied; a new name makes a new player)."""

    def __init__(self, *, max_length: int, **kwargs: Any):
        self.max_length = max_length
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int | str:
        if is_int(data):
            return data
        if isinstance(data, str) and data.strip():
            name = " ".join(data.split())
            if len(name) > self.max_length:
                raise Invalid.one("range", min=1, max=self.max_length, value=len(name))
            _refuse_control_characters(name, multiline=False)
            return name
        raise Invalid.one("type", expected="player")

    def to_representation(self, value: Any) -> Any:  # pragma: no cover - input only
        return value


class StrictInput(Named, serializers.Serializer):
    """An endpoint's body: a JSON object of the declared keys only.

    ``is_valid(raise_exception=True)`` raises a ``RuleViolation`` naming every bad key at once
    (``unknown_key`` for a key the endpoint does not take). ``validate`` may add problems that
    need two fields through :meth:`refuse`."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if data is None or (isinstance(data, Mapping) and not data):
            data = {}
        if not isinstance(data, Mapping):
            raise RuleViolation([Problem("document", "type", {"expected": "object"})])
        problems = [Problem(str(key), "unknown_key") for key in data if key not in self.fields]
        values: dict[str, Any] = {}
        for name, field_ in self.fields.items():
            try:
                values[field_.source] = field_.run_validation(field_.get_value(data))
            except SkipField:
                continue
            except Invalid as invalid:
                problems.extend(_nested("", name, invalid.problems))
        if problems:
            raise RuleViolation(problems)
        return values

    def refuse(self, problems: list[Problem]) -> None:
        if problems:
            raise RuleViolation(problems)

    def to_representation(self, instance: Any) -> Any:  # pragma: no cover - input only
        return instance
