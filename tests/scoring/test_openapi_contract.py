"""The OpenAPI schema holds what a client generator needs, over the whole schema (whatever app or
branch adds an operation: ``scoring/api/schema.py`` and docs/api.md say how to comply):

* it is a valid OpenAPI 3.0 document (openapi-spec-validator);
* every example validates against the schema it illustrates, and request examples are never
  shown as responses;
* every nullable schema has a type (a strict 3.0 reader ignores ``nullable`` without one), so
  nullable references are ``oneOf`` a reference and a typed null;
* no component name starts with ``_``; no description is a Python docstring;
* a request body is required when it has a required key (one whose keys are all optional may
  be left out: the views read it as ``{}``); every operation documents 401, every refusal has the one error
  shape, and the 412 error declares ``current_version``;
* every response header the server sends on a documented operation is declared, with the
  status it is sent with: the operations are exercised with the test client (a game played,
  replayed, corrected, removed, polled; the token endpoint refused and throttled), and every
  GET of the schema whose path parameters the test can fill;
* the live streams (plain async views, declared by ``scoring.api.schema``) are GETs answering
  ``text/event-stream``, with token authentication, ``Last-Event-ID``, and refusals in the one
  error shape; opened for real, they answer as declared.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import jsonschema
import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient
from drf_spectacular.generators import SchemaGenerator
from openapi_spec_validator import validate as validate_spec
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring import live
from scoring import services as scoring
from scoring.api.schema import camel
from scoring.models import Game
from scoring.rules import RULESETS
from tests.circuits.circuit_helpers import competition_with_results
from tests.clients import api_as
from tests.tournaments.helpers import briscola_won_by, enter, make_competition, play

pytestmark = pytest.mark.django_db

METHODS = ("get", "put", "post", "delete", "patch")
#: Headers of every answer (HTTP and the security middleware), not part of the API's contract.
GENERIC_HEADERS = {
    "allow",
    "cache-control",
    "content-language",
    "content-length",
    "content-security-policy",
    "content-type",
    "cross-origin-opener-policy",
    "expires",
    "referrer-policy",
    "set-cookie",
    "vary",
    "x-content-type-options",
    "x-frame-options",
}
DOCSTRINGISH = re.compile(r"``|:(func|class|meth|mod|attr|data):`|>>>|\braise_exception\b")


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema):
    for path, item in schema["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def nodes(node: Any, where: str = ""):
    """Every object of the document with where it is."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from nodes(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from nodes(value, f"{where}/{index}")


def as_json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema (draft 4): ``nullable`` becomes a null type."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    result = {key: as_json_schema(value) for key, value in node.items()}
    if isinstance(node.get("properties"), dict):  # names, not keywords ("type", "nullable")
        result["properties"] = {k: as_json_schema(v) for k, v in node["properties"].items()}
    if result.pop("nullable", False) is True and "type" in result:
        result["type"] = [result["type"], "null"]
        if "enum" in result and None not in result["enum"]:
            result["enum"] = [*result["enum"], None]
    return result


def validator(schema: dict, target: dict) -> jsonschema.Draft4Validator:
    """Validates against ``target``, whose references point into ``schema``'s components."""
    document = as_json_schema({**target, "components": schema["components"]})
    return jsonschema.Draft4Validator(document)


# ---------------------------------------------------------------------------------------------
# The document itself


def test_the_schema_is_valid_openapi(schema):
    validate_spec(json.loads(json.dumps(schema)))


def test_every_example_validates_against_its_schema(schema):
    checked = 0
    for path, method, operation in operations(schema):
        bodies = [("request", operation.get("requestBody", {}))]
        bodies += [(code, r) for code, r in operation["responses"].items()]
        for side, body in bodies:
            for media in body.get("content", {}).values():
                examples = [e["value"] for e in media.get("examples", {}).values()]
                if "example" in media:
                    examples.append(media["example"])
                for example in examples:
                    errors = list(validator(schema, media["schema"]).iter_errors(example))
                    assert not errors, (method, path, side, [e.message for e in errors])
                    checked += 1
    for name, component in schema["components"]["schemas"].items():
        if "example" in component:
            assert validator(schema, component).is_valid(component["example"]), name
    assert checked >= 10


