"""How both apps' API describes itself to client generators: the one module an API view needs
for a typed schema (``docs/api.md``, "Typing a new endpoint").

* :class:`AutoSchema` (``DEFAULT_SCHEMA_CLASS``): docstrings are for us, not for client
  authors: an operation or a component is described only where ``extend_schema(description=…)``
  or ``extend_schema_serializer(description=…)`` says so.
* :func:`request_example`: an example shown on the request side only.
* :func:`sends`: the response headers an operation sets (``ETag``, ``Location``…), declared in
  ``extend_schema(extensions=sends(...))``.
* :data:`HAND_DOCUMENT` / ``_REQUEST`` / :data:`HAND_ENTRY_REQUEST`: each game's hand document
  (stored, sent, entered with its ``seating``), from ``Ruleset.hand_schemas``, never by hand.
* ``scoring.api.schema_options``: each game's house rules (stored, sent), by ruleset, and the
  JSON Schemas of ``/api/v1/rulesets/``, as components (:data:`GAME_OPTIONS`…).
* :data:`STREAMS`: the live streams (``text/event-stream``), plain async Django views that
  drf-spectacular does not see, declared beside the GET of what they follow, with its security.
* :func:`postprocess` (``POSTPROCESSING_HOOKS``), applied to the whole schema: the hand
  components; the streams; the headers declared with :func:`sends`, plus those every operation may send
  (``WWW-Authenticate`` with a 401, ``Retry-After`` with a 429, ``ETag`` with a 304); a 401 on
  every operation (a wrong token is refused wherever it is sent); a request body required when
  it has a required key (the views read a missing body as ``{}``); and nullable references written
  so that a strict OpenAPI 3.0 validator reads them as nullable.

``tests/scoring/test_openapi_contract.py`` holds the whole schema to this, whichever app or
branch adds an operation.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import get_override
from drf_spectacular.utils import OpenApiExample

from scoring.api import links
from scoring.api.inputs import StrictInput, Text
from scoring.api.schema_options import camel, option_components
from scoring.rules import RULESETS
from scoring.signals import GAME_CHANGES

COMPONENTS = "#/components/schemas/"
EXTENSION = "x-segnapunti-headers"


def ref(name: str) -> dict[str, str]:
    return {"$ref": COMPONENTS + name}


# ---------------------------------------------------------------------------------------------
# Descriptions and examples


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's, without the docstrings of views and serializers as descriptions."""

    def get_description(self) -> str:
        return ""

    def _insert_field_validators(self, field, schema):
        """A text's ``pattern`` says itself whether a blank one is taken: not drf-spectacular's
        ``oneOf`` of the pattern and a blank string (which a blank text would match twice)."""
        super()._insert_field_validators(field, schema)
        if isinstance(field, Text) and len(schema.get("oneOf", ())) == 2:
            schema.update(schema.pop("oneOf")[0])

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        if get_override(serializer, "description") is None:
            schema.pop("description", None)
        if direction == "request" and isinstance(serializer, StrictInput):
            schema["additionalProperties"] = False  # unknown keys are refused (unknown_key)
        if direction == "request":
            schema.update(getattr(serializer, "schema_extra", {}))
        return schema


def request_example(name: str, value: Any, **kwargs: Any) -> OpenApiExample:
    """An example of a request body (never shown as a response)."""
    return OpenApiExample(name, value=value, request_only=True, **kwargs)


# ---------------------------------------------------------------------------------------------
# Headers

