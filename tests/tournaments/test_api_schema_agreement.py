"""The schema says what the server does (issue 33, point 8; .ci/schemathesis checks it with
generated requests): ``null`` is refused where a field is not nullable, a body whose keys are all
optional may be left out, unknown keys are refused and declared so, a reason that must be given
is required and not blank in the schema, ``If-Match`` and times have the form the server reads,
and each create links to what may be done with what it made."""

from __future__ import annotations

import re

import pytest
from drf_spectacular.generators import SchemaGenerator

from scoring.services import Actor
from tournaments import services
from tournaments.models import Competition

from .api_helpers import fields, url

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def operation(schema, path, method="post"):
    return schema["paths"][path][method]


def body_of(schema, path, method="post"):
    (media,) = operation(schema, path, method)["requestBody"]["content"].values()
    return schema["components"]["schemas"][media["schema"]["$ref"].rsplit("/", 1)[-1]]


def test_null_is_refused_where_the_schema_says_not_nullable(api, club, schema):
    component = body_of(schema, "/api/v1/clubs/{slug}/competitions/")
    assert not component["properties"]["description"].get("nullable")
    body = {"name": "Torneo", "rulesets": ["terziglio"], "description": None, "slug": None}
    response = api.post("/api/v1/clubs/uno/competitions/", body, format="json")
    assert response.status_code == 400
    assert fields(response) >= {("description", "type"), ("slug", "type")}
    assert not Competition.objects.exists()


def test_null_stays_accepted_where_the_schema_says_nullable(api, tournament, schema):
    component = body_of(schema, "/api/v1/competitions/{competition_id}/", "patch")
    assert component["properties"]["end_date"]["nullable"] is True
    response = api.patch(url(tournament), {"end_date": None}, format="json")
    assert response.status_code == 200, response.json()


def test_a_body_whose_keys_are_all_optional_may_be_left_out(api, drawn, schema):
    path = "/api/v1/competitions/{competition_id}/entries/{entry_id}/withdraw/"
    assert operation(schema, path)["requestBody"]["required"] is False
    assert (
        operation(schema, "/api/v1/competitions/{competition_id}/rounds/")["requestBody"][
            "required"
        ]
        is False
    )
    entry = drawn.entries.first()
    response = api.post(url(drawn, f"entries/{entry.pk}/withdraw/"))
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "withdrawn"


def test_a_body_with_a_required_key_is_required(schema):
    reopen = "/api/v1/competitions/{competition_id}/reopen/"
    assert operation(schema, reopen)["requestBody"]["required"] is True
    bulk = body_of(schema, "/api/v1/clubs/{slug}/players/bulk/")
    assert (bulk["minProperties"], bulk["maxProperties"]) == (1, 1)  # text or csv
    assert operation(schema, "/api/v1/clubs/{slug}/players/bulk/")["requestBody"]["required"]


def test_unknown_keys_are_refused_and_the_schema_says_so(api, drawn, olga, schema):
    component = body_of(schema, "/api/v1/competitions/{competition_id}/rounds/{number}/redraw/")
    assert component["additionalProperties"] is False
    components = schema["components"]["schemas"]
    # Every request body of ours (a StrictInput, named … Request); the token's credentials are
    # DRF's own serializer, which reads username and password and nothing else.
    inputs = [
        name
        for name, component in components.items()
        if name.endswith("Request") and "properties" in component and name != "CredentialsRequest"
    ]
    assert len(inputs) > 50
    assert all(components[name]["additionalProperties"] is False for name in inputs)
    response = api.post(url(drawn, "rounds/1/redraw/"), {"colour": "blue"}, format="json")
    assert response.status_code == 400
    assert fields(response) == {("colour", "unknown_key")}


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/competitions/{competition_id}/reopen/",
        "/api/v1/competitions/{competition_id}/rounds/{number}/reopen/",
        "/api/v1/games/{game_id}/reopen/",
        "/api/v1/games/{game_id}/abandon/",
        "/api/v1/games/{game_id}/hands/{number}/reject/",
    ],
)
def test_a_reason_that_must_be_given_is_required_and_not_blank(schema, path):
    component = body_of(schema, path)
    assert "reason" in component["required"]
    pattern = re.compile(component["properties"]["reason"]["pattern"])
    assert pattern.search("ill") and not pattern.search("  \n")