def test_request_examples_are_never_shown_as_responses(schema):
    for path, method, operation in operations(schema):
        sent = {
            json.dumps(example["value"], sort_keys=True)
            for media in operation.get("requestBody", {}).get("content", {}).values()
            for example in media.get("examples", {}).values()
        }
        for code, response in operation["responses"].items():
            for media in response.get("content", {}).values():
                for example in media.get("examples", {}).values():
                    shown = json.dumps(example["value"], sort_keys=True)
                    assert shown not in sent, (method, path, code)


def test_nullable_schemas_have_a_type_so_strict_readers_see_them(schema):
    for where, node in nodes(schema):
        if node.get("nullable"):
            assert "type" in node, where
        all_of = node.get("allOf")
        if isinstance(all_of, list) and len(all_of) == 1:
            assert not node.get("nullable"), where


def test_component_names_and_descriptions_are_for_client_authors(schema):
    names = list(schema["components"]["schemas"])
    assert not [name for name in names if name.startswith("_")]
    docstrings = [
        where
        for where, node in nodes(schema)
        if isinstance(node.get("description"), str) and DOCSTRINGISH.search(node["description"])
    ]
    assert not docstrings


def test_request_bodies_are_required_and_refusals_have_the_one_shape(schema):
    error = schema["components"]["schemas"]["Error"]
    assert "current_version" in error["properties"]
    for path, method, operation in operations(schema):
        if "requestBody" in operation:
            body = operation["requestBody"]
            (media,) = body["content"].values()
            component = schema["components"]["schemas"].get(
                media["schema"].get("$ref", "").rsplit("/", 1)[-1], media["schema"]
            )
            needs = bool(component.get("required") or component.get("minProperties"))
            if component.get("type") != "object" or "properties" not in component:
                needs = True
            assert body.get("required") is needs, (method, path)
        responses = operation["responses"]
        assert "401" in responses, (method, path)
        for code, response in responses.items():
            if code.startswith("4"):
                content = response["content"]["application/json"]["schema"]
                assert content == {"$ref": "#/components/schemas/ErrorResponse"}, (method, path)
            assert response.get("description"), (method, path, code)