#: Every response header the API sets, as a client reads it.
HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {
        "description": "The validator of what was answered (a game, a hand, standings): send it "
        "back in `If-Match` to change exactly this version, or in `If-None-Match` to poll.",
        "schema": {"type": "string", "example": '"h380.1"'},
    },
    "Location": {
        "description": "The address of what was made.",
        "schema": {"type": "string", "example": "/api/v1/games/44/hands/5/"},
    },
    "Idempotent-Replayed": {
        "description": "`true` when this is the stored first answer to an earlier request with "
        "the same `Idempotency-Key` (nothing was stored again).",
        "schema": {"type": "string", "enum": ["true"]},
    },
    "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "schema": {"type": "integer", "minimum": 0},
    },
    "WWW-Authenticate": {
        "description": "The scheme to authenticate with: `Token`.",
        "schema": {"type": "string"},
    },
    "X-Accel-Buffering": {
        "description": "`no`: a proxy (nginx) passes each event on at once instead of buffering.",
        "schema": {"type": "string", "enum": ["no"]},
    },
}
#: ``If-Match``: a list of entity tags (RFC 9110), each quoted, weak ones prefixed with ``W/``.
#: Where it is required, ``*`` and a blank one are the 428 of a write that needs a version;
#: where it is optional, they mean "whatever the version" (as none).
ENTITY_TAG_LIST = r'(W/)?"[^"]*"([ \t]*,[ \t]*(W/)?"[^"]*")*'
IF_MATCH_REQUIRED = rf"^[ \t]*{ENTITY_TAG_LIST}[ \t]*$"
IF_MATCH_OPTIONAL = rf"^[ \t]*(\*|{ENTITY_TAG_LIST})?[ \t]*$"

#: Headers sent with a status whatever the operation.
HEADERS_BY_STATUS = {"304": ("ETag",), "401": ("WWW-Authenticate",), "429": ("Retry-After",)}


