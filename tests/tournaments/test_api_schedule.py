"""The competition API, the schedule preview: the CLI's build, its validation, who may ask.
And the OpenAPI schema of the competition paths."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from scoring.rules import RULESETS
from tournaments import services
from tournaments.models import Competition, Entry, Format, Kind, RepeatObjective, Round
from tournaments.scheduling.cli import build
from tournaments.standings import SCHEMES, TIE_BREAKS

from .api_helpers import fields

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Schedule preview


def without_seconds(data: dict) -> dict:
    return data | {"metrics": {k: v for k, v in data["metrics"].items() if k != "seconds"}}


@pytest.mark.parametrize(
    "body",
    [
        {"players": 13, "table_size": 3, "rounds": 4, "format": "rotation", "seed": 2},
        {"players": 9, "table_size": 3, "rounds": 3, "format": "swiss"},
        {"players": 5, "table_size": 2, "rounds": 6, "format": "round_robin"},
    ],
)
def test_schedule_preview_is_the_cli_build(api, body):
    response = api.post("/api/v1/schedule/", body, format="json")
    assert response.status_code == 200, response.json()
    expected = build(
        body["players"], body["table_size"], body["rounds"], body["format"], body.get("seed", 0)
    )
    assert without_seconds(response.json()) == without_seconds(expected)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, {("players", "required"), ("table_size", "required"), ("rounds", "required")}),
        ({"players": 501, "table_size": 3, "rounds": 4}, {("players", "range")}),
        ({"players": 1, "table_size": 3, "rounds": 4}, {("players", "range")}),
        ({"players": 3, "table_size": 4, "rounds": 4}, {("players", "range")}),
        ({"players": 12, "table_size": 9, "rounds": 4}, {("table_size", "range")}),
        ({"players": 12, "table_size": 1, "rounds": 4}, {("table_size", "range")}),
        ({"players": 12, "table_size": 3, "rounds": 61}, {("rounds", "range")}),
        ({"players": 12, "table_size": 3, "rounds": 0}, {("rounds", "range")}),
        ({"players": "12", "table_size": 3.0, "rounds": True}, {
            ("players", "type"), ("table_size", "type"), ("rounds", "type")}),
        ({"players": 12, "table_size": 3, "rounds": 4, "format": "ko"}, {("format", "choice")}),
        ({"players": 12, "table_size": 3, "rounds": 4, "format": "round_robin"},
         {("table_size", "choice")}),
        ({"players": 12, "table_size": 3, "rounds": 4, "seed": -5}, {("seed", "range")}),
        ({"players": 12, "table_size": 3, "rounds": 4, "tables": 4}, {("tables", "unknown_key")}),
    ],
)  # fmt: skip
def test_schedule_preview_validation_names_the_field(api, body, expected):
    response = api.post("/api/v1/schedule/", body, format="json")
    assert response.status_code == 400
    assert fields(response) == expected


def test_schedule_preview_needs_a_signed_in_caller():
    body = {"players": 13, "table_size": 3, "rounds": 4}
    response = APIClient().post("/api/v1/schedule/", body, format="json")
    assert response.status_code in (401, 403)
    assert "rounds" not in response.json()


# ---------------------------------------------------------------------------------------------
# OpenAPI


def test_the_openapi_schema_lists_the_competition_paths(api):
    response = api.get("/api/schema/?format=json")
    assert response.status_code == 200
    paths = json.loads(response.content)["paths"]
    prefix = "/api/v1/competitions/{competition_id}"
    expected = {
        "/api/v1/clubs/{slug}/competitions/": {"get", "post"},
        f"{prefix}/": {"get"},
        f"{prefix}/entries/": {"get", "post"},
        f"{prefix}/entries/{{entry_id}}/withdraw/": {"post"},
        f"{prefix}/rounds/": {"get", "post"},
        f"{prefix}/rounds/{{number}}/": {"get"},
        f"{prefix}/rounds/{{number}}/check-ins/": {"post"},
        f"{prefix}/rounds/{{number}}/generate/": {"post"},
        f"{prefix}/rounds/{{number}}/swap/": {"post"},
        f"{prefix}/rounds/{{number}}/publish/": {"post"},
        f"{prefix}/rounds/{{number}}/close/": {"post"},
        f"{prefix}/tables/{{table_id}}/forfeit/": {"post"},
        f"{prefix}/standings/": {"get"},
        "/api/v1/schedule/": {"post"},
    }
    for path, methods in expected.items():
        assert path in paths, path
        assert set(paths[path]) >= methods, path
    operation = paths[f"{prefix}/standings/"]["get"]
    assert "If-None-Match" in {p["name"] for p in operation["parameters"]}
    assert "304" in operation["responses"]


def resolved(schema: dict, node: dict) -> dict:
    """``node`` with its ``$ref`` (and those of an ``allOf`` of one) looked up in ``schema``."""
    while True:
        if "$ref" in node:
            node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
        elif len(node.get("allOf", ())) == 1:
            node = node["allOf"][0]
        else:
            return node


def request_fields(schema: dict, path: str) -> dict[str, dict]:
    body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return {
        name: resolved(schema, field)
        for name, field in resolved(schema, body)["properties"].items()
    }


def test_the_openapi_schema_shows_the_real_request_fields(api):
    schema = json.loads(api.get("/api/schema/?format=json").content)
    create = request_fields(schema, "/api/v1/clubs/{slug}/competitions/")
    assert set(create) == {
        "name", "slug", "kind", "format", "rulesets", "options", "table_size", "min_table_size",
        "max_table_size", "planned_rounds",
        "double_round", "third_place", "bracket_reset", "cut_to", "scheme", "placement_points",
        "early_rounds_hands_to_win", "semi_final_hands_to_win", "final_hands_to_win",
        "tie_breaks", "best_of",
        "min_rounds", "start_date", "end_date", "public", "notify_entrants", "description",
        "hands_must_be_accepted",
    }  # fmt: skip
    # Enums and limits come from the models and the registries, not from a copy.
    assert create["kind"]["enum"] == list(Kind.values)
    assert create["format"]["enum"] == list(Format.values)
    assert create["scheme"]["enum"] == list(SCHEMES)
    assert resolved(schema, create["rulesets"]["items"])["enum"] == list(RULESETS)
    assert resolved(schema, create["tie_breaks"]["items"])["enum"] == list(TIE_BREAKS)
    assert create["name"]["maxLength"] == Competition._meta.get_field("name").max_length
    assert create["start_date"]["format"] == "date"
    generate = request_fields(
        schema, "/api/v1/competitions/{competition_id}/rounds/{number}/generate/"
    )
    assert set(generate) == {"seed", "method", "objective"}
    assert (generate["seed"]["minimum"], generate["seed"]["maximum"]) == (0, Round.SEED_MAX)
    assert generate["method"]["enum"] == list(
        services.CLUB_NIGHT_METHODS + services.SWISS_FIRST_METHODS
    )
    assert generate["objective"]["enum"] == list(RepeatObjective.values)
    entry = request_fields(schema, "/api/v1/competitions/{competition_id}/entries/")
    assert set(entry) == {"player", "partner", "seed"}
    assert entry["seed"]["maximum"] == Entry.SEED_MAX
    # The hand documents are the rules registry's (tests/scoring/test_openapi_contract.py),
    # with examples.
    hands = schema["paths"]["/api/v1/games/{game_id}/hands/"]["post"]["requestBody"]
    assert hands["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/HandEntryRequest"
    }
    assert hands["content"]["application/json"]["examples"]