def resolved(schema, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def is_free(schema, node: dict) -> bool:
    """A bare free object (``OpenApiTypes.OBJECT``: no property named), or a list of them."""
    node = resolved(schema, node)
    if node.get("type") == "array":
        return is_free(schema, node.get("items", {}))
    shapes = ("properties", "oneOf", "anyOf", "allOf", "enum")
    return node.get("type", "object") == "object" and not any(key in node for key in shapes)


def test_no_success_answer_is_a_free_object(schema):
    """Every 2xx JSON answer names its fields (a client generator types it); no operation is
    free by design: a free value (house rules, a JSON Schema) is a field of a typed answer."""
    free, answers = [], 0
    for path, method, operation in operations(schema):
        for code, response in operation["responses"].items():
            media = response.get("content", {}).get("application/json")
            if code.startswith("2") and media:
                answers += 1
                if is_free(schema, media["schema"]):
                    free.append((operation["operationId"], method, path, code))
    assert not free
    assert answers >= 90


def test_the_token_endpoint_is_anonymous_and_json_only(schema):
    operation = schema["paths"]["/api/v1/auth/token/"]["post"]
    assert operation["security"] == []
    assert list(operation["requestBody"]["content"]) == ["application/json"]
    assert {"200", "400", "401", "429"} <= set(operation["responses"])


def test_hand_documents_come_from_the_rules_registry(schema):
    components = schema["components"]["schemas"]
    for union, suffix in (
        ("HandDocumentRequest", "HandRequest"),
        ("HandEntryRequest", "HandEntry"),
    ):
        # One member per game, told apart by the one-value `ruleset` of each of its shapes; no
        # discriminator mapping (it may not name a game of several shapes, itself a oneOf).
        games = [member["$ref"].rsplit("/", 1)[1] for member in components[union]["oneOf"]]
        assert games == [f"{camel(key)}{suffix}" for key in RULESETS]
        assert "discriminator" not in components[union]
        for key in RULESETS:
            game = components[f"{camel(key)}{suffix}"]
            shapes = [components[m["$ref"].rsplit("/", 1)[1]] for m in game.get("oneOf", [])]
            for shape in shapes or [game]:
                assert shape["properties"]["ruleset"]["enum"] == [key]
                assert "ruleset" in shape["required"]
    for key, rules in RULESETS.items():
        shapes = rules.hand_schemas(tagged=True)
        game = camel(key)
        for shape, shape_schema in shapes.items():
            name = f"{game}HandRequest" if len(shapes) == 1 else f"{game}{shape}HandRequest"
            assert components[name]["properties"] == shape_schema["properties"]
            assert components[name]["additionalProperties"] is False
            # As entered: the same, and the seating it was typed for, optional.
            entered = components[name.removesuffix("Request") + "Entry"]
            assert entered["properties"] == shape_schema["properties"] | {
                "seating": {"type": "integer", "minimum": 1, "description": ANY}
            }
            assert entered["required"] == shape_schema["required"]
            assert entered["additionalProperties"] is False
    hands = schema["paths"]["/api/v1/games/{game_id}/hands/"]["post"]
    body = hands["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/HandEntryRequest"}
    removal = schema["paths"]["/api/v1/games/{game_id}/hands/{number}/"]["delete"]
    reason = [p for p in removal["parameters"] if p["name"] == "reason"]
    assert reason and reason[0]["in"] == "query" and reason[0]["required"]


# ---------------------------------------------------------------------------------------------
# What the server sends


class Recorder:
    """Calls the API and keeps every (method, path, response)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, Any]] = []

    def __call__(self, client: APIClient, method: str, url: str, body=None, **headers):
        kwargs = {"format": "json"} if body is not None else {}
        response = getattr(client, method)(url, body, **kwargs, **headers)
        self.calls.append((method, url.split("?")[0], response))
        return response


def template_of(schema, url: str) -> str | None:
    for path in schema["paths"]:
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$"
        if re.match(pattern, url):
            return path
    return None


def play_a_game(call: Recorder, api: APIClient, club) -> int:
    hand = {"ruleset": "terziglio", "dealer": 0, "outcome": "played", "soloist": 0}
    hand |= {"contract": "solo", "soloist_points": 7}
    started = call(
        api,
        "post",
        f"/api/v1/clubs/{club.slug}/games/",
        {"ruleset": "terziglio", "players": ["Anna", "Bruno", "Carla"]},
    )
    assert started.status_code == 201, started.content
    game = started.json()["id"]
    hands = f"/api/v1/games/{game}/hands/"
    first = call(api, "post", hands, hand, HTTP_IDEMPOTENCY_KEY="one")
    call(api, "post", hands, hand, HTTP_IDEMPOTENCY_KEY="one")
    call(api, "post", hands, hand | {"dealer": 2}, HTTP_IDEMPOTENCY_KEY="one")  # 422
    call(api, "get", f"{hands}1/", HTTP_IF_NONE_MATCH=first["ETag"])
    corrected = call(
        api, "put", f"{hands}1/", {"document": hand, "reason": "x"}, HTTP_IF_MATCH=first["ETag"]
    )
    call(api, "put", f"{hands}1/", hand | {"soloist_points": 9}, HTTP_IF_MATCH=first["ETag"])
    call(api, "put", f"{hands}1/", hand)  # 428
    second = call(api, "post", hands, hand | {"dealer": 1}, HTTP_IDEMPOTENCY_KEY="two")
    call(api, "delete", f"{hands}2/?reason=twice", HTTP_IF_MATCH=second["ETag"])
    call(
        api,
        "post",
        f"/api/v1/games/{game}/corrections/",
        {"hands": {"1": hand}, "reason": "x"},
        HTTP_IF_MATCH=corrected["ETag"],
    )
    detail = call(api, "get", f"/api/v1/games/{game}/")
    call(api, "get", f"/api/v1/games/{game}/", HTTP_IF_NONE_MATCH=detail["ETag"])
    call(api, "post", f"/api/v1/games/{game}/lock/", {})
    call(api, "post", f"/api/v1/games/{game}/reopen/", {"reason": "x"})
    call(api, "post", f"/api/v1/games/{game}/abandon/", {"reason": "x"})
    return game


def checked(schema, call: Recorder) -> set[str]:
    """Checks every call's status, headers and JSON body against the schema; the statuses."""
    statuses = set()
    for method, url, response in call.calls:
        path = template_of(schema, url)
        assert path, url
        documented = schema["paths"][path][method]["responses"]
        code = str(response.status_code)
        assert code in documented, (method, path, code)
        declared = {h.lower() for h in documented[code].get("headers", {})}
        sent = {h.lower() for h in response.headers} - GENERIC_HEADERS
        assert sent <= declared, (method, path, code, sent - declared)
        # and the body is what the schema says (a list declared as an object fails here)
        media = documented[code].get("content", {}).get("application/json")
        if media and response.content and response["Content-Type"].startswith("application/"):
            errors = list(validator(schema, media["schema"]).iter_errors(response.json()))
            assert not errors, (method, path, code, [e.message for e in errors][:3])
        statuses.add(code)
    return statuses


def test_every_header_and_body_sent_is_declared(schema, club, olga, settings):
    call = Recorder()
    api = api_as(olga)
    game = play_a_game(call, api, club)
    made = call(
        api,
        "post",
        f"/api/v1/clubs/{club.slug}/competitions/",
        {
            "name": "Torneo di primavera",
            "rulesets": ["terziglio"],
            "format": "rotation",
            "planned_rounds": 2,
        },
    )
    assert made.status_code == 201, made.content
    created = f"/api/v1/competitions/{made.json()['id']}/"
    assert call(api, "patch", created, {"description": "", "best_of": 1}).status_code == 200
    assert call(api, "patch", f"/api/v1/clubs/{club.slug}/", {"name": "Circolo"}).status_code == 200
    plan = {"players": 7, "table_size": 3, "rounds": 2}
    assert call(api, "post", "/api/v1/schedule/", plan).status_code == 200
    competition = make_competition(club, olga)
    enter(competition, olga, 6)
    ended = f"/api/v1/competitions/{competition.pk}/"
    assert call(api, "post", f"{ended}finalize/", {}).status_code == 200
    assert call(api, "post", f"{ended}reopen/", {"reason": "x"}).status_code == 200
    rounds = f"/api/v1/competitions/{competition.pk}/rounds/"
    assert call(api, "post", rounds, {"date": "2026-04-11"}).status_code == 201
    call(api, "get", f"{rounds}1/")
    standings = call(api, "get", f"/api/v1/competitions/{competition.pk}/standings/")
    call(
        api,
        "get",
        f"/api/v1/competitions/{competition.pk}/standings/",
        HTTP_IF_NONE_MATCH=standings["ETag"],
    )
    anonymous = APIClient()
    call(anonymous, "get", f"/api/v1/games/{game}/", HTTP_AUTHORIZATION="Token wrong")
    settings.LOGIN_MAX_ATTEMPTS = 1
    for _ in range(3):
        call(anonymous, "post", "/api/v1/auth/token/", {"username": "olga", "password": "no"})
    filled = {
        "slug": club.slug,
        "game_id": game,
        "competition_id": competition.pk,
        "number": 1,
        "player_id": club.players.first().pk,
    }
    for path, method, operation in operations(schema):
        names = re.findall(r"\{([^}]+)\}", path)
        if is_stream(operation):
            continue  # never ends: test_the_streams_answer_as_declared reads them
        if method == "get" and set(names) <= set(filled):
            call(api, "get", path.format(**{n: filled[n] for n in names}))

    statuses = checked(schema, call)
    assert {"200", "201", "304", "401", "412", "422", "428", "429"} <= statuses


def test_the_circuit_answers_are_declared(schema, club, other_club, olga, bea):
    call = Recorder()
    organizer, guest = api_as(olga), api_as(bea)
    made = call(organizer, "post", f"/api/v1/clubs/{club.slug}/circuits/", {"name": "Circuito"})
    assert made.status_code == 201, made.content
    base = f"/api/v1/circuits/{made.json()['id']}"
    call(organizer, "post", f"{base}/clubs/", {"club": other_club.slug})
    call(guest, "post", f"{base}/clubs/{other_club.slug}/accept/", {})
    uno = competition_with_results(club, olga, "Coppa Uno", {"Anna": 9, "Bruno": 5})
    due = competition_with_results(other_club, bea, "Coppa Due", {"Elena": 9}, final=False)
    call(organizer, "post", f"{base}/competitions/", {"competition": uno.pk})
    call(guest, "post", f"{base}/competitions/", {"competition": due.pk})
    anna = club.players.get(display_name="Anna").pk
    elena = other_club.players.get(display_name="Elena").pk
    call(organizer, "post", f"{base}/links/", {"a": anna, "b": elena})
    call(organizer, "patch", f"{base}/", {"points_table": [10, 6, 4], "best_of": None})
    call(organizer, "get", f"{base}/")
    call(organizer, "get", f"/api/v1/clubs/{club.slug}/circuits/")
    standings = call(organizer, "get", f"{base}/standings/")
    assert standings.json()["contenders"] and standings.json()["rows"][0]["outlook"]
    call(guest, "post", f"{base}/clubs/{other_club.slug}/leave/", {})
    assert checked(schema, call) == {"200", "201"}


def test_the_team_answers_are_declared(schema, club, olga):
    call, api = Recorder(), api_as(olga)
    palio = make_competition(club, olga, name="Palio", rulesets=["briscola"], format="round_robin")
    base = f"/api/v1/competitions/{palio.pk}"
    ok = {"200", "201"}
    call(api, "put", f"{base}/team-rules/", {"boards": 2, "result_by": "games"})
    rosters, teams = {}, []
    for name in ("Borgo", "Castello"):
        rosters[name] = [scoring.new_player(club, f"{name} {i}").pk for i in range(4)]
        made = call(api, "post", f"{base}/teams/", {"name": name, "players": rosters[name]})
        teams.append(made.json()["id"])
    extra = {"player": scoring.new_player(club, "Riserva").pk}
    call(api, "post", f"{base}/teams/{teams[0]}/roster/", extra)
    call(api, "delete", f"{base}/teams/{teams[0]}/roster/", extra)
    (match,) = call(api, "post", f"{base}/team-matches/", {}).json()
    url = f"{base}/team-matches/{match['id']}"
    when = {"date": "2026-05-02", "start_time": "20:30"}
    call(api, "put", f"{base}/team-rounds/{match['round']}/schedule/", when)
    call(api, "put", f"{url}/schedule/", when)
    for side in ("home", "away"):
        players = rosters[match[side]["name"]]
        lineup = {"1": players[:2], "2": players[2:]}
        boards = call(api, "put", f"{url}/lineup/", {"side": side, "lineup": lineup}).json()
    for board in boards["boards"]:
        play(Game.objects.get(pk=board["game"]), briscola_won_by(0, 4, 2), olga)
    call(api, "get", f"{url}/")
    call(api, "post", f"{url}/confirm/", {"home_score": 4, "away_score": 0})
    for path in ("team-rules", "teams", "team-matches", "team-standings"):
        call(api, "get", f"{base}/{path}/")
    assert checked(schema, call) == ok, [(m, u, r.status_code) for m, u, r in call.calls]


# ---------------------------------------------------------------------------------------------
# The live streams

STREAMS = ("/api/v1/games/{game_id}/events/", "/api/v1/competitions/{competition_id}/events/")


def is_stream(operation) -> bool:
    return "text/event-stream" in operation["responses"].get("200", {}).get("content", {})


def events_of(operation) -> str:
    return operation["responses"]["200"]["content"]["text/event-stream"]["schema"]["description"]


def test_the_streams_are_declared_as_event_streams_with_their_gets_access(schema):
    streams = [(path, method) for path, method, op in operations(schema) if is_stream(op)]
    assert sorted(streams) == sorted((path, "get") for path in STREAMS)
    for path in STREAMS:
        item = schema["paths"][path]
        assert list(item) == ["get"], path
        operation = item["get"]
        # the same access as the GET of what the stream follows: anyone may follow a public
        # game or competition (security: []), with a token or a session where it is private
        parent = schema["paths"][path.removesuffix("events/")]["get"]
        assert operation["security"] == parent["security"], path
        (media,) = operation["responses"]["200"]["content"].items()
        assert media[0] == "text/event-stream"
        assert media[1]["schema"]["type"] == "string"
        for name in ("`hello`", "`reload`", "`end`", "`: heartbeat`", "Last-Event-ID"):
            assert name in events_of(operation), (path, name)
        parameters = {(p["in"], p["name"]) for p in operation["parameters"]}
        assert {("header", "Last-Event-ID"), ("query", "last")} <= parameters, path
        responses = operation["responses"]
        assert {"200", "401", "404", "429", "503"} <= set(responses), path
        assert "Retry-After" in responses["429"]["headers"], path
        assert "Retry-After" in responses["503"]["headers"], path
        assert "X-Accel-Buffering" in responses["200"]["headers"], path
    game, competition = (schema["paths"][path]["get"] for path in STREAMS)
    assert "`game`" in events_of(game)
    assert {"`standings`", "`gone`", "`table`"} <= set(re.findall(r"`\w+`", events_of(competition)))
    assert ("query", "big") in {(p["in"], p["name"]) for p in competition["parameters"]}


async def first_events(response, until: str | None = None) -> list[tuple[str, dict]]:
    """The events of an open stream up to ``until`` (or up to its end), as (name, data)."""
    events, buffer = [], ""
    async for chunk in response.streaming_content:
        buffer += chunk.decode()
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields = dict(
                line.split(": ", 1) for line in block.splitlines() if not line.startswith(":")
            )
            if "event" in fields:
                events.append((fields["event"], json.loads(fields["data"])))
                if fields["event"] == until:
                    return events
    return events


@pytest.mark.django_db(transaction=True)  # the stream reads the state from another thread
def test_the_streams_answer_as_declared(schema, club, olga, terziglio, settings):
    competition = make_competition(club, olga)
    key = Token.objects.create(user=olga).key
    call = Recorder()
    game_url = f"/api/v1/games/{terziglio.pk}/events/"
    competition_url = f"/api/v1/competitions/{competition.pk}/events/"

    async def opened(token: str, url: str):
        # (per request: AsyncClient(headers=...) drops them in Django 6.1)
        response = await AsyncClient().get(url, headers={"Authorization": f"Token {token}"})
        call.calls.append(("get", url, response))
        return response

    async def ended(response) -> list[tuple[str, dict]]:
        """The events up to ``hello``; then the token's end closes the stream (read to its
        end: the stream gives its place back)."""
        seen = await first_events(response, "hello")
        live.publish(live.token_channel(key), "end", {"reason": "token"})
        return seen + await first_events(response)

    async def scenario() -> None:
        game = await opened(key, game_url)
        assert game.status_code == 200, game.content
        assert game["Content-Type"].startswith("text/event-stream")
        state = {"id": terziglio.pk, "version": terziglio.version, "status": terziglio.status}
        assert await ended(game) == [("hello", state), ("end", {"reason": "token"})]
        standings = await opened(key, competition_url)
        assert [name for name, _ in await ended(standings)] == ["hello", "end"]
        assert (await opened("wrong", game_url)).status_code == 401
        assert (await opened(key, "/api/v1/games/999999/events/")).status_code == 404
        settings.LIVE_STREAMS_PER_CLIENT = 1
        held = await opened(key, game_url)
        assert (await opened(key, competition_url)).status_code == 429
        assert [name for name, _ in await ended(held)] == ["hello", "end"]

    async_to_sync(scenario)()
    assert checked(schema, call) == {"200", "401", "404", "429"}
    (throttled,) = [response for _, _, response in call.calls if response.status_code == 429]
    assert throttled.json()["errors"][0]["code"] == "throttled" and throttled["Retry-After"]


def test_a_player_id_no_column_holds_is_an_unknown_player_not_a_crash(club, olga):
    # Found by schemathesis once the game document was typed: ids past 64 bits.
    refused = api_as(olga).post(
        f"/api/v1/clubs/{club.slug}/games/",
        {"ruleset": "terziglio", "players": [-9540005607811225485312, 2**63, "Carla"]},
        format="json",
    )
    assert refused.status_code == 400
    assert {e["field"] for e in refused.json()["errors"]} >= {"players[0]", "players[1]"}


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_the_schema_is_generated_without_a_warning(language):
    """A warning (two operations with one operationId, a view it cannot read, two choice sets
    of one field name that differ only once their labels are translated) fails the production
    deployment check, in the site's language; it is caught here first, whichever app added the
    operation."""
    from django.utils import translation
    from drf_spectacular.drainage import GENERATOR_STATS

    GENERATOR_STATS.reset()
    with GENERATOR_STATS.silence(), translation.override(language):
        SchemaGenerator().get_schema(request=None, public=True)
    assert dict(GENERATOR_STATS._warn_cache) == {}
    assert dict(GENERATOR_STATS._error_cache) == {}


def test_the_programs_in_the_api_docs_are_the_ones_ci_type_checks():
    """docs/api.md shows the Python and TypeScript game programs; CI type-checks and runs the
    files in clients/. The page's copies must be those files, to the character."""
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "api.md").read_text()
    for heading, fence, program in (
        ("## Python", "```python", "clients/python/play_terziglio.py"),
        ("## TypeScript", "```typescript", "clients/typescript/play-terziglio.ts"),
    ):
        section = page.split(f"\n{heading}\n", 1)[1]
        shown = section.split(f"{fence}\n", 1)[1].split("\n```", 1)[0]
        assert shown.strip() == (root / program).read_text().strip(), program
