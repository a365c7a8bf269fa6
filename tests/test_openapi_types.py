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

import importlib.util
import re
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from scoring.api.schema import camel
from scoring.rules import RULESETS
from scoring.services import Actor
from scoring.stats.players import PER_GAME
from tests.clients import api_as
from tests.scoring.test_openapi_contract import validator
from tests.tournaments.helpers import enter, make_competition, play, terziglio_won_by
from tournaments import services

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


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def test_no_component_is_named_like_one_of_its_fields(schema):
    """The Python client's ``from_dict`` keeps the model in a variable named after it: a model
    ``Calls`` with a field ``calls`` did not type-check (``mypy --strict`` in .ci/clients)."""
    clashes = [
        f"{name}.{field}"
        for name, component in schema["components"]["schemas"].items()
        for field in component.get("properties", {})
        if snake(name) == field
    ]
    assert clashes == []


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


# ---------------------------------------------------------------------------------------------
# The types are what the server sends (a too strict type would fail a client, and Schemathesis)


def component(schema: dict[str, Any], name: str, value: Any) -> list[str]:
    """The errors of ``value`` against the component ``name``."""
    target = {"$ref": f"#/components/schemas/{name}"}
    return [error.message for error in validator(schema, target).iter_errors(value)]


def test_house_rules_and_json_schemas_are_typed_by_ruleset(schema):
    components = schema["components"]["schemas"]
    for key, rules in RULESETS.items():
        game = camel(key)
        assert set(components[f"{game}Options"]["properties"]) == {o.key for o in rules.options}
        for n in range(rules.min_seats, rules.max_seats + 1):
            resolved = rules.resolve_options({}, n)
            assert component(schema, f"{game}Options", resolved) == [], (key, n)
            assert component(schema, "GameOptions", resolved) == [], (key, n)
        for name, preset in rules.presets.items():
            assert component(schema, f"{game}OptionsRequest", dict(preset)) == [], name
            assert component(schema, f"{game}OptionsRequest", {"preset": name}) == [], name
        assert component(schema, f"{game}OptionsRequest", {"no_such_rule": 1})
        for option in rules.describe_options():
            assert component(schema, "RulesetOption", option) == [], option
        assert component(schema, "JsonSchema", rules.hand_schema(tagged=True)) == [], key
        assert component(schema, "JsonSchema", rules.options_schema()) == [], key
    assert set(components["CompetitionOptions"]["properties"]) == set(RULESETS)


def test_a_players_figures_name_every_game(schema):
    figures = schema["components"]["schemas"]["PerGameFigures"]["properties"]
    assert set(figures) == set(RULESETS) == set(PER_GAME)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("format", "ruleset", "size"),
    [
        ("rotation", "terziglio", 3),
        ("club_night", "terziglio", 3),
        ("swiss", "briscola", 2),
        ("round_robin", "briscola", 2),
        ("knockout", "briscola", 2),
    ],
)
def test_a_drawn_round_is_what_the_schema_says(schema, club, olga, format, ruleset, size):
    competition = make_competition(
        club, olga, name=format, rulesets=[ruleset], format=format, table_size=size,
        planned_rounds=2, options={ruleset: {}},
    )  # fmt: skip
    enter(competition, olga, 6)
    by = Actor.for_user(olga)
    if not competition.rounds.exists():
        services.add_round(competition=competition, by=by)
    services.generate_round(round_=competition.rounds.get(number=1), by=by, seed=1)
    api = api_as(olga)
    answer = api.get(f"/api/v1/competitions/{competition.pk}/rounds/1/").json()
    assert answer["method"] and answer["metrics"]["repeated_pairs"] >= 0
    assert component(schema, "Round", answer) == []
    detail = api.get(f"/api/v1/competitions/{competition.pk}/").json()
    assert component(schema, "Competition", detail) == []


@pytest.mark.django_db
def test_a_players_statistics_and_a_games_audit_are_what_the_schema_says(
    schema, club, olga, terziglio
):
    game = play(terziglio, terziglio_won_by(1, 3), olga)
    api = api_as(olga)
    player = game.seats.get(index=1).player_id
    statistics = api.get(f"/api/v1/clubs/{club.slug}/players/{player}/").json()
    assert statistics["per_game"]["terziglio"]["games"] == 1
    assert component(schema, "PlayerStatistics", statistics) == []
    api.post(f"/api/v1/games/{game.pk}/lock/", {}, format="json")
    audit = api.get(f"/api/v1/games/{game.pk}/audit/").json()["results"]
    assert {event["action"] for event in audit} >= {"start_game", "record_hand", "lock_game"}
    for event in audit:
        assert component(schema, "GameAudit", event) == [], event


def test_the_clients_census_counts_any_unknown_and_free_maps(tmp_path):
    """``.ci/untyped_spots.py`` (run by ``.ci/clients`` on the generated clients)."""
    spec = importlib.util.spec_from_file_location("untyped_spots", ".ci/untyped_spots.py")
    counter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(counter)
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "game.py").write_text(
        "from typing import Any\n"
        "class Game:\n    id: int\n    totals: Any\n    additional_properties: dict[str, Any]\n"
        "    def to_dict(self) -> dict[str, Any]:\n        field_dict: dict[str, Any] = {}\n"
        "class Free:\n    additional_properties: dict[str, Any]\n"
        "class Points:\n    additional_properties: dict[str, int]\n"
    )
    declarations = tmp_path / "schema.d.ts"
    declarations.write_text(
        "export type webhooks = Record<string, never>;\n"
        "        Game: {\n            /** @enum {unknown} */\n            totals: unknown;\n"
        "            options: {\n                [key: string]: unknown;\n            };\n        };\n"
        "            200: {\n                headers: {\n"
        "                    [name: string]: unknown;\n                };\n            };\n"
    )
    assert counter.python_spots(tmp_path) == [
        "game.py: Game.totals: Any",
        "game.py: Free is a free map: dict[str, Any]",
    ]
    assert counter.typescript_spots(declarations) == [
        "schema.d.ts:4: totals: unknown;",
        "schema.d.ts:6: [key: string]: unknown;",
    ]