def test_a_blank_reason_is_refused_naming_it(api, tournament, olga):
    services.finalize_competition(competition=tournament, by=Actor.for_user(olga))
    for body in ({}, {"reason": "   "}):
        response = api.post(url(tournament, "reopen/"), body, format="json")
        assert response.status_code == 400
        assert fields(response) == {("reason", "required")}
    tournament.refresh_from_db()
    assert tournament.finalized_at is not None


def test_if_match_is_declared_as_entity_tags(schema):
    (parameter,) = [
        p
        for p in operation(schema, "/api/v1/games/{game_id}/hands/{number}/", "put")["parameters"]
        if p["name"] == "If-Match"
    ]
    pattern = re.compile(parameter["schema"]["pattern"])
    assert pattern.search('"h380.1"') and pattern.search('W/"g4.2", "h1.1"')
    assert not pattern.search("*") and not pattern.search("h380.1")


def test_a_time_is_declared_as_the_server_reads_it(api, tournament, schema):
    component = body_of(schema, "/api/v1/competitions/{competition_id}/rounds/")
    pattern = re.compile(component["properties"]["start_time"]["pattern"])
    assert pattern.search("20:30") and not pattern.search("20:30:00")
    assert not pattern.search("24:00")
    response = api.post(url(tournament, "rounds/"), {"start_time": "20:30:00"}, format="json")
    assert response.status_code == 400
    assert fields(response) == {("start_time", "type")}
    assert not tournament.rounds.exists()


def test_creates_link_to_what_may_be_done_with_what_they_made(schema):
    made = operation(schema, "/api/v1/clubs/{slug}/competitions/")["responses"]["201"]["links"]
    assert made["v1_competitions_retrieve"]["parameters"] == {
        "competition_id": "$response.body#/id"
    }
    rounds = operation(schema, "/api/v1/competitions/{competition_id}/rounds/")
    close = rounds["responses"]["201"]["links"]["v1_competitions_rounds_close_create"]
    assert close["parameters"] == {
        "number": "$response.body#/number",
        "competition_id": "$request.path.competition_id",
    }
    hands = operation(schema, "/api/v1/games/{game_id}/hands/")["responses"]["201"]["links"]
    assert hands["v1_games_hands_update"]["parameters"]["header.If-Match"] == (
        "$response.header.ETag"
    )
    operation_ids = {op["operationId"] for item in schema["paths"].values() for op in item.values()}
    for response in (made, hands):
        assert {link["operationId"] for link in response.values()} <= operation_ids


def test_texts_say_which_characters_they_refuse(api, club, schema):
    component = body_of(schema, "/api/v1/clubs/{slug}/competitions/")
    name = re.compile(component["properties"]["name"]["pattern"])
    description = re.compile(component["properties"]["description"]["pattern"])
    assert name.search("Torneo d'autunno") and not name.search("Torneo\u0000")
    assert not name.search("Torneo\nd'autunno") and description.search("Due righe\ne basta")
    assert description.search("") and "oneOf" not in component["properties"]["description"]
    response = api.post(
        "/api/v1/clubs/uno/competitions/",
        {"name": "Torneo\u202e", "rulesets": ["terziglio"]},
        format="json",
    )
    assert response.status_code == 400
    assert fields(response) == {("name", "control_character")}


def test_a_game_document_is_closed_and_its_abandon_reason_nullable(schema):
    component = body_of(schema, "/api/v1/clubs/{slug}/games/")
    assert component["additionalProperties"] is False
    assert component["properties"]["abandon_reason"]["nullable"] is True