def sends(**by_status: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """``extend_schema(extensions=sends(_201=("ETag", "Location")))``: the headers an operation
    sets, by status (``_200``, ``_201``...; a name of :data:`HEADERS`)."""
    headers = {}
    for key, names in by_status.items():
        unknown = set(names) - set(HEADERS)
        assert not unknown, f"undeclared header(s) {unknown}: add them to HEADERS"
        headers[key.lstrip("_")] = list(names)
    return {EXTENSION: headers}


#: What each refusal means, for the responses that say nothing more.
STATUS_DESCRIPTIONS = {
    "200": "Done.",
    "201": "Made: `Location` says where.",
    "204": "Done; nothing to answer.",
    "304": "Not modified: the validator sent in `If-None-Match` is still current.",
    "400": "Refused input: each error names its field and what is wrong.",
    "401": "Not authenticated: no token, or a wrong or expired one.",
    "403": "Authenticated, but not allowed to do this.",
    "404": "Not found, or not visible to the caller.",
    "409": "Refused in the current state (a locked game, a finished round...).",
    "412": "`If-Match` no longer names the current version: read it again "
    "(`current_version` in the error).",
    "413": "The body is too large.",
    "422": "The `Idempotency-Key` was used before with another body.",
    "428": "A precondition (`If-Match`) is required.",
    "429": "Too many tries: wait `Retry-After` seconds.",
    "503": "Unavailable for now: wait `Retry-After` seconds.",
}


# ---------------------------------------------------------------------------------------------
# Hand documents, from the rules registry


#: The optional ``seating`` of a hand entered (``record_hand``); not of a correction or import.
SEATING = {
    "type": "integer",
    "minimum": 1,
    "description": "The game's `seating` as read when the hand was typed: if the players "
    "changed since, the hand is refused (409 `seating_changed`, naming who replaced whom) and "
    "nothing is stored. Left out, the hand is credited to whoever sits there now.",
}
#: A hand document as stored, as sent, as entered: (suffix, tagged, with seating, description).
FORMS = (
    ("", False, False, ", as stored."),
    ("Request", True, False, ", naming its ruleset."),
    ("Entry", True, True, ", naming its ruleset, as entered (with the seating it was typed for)."),
)


def hand_components() -> dict[str, dict[str, Any]]:
    """One component per shape of each game's hand document, one per game (``oneOf`` its
    shapes), in each of the ``FORMS`` (``TerziglioHand``, ``…HandRequest``, ``…HandEntry``); then
    ``HandDocument``, ``HandDocumentRequest`` and ``HandEntryRequest`` (by ``ruleset``)."""
    components: dict[str, dict[str, Any]] = {}
    games: dict[str, dict[str, str]] = {suffix: {} for suffix, *_rest in FORMS}
    for key, rules in RULESETS.items():
        game = camel(key)
        for suffix, tagged, seating, description in FORMS:
            shapes = rules.hand_schemas(tagged=tagged)
            if seating:
                for shape in shapes.values():
                    shape["properties"] = {**shape["properties"], "seating": SEATING}
            name = f"{game}Hand{suffix}"
            if len(shapes) == 1:
                (components[name],) = shapes.values()
            else:
                names = [f"{game}{shape}Hand{suffix}" for shape in shapes]
                components.update(zip(names, shapes.values(), strict=True))
                components[name] = {"oneOf": [ref(n) for n in names]}
            components[name]["description"] = f"A hand of {rules.name} (docs/rules/{key}.md)" + (
                description
            )
            games[suffix][key] = name
    components["HandDocument"] = {
        "description": "A hand document of any game, as stored (the game's `ruleset` says which).",
        "anyOf": [ref(name) for name in games[""].values()],
    }
    for suffix, name, description in (
        ("Request", "HandDocumentRequest", ""),
        ("Entry", "HandEntryRequest", " With `seating`, refused (409) if the players changed."),
    ):
        # No `discriminator`: a game of several shapes is itself a oneOf, which a mapping may
        # not name; each shape's `ruleset` (a one-value enum) tells the games apart all the same.
        components[name] = {
            "description": "A hand document, naming the game's ruleset (`ruleset`, which tells "
            "the games apart): the rules engine reads it (400 naming the field when it breaks a "
            "rule of the game)." + description,
            "oneOf": [ref(n) for n in games[suffix].values()],
        }
    return components


HAND_DOCUMENT = ref("HandDocument")
HAND_DOCUMENT_REQUEST = ref("HandDocumentRequest")
HAND_ENTRY_REQUEST = ref("HandEntryRequest")
GAME_OPTIONS = ref("GameOptions")
GAME_OPTIONS_REQUEST = ref("GameOptionsRequest")
COMPETITION_OPTIONS = ref("CompetitionOptions")
COMPETITION_OPTIONS_REQUEST = ref("CompetitionOptionsRequest")
JSON_SCHEMA = ref("JsonSchema")
GAME_AUDIT_STATE = ref("GameAuditState")
RULESET_OPTION = ref("RulesetOption")


# ---------------------------------------------------------------------------------------------
# Live streams: plain async Django views (scoring.live.streams), not DRF's, so drf-spectacular
# does not see them; declared here, beside the GET of what they follow (its security too).

STREAM_HEARTBEAT = (
    "A comment line (`: heartbeat`) comes every 15 seconds while nothing happens. "
    "`end` `{reason}` (`logout` or `token`): the login or token that opened the stream ended; "
    "the stream closes."
)
STREAM_OPENING = (
    "The stream starts with `retry: 2000`; then each event has an `id:` (`<ms>-<seq>`), an "
    "`event:` name and one `data:` line of JSON. Its first event is `hello` (no `Last-Event-ID` "
    "or one that is not the server's) or `reload` (one older than what the server keeps: read "
    "everything again), both with the current state; with a `Last-Event-ID` the server still "
    "keeps, the events missed since, as they were sent."
)


def _game_stream_events() -> str:
    changes = ", ".join(f"`{change}`" for change in GAME_CHANGES)
    return (
        f"Server-Sent Events. {STREAM_OPENING} Events:\n\n"
        "* `hello`, `reload`: `{id, version, status}`, the game now;\n"
        "* `game`: `{id, version, status, change}` at each change, once stored; `change` is one "
        f"of {changes}. Read the game for what changed;\n"
        f"* `end`: see below.\n\n{STREAM_HEARTBEAT}"
    )


def _competition_stream_events() -> str:
    return (
        f"Server-Sent Events. {STREAM_OPENING} Events, for a caller with no role in the "
        "competition's club (a spectator):\n\n"
        "* `hello`, `reload`, `standings`: `{id, version, html}`, the standings' version and "
        "their table as HTML in the request's language (`big=1`: the projector's size). A "
        "burst of changes is one `standings` event, the latest version;\n"
        "* `competition`: `{id, action, round, public}`, a recorded change (`action` such as "
        "`add_round`, `update_round`, `close_round`, `check_in`; `round` its number or null; "
        "`public` whether the competition is public now);\n"
        "* `table`: `{id, round, table, game, finished}`, a table's game finished or reopened;\n"
        "* `gone`: `{id}`, the competition is no longer public; the stream closes.\n\n"
        "For a member of the club, `hello`, `reload` and `standings` are `{id, version}` "
        "(`version` null before the first standings are computed; read them at "
        "`/api/v1/competitions/{competition_id}/standings/`); `competition` and `table` as "
        f"above; no `gone`.\n\n{STREAM_HEARTBEAT}"
    )


def _stream_operation(
    operation_id: str, summary: str, what: str, parameter: str, events: str, example: str
) -> dict[str, Any]:
    parameters: list[dict[str, Any]] = [
        {"in": "path", "name": parameter, "schema": {"type": "integer"}, "required": True},
        {
            "in": "header",
            "name": "Last-Event-ID",
            "schema": {"type": "string", "example": "1733099999123-4"},
            "description": "The `id` of the last event read: the stream starts with the events "
            "missed since (or `reload`). An id that is not the server's counts as none.",
        },
        {
            "in": "query",
            "name": "last",
            "schema": {"type": "string"},
            "description": "As `Last-Event-ID`, for a client that cannot set headers (the header "
            "wins).",
        },
    ]
    if parameter == "competition_id":
        parameters.append(
            {
                "in": "query",
                "name": "big",
                "schema": {"type": "string", "enum": ["1"]},
                "description": "`1`: the spectators' standings table at the projector's size.",
            }
        )
    return {
        "operationId": operation_id,
        "summary": summary,
        "description": f"Every change of {what} as it is stored, as Server-Sent Events: an open "
        "answer that never ends (read it as it comes; reconnect with `Last-Event-ID`). Access "
        f'as the GET of {what}. See docs/api.md, "Live streams".',
        "parameters": parameters,
        "tags": ["v1"],
        "responses": {
            "200": {
                "description": "The event stream.",
                "content": {
                    "text/event-stream": {
                        "schema": {"type": "string", "description": events},
                        "example": example,
                    }
                },
            },
            "401": {
                "description": "A wrong token: `Authorization` is not `Token <key>` of a valid "
                "key. (Without one, the stream answers as the GET does to an anonymous caller.)"
            },
            "404": {"description": STATUS_DESCRIPTIONS["404"]},
            "429": {
                "description": "Too many streams open from one address: wait `Retry-After` seconds."
            },
            "503": {
                "description": "Live updates are unavailable for now: poll, and open the stream "
                "again after `Retry-After` seconds."
            },
        },
        EXTENSION: {"200": ["X-Accel-Buffering"], "503": ["Retry-After"]},
    }


#: The streams: their path, the GET they follow, their operation.
STREAMS = (
    (
        "/api/v1/games/{game_id}/events/",
        "/api/v1/games/{game_id}/",
        lambda: _stream_operation(
            "v1_games_events_retrieve",
            "A game's live events",
            "the game",
            "game_id",
            _game_stream_events(),
            "retry: 2000\n\n"
            "id: 1733099999123-0\nevent: hello\n"
            'data: {"id":44,"version":3,"status":"in_progress"}\n\n'
            "id: 1733099999456-0\nevent: game\n"
            'data: {"id":44,"version":4,"status":"in_progress","change":"hand"}\n\n',
        ),
    ),
    (
        "/api/v1/competitions/{competition_id}/events/",
        "/api/v1/competitions/{competition_id}/",
        lambda: _stream_operation(
            "v1_competitions_events_retrieve",
            "A competition's live events",
            "the competition",
            "competition_id",
            _competition_stream_events(),
            "retry: 2000\n\n"
            "id: 1733099999123-0\nevent: hello\n"
            'data: {"id":7,"version":12}\n\n'
            "id: 1733099999456-0\nevent: table\n"
            'data: {"id":7,"round":2,"table":4,"game":44,"finished":true}\n\n'
            "id: 1733099999457-0\nevent: standings\n"
            'data: {"id":7,"version":13}\n\n',
        ),
    ),
)


def _with_streams(paths: dict[str, Any]) -> dict[str, Any]:
    """The paths with each stream declared right after the GET it follows (when that is there)."""
    after: dict[str, tuple[str, dict[str, Any]]] = {}
    for path, parent, make in STREAMS:
        if "get" in paths.get(parent, {}) and path not in paths:
            security = paths[parent]["get"].get("security", [])
            after[parent] = (path, {"get": {**make(), "security": security}})
    result: dict[str, Any] = {}
    for path, item in paths.items():
        result[path] = item
        if path in after:
            stream, stream_item = after[path]
            result[stream] = stream_item
    return result


# ---------------------------------------------------------------------------------------------
# The hook


def postprocess(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(hand_components())
    schemas.update(option_components())
    result["paths"] = _with_streams(result.get("paths", {}))
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            _operation(operation, schemas)
    _strict_nullable_refs(result, schemas)
    _blank_choices_named(schemas)
    links.add(result["paths"])
    return result


def _blank_choices_named(node: Any) -> None:
    """drf-spectacular lists an enum's choices in its description as ``* `key` - label``: a
    blank choice (the club's language, say) comes out as two backquotes, which reads as markup
    left over. It is written ``* `""` - ...`` instead."""
    if isinstance(node, dict):
        text = node.get("description")
        if isinstance(text, str) and "* `` - " in text:
            node["description"] = text.replace("* `` - ", '* `""` - ')
        for value in node.values():
            _blank_choices_named(value)
    elif isinstance(node, list):
        for value in node:
            _blank_choices_named(value)


def _operation(operation: dict[str, Any], schemas: dict[str, Any]) -> None:
    responses = operation.setdefault("responses", {})
    responses.setdefault("401", _errors(STATUS_DESCRIPTIONS["401"]))
    for code, response in responses.items():
        if code.startswith(("4", "5")) and "content" not in response:
            response.update(_errors(response.get("description", "")))
    declared = operation.pop(EXTENSION, {})
    for code, response in responses.items():
        if not response.get("description"):
            response["description"] = STATUS_DESCRIPTIONS.get(code, "")
        names = [*HEADERS_BY_STATUS.get(code, ()), *declared.get(code, ())]
        if names:
            headers = response.setdefault("headers", {})
            for name in names:
                headers.setdefault(name, HEADERS[name])
    if "requestBody" in operation:
        operation["requestBody"]["required"] = _needs_body(operation["requestBody"], schemas)
    for parameter in operation.get("parameters", []):
        if parameter["in"] == "header" and parameter["name"] == "If-Match":
            pattern = IF_MATCH_REQUIRED if parameter.get("required") else IF_MATCH_OPTIONAL
            parameter["schema"] = {"type": "string", "pattern": pattern, "example": '"h380.1"'}


def _needs_body(body: dict[str, Any], schemas: dict[str, Any]) -> bool:
    """A body is required when it has a required key; one whose keys are all optional may be
    left out (the views read a missing body as ``{}``)."""
    for media in body.get("content", {}).values():
        schema = media.get("schema", {})
        target = schema.get("$ref", "").removeprefix(COMPONENTS)
        schema = schemas.get(target, schema) if target else schema
        if schema.get("type") != "object" or "properties" not in schema:
            return True
        if schema.get("required") or schema.get("minProperties"):
            return True
    return False


def _errors(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": ref("ErrorResponse")}},
    }


def _strict_nullable_refs(node: Any, schemas: dict[str, Any]) -> None:
    """``{allOf: [$ref], nullable: true}`` (drf-spectacular's) has no ``type``, so a strict
    OpenAPI 3.0 reader ignores its ``nullable``: it becomes ``oneOf`` the reference and a
    typed null."""
    if isinstance(node, list):
        for item in node:
            _strict_nullable_refs(item, schemas)
        return
    if not isinstance(node, dict):
        return
    all_of = node.get("allOf")
    if node.get("nullable") and "type" not in node:
        del node["nullable"]  # untyped: any JSON value, null included
        if isinstance(all_of, list) and len(all_of) == 1:
            target = all_of[0].get("$ref", "").removeprefix(COMPONENTS)
            kind = schemas.get(target, {}).get("type", "object")
            del node["allOf"]
            node["oneOf"] = [all_of[0], {"type": kind, "nullable": True, "enum": [None]}]
    for value in node.values():
        _strict_nullable_refs(value, schemas)
