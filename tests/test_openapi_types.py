"""Every body of the schema is typed: a client generator gives each value a type, never ``Any``
or ``unknown`` (issue 34, "Every body typed"). The census walks every component and every JSON
request and response body and lists each untyped spot:

* a schema that says nothing (``{}``: any value);
* an object naming no property whose ``additionalProperties`` is absent, ``true`` or ``{}``
  (a free map);
* a ``*_at`` string without ``format: date-time``;
* a string answered under a name that is a closed set (``ruleset``, ``method``, ``status``,
  ``kind``, ``format``, ``state``) without an ``enum``.

The typed null of a nullable reference (``{type: object, nullable: true, enum: [null]}``,
``scoring.api.schema``) is null, not a free object.
"""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

#: Keys that say nothing about a value's type.
NEUTRAL = {
    "description",
    "readOnly",
    "writeOnly",
    "nullable",
    "title",
    "example",
    "examples",
    "default",
    "deprecated",
}
#: Names whose string values are a closed set.
ENUM_NAMES = {"ruleset", "method", "status", "kind", "format", "state"}
COMBINERS = ("oneOf", "anyOf", "allOf")
#: Strings under such a name that are prose, not a closed set: how a rotation's schedule was
#: found, in words ("circle method (Berger tables)"; ``tournaments.scheduling``).
PROSE = {"DrawMetrics.method", "ScheduleMetrics.method"}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def is_typed_null(node: dict[str, Any]) -> bool:
    return node.get("nullable") is True and node.get("enum") == [None]


def census(node: Any, where: str, *, output: bool, spots: list[str]) -> None:
    """Appends to ``spots`` each untyped place under ``node`` (``where`` names it)."""
    if not isinstance(node, dict) or "$ref" in node or is_typed_null(node):
        return
    if not set(node) - NEUTRAL:
        spots.append(f"any: {where}")
        return
    kind = node.get("type")
    extra = node.get("additionalProperties")
    if kind == "object" or ("properties" not in node and "additionalProperties" in node):
        combined = any(key in node for key in COMBINERS)
        if not node.get("properties") and extra in (None, True, {}) and not combined:
            spots.append(f"free map: {where}")
        if isinstance(extra, dict) and extra:
            census(extra, f"{where}{{}}", output=output, spots=spots)
    name = where.rsplit(".", 1)[-1]
    if kind == "string" and name.endswith("_at") and node.get("format") != "date-time":
        spots.append(f"time without date-time: {where}")
    closed = name in ENUM_NAMES and where not in PROSE
    if output and kind == "string" and closed and "enum" not in node:
        spots.append(f"string without enum: {where}")
    for combiner in COMBINERS:
        for index, sub in enumerate(node.get(combiner, [])):
            census(sub, f"{where}|{combiner}{index}", output=output, spots=spots)
    for key, sub in (node.get("properties") or {}).items():
        census(sub, f"{where}.{key}", output=output, spots=spots)
    if "items" in node:
        census(node["items"], f"{where}[]", output=output, spots=spots)


def untyped_spots(schema: dict[str, Any]) -> list[str]:
    spots: list[str] = []
    for name, component in schema["components"]["schemas"].items():
        census(component, name, output=not name.endswith("Request"), spots=spots)
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for code, response in operation["responses"].items():
                for media, body in (response.get("content") or {}).items():
                    if "json" in media:
                        where = f"{method.upper()} {path} {code}"
                        census(body.get("schema", {}), where, output=True, spots=spots)
            for media, body in ((operation.get("requestBody") or {}).get("content") or {}).items():
                if "json" in media:
                    where = f"{method.upper()} {path} body"
                    census(body.get("schema", {}), where, output=False, spots=spots)
    return spots


def test_every_body_of_the_schema_is_typed(schema):
    assert untyped_spots(schema) == []


def test_the_census_sees_each_kind_of_untyped_spot():
    component = {
        "type": "object",
        "properties": {
            "anything": {},
            "free": {"type": "object", "additionalProperties": {}},
            "created_at": {"type": "string"},
            "ruleset": {"type": "string"},
            "absent": {
                "oneOf": [
                    {"$ref": "#/components/schemas/X"},
                    {"type": "object", "nullable": True, "enum": [None]},
                ]
            },
            "map": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
    }
    spots: list[str] = []
    census(component, "C", output=True, spots=spots)
    assert spots == [
        "any: C.anything",
        "free map: C.free",
        "time without date-time: C.created_at",
        "string without enum: C.ruleset",
    ]
