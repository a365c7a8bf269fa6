"""How both apps' API describes itself to client generators: the one module an API view needs
for a typed schema (``docs/api.md``, "Typing a new endpoint").

* :class:`AutoSchema` (``DEFAULT_SCHEMA_CLASS``): docstrings are for us, not for client
  authors: an operation or a component is described only where ``extend_schema(description=…)``
  or ``extend_schema_serializer(description=…)`` says so.
* :func:`request_example` / :func:`response_example`: an example is shown on one side only.
* :func:`sends`: the response headers an operation sets (``ETag``, ``Location``…), declared in
  ``extend_schema(extensions=sends(...))``.
* :data:`HAND_DOCUMENT` / :data:`HAND_DOCUMENT_REQUEST`: each game's hand document, made from
  the rules registry (``Ruleset.hand_schemas``), never written by hand.
* :func:`postprocess` (``POSTPROCESSING_HOOKS``), applied to the whole schema: the hand
  components; the headers declared with :func:`sends`, plus those every operation may send
  (``WWW-Authenticate`` with a 401, ``Retry-After`` with a 429, ``ETag`` with a 304); a 401 on
  every operation (a wrong token is refused wherever it is sent); every request body required
  (the views read a JSON object: without one they answer 400); and nullable references written
  so that a strict OpenAPI 3.0 validator reads them as nullable.

``tests/scoring/test_openapi_contract.py`` holds the whole schema to this, whichever app or
branch adds an operation.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import get_override
from drf_spectacular.utils import OpenApiExample

from scoring.rules import RULESETS

COMPONENTS = "#/components/schemas/"
EXTENSION = "x-segnapunti-headers"
ANONYMOUS = "x-segnapunti-anonymous"


def ref(name: str) -> dict[str, str]:
    return {"$ref": COMPONENTS + name}


# ---------------------------------------------------------------------------------------------
# Descriptions and examples


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's, without the docstrings of views and serializers as descriptions."""

    def get_description(self) -> str:
        return ""

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        if get_override(serializer, "description") is None:
            schema.pop("description", None)
        return schema


def request_example(name: str, value: Any, **kwargs: Any) -> OpenApiExample:
    """An example of a request body (never shown as a response)."""
    return OpenApiExample(name, value=value, request_only=True, **kwargs)


def response_example(name: str, value: Any, **kwargs: Any) -> OpenApiExample:
    """An example of a response body; it must validate against the response's schema."""
    return OpenApiExample(name, value=value, response_only=True, **kwargs)


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
}
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


def anonymous() -> dict[str, Any]:
    """``extend_schema(extensions=anonymous())``: the operation needs no authentication
    (``security: []``)."""
    return {ANONYMOUS: True}


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
}


# ---------------------------------------------------------------------------------------------
# Hand documents, from the rules registry


def camel(key: str) -> str:
    """``briscola_chiamata`` → ``BriscolaChiamata``."""
    return "".join(part.title() for part in key.split("_"))


def hand_components() -> dict[str, dict[str, Any]]:
    """One component per shape of each game's hand document, one per game (``oneOf`` its
    shapes), as stored and answered (``TerziglioHand``) and as sent, naming its ruleset
    (``TerziglioHandRequest``); then ``HandDocument`` (any game's) and ``HandDocumentRequest``
    (discriminated by ``ruleset``)."""
    components: dict[str, dict[str, Any]] = {}
    games: dict[str, dict[str, str]] = {"": {}, "Request": {}}
    for key, rules in RULESETS.items():
        game = camel(key)
        for suffix, tagged in (("", False), ("Request", True)):
            shapes = rules.hand_schemas(tagged=tagged)
            name = f"{game}Hand{suffix}"
            if len(shapes) == 1:
                (components[name],) = shapes.values()
            else:
                names = [f"{game}{shape}Hand{suffix}" for shape in shapes]
                components.update(zip(names, shapes.values(), strict=True))
                components[name] = {"oneOf": [ref(n) for n in names]}
            components[name]["description"] = f"A hand of {rules.name} (docs/rules/{key}.md)" + (
                ", naming its ruleset." if tagged else ", as stored."
            )
            games[suffix][key] = name
    components["HandDocument"] = {
        "description": "A hand document of any game, as stored (the game's `ruleset` says which).",
        "anyOf": [ref(name) for name in games[""].values()],
    }
    components["HandDocumentRequest"] = {
        "description": "A hand document, naming the game's ruleset: the rules engine reads it "
        "(400 naming the field when it breaks a rule of the game).",
        "oneOf": [ref(name) for name in games["Request"].values()],
        "discriminator": {
            "propertyName": "ruleset",
            "mapping": {key: COMPONENTS + name for key, name in games["Request"].items()},
        },
    }
    return components


HAND_DOCUMENT = ref("HandDocument")
HAND_DOCUMENT_REQUEST = ref("HandDocumentRequest")


# ---------------------------------------------------------------------------------------------
# The hook


def postprocess(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(hand_components())
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            _operation(operation)
    _strict_nullable_refs(result, schemas)
    _blank_choices_named(schemas)
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


def _operation(operation: dict[str, Any]) -> None:
    responses = operation.setdefault("responses", {})
    responses.setdefault("401", _errors(STATUS_DESCRIPTIONS["401"]))
    for code, response in responses.items():
        if code.startswith(("4", "5")) and "content" not in response:
            response.update(_errors(response.get("description", "")))
    if operation.pop(ANONYMOUS, False):
        operation["security"] = []
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
        operation["requestBody"]["required"] = True


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
