"""The house rules and the JSON Schemas of the API, typed for client generators (called by
``scoring.api.schema.postprocess``), from the rules registry, never by hand:

* ``TerziglioOptions`` …: a game's options as stored (every key, resolved; ``null`` where the
  option is automatic and stays so); ``GameOptions`` is any of them (the game's ``ruleset``
  says which).
* ``TerziglioOptionsRequest`` …: the options as sent (every key optional, ``preset`` where the
  game has presets); ``GameOptionsRequest`` is any of them; ``CompetitionOptions`` (and its
  request) holds one per ruleset, keyed by the ruleset.
* ``OptionValue``: the value of one house rule (a number, a flag, a choice, a map of numbers);
  ``RulesetOption``: a house rule as ``/api/v1/rulesets/`` describes it.
* ``JsonSchema``: the JSON Schemas ``/api/v1/rulesets/`` answers (``hand_schema``,
  ``options_schema``), with the keywords they use.
* ``GameAuditState``: what a game's audit trail keeps before and after a change (any of the
  shapes the services write: ``scoring.services.hands.hand_state``, the game document of a
  start, a status, the players, a hand's acceptance, a lock).

The rules write option schemas as JSON Schema (``{"anyOf": [X, {"type": "null"}]}`` for an
automatic one); here they become OpenAPI 3.0 (``X`` with ``nullable: true``).
"""

from __future__ import annotations

from typing import Any

from scoring.rules import RULESETS

COMPONENTS = "#/components/schemas/"


def ref(name: str) -> dict[str, str]:
    return {"$ref": COMPONENTS + name}


def camel(key: str) -> str:
    """``briscola_chiamata`` → ``BriscolaChiamata``."""
    return "".join(part.title() for part in key.split("_"))


def typed_null(kind: str) -> dict[str, Any]:
    """The null branch of a nullable choice, typed for a strict OpenAPI 3.0 reader."""
    return {"type": kind, "nullable": True, "enum": [None]}


def _openapi(schema: dict[str, Any]) -> dict[str, Any]:
    """An option's JSON Schema as OpenAPI 3.0: its ``null`` branch becomes ``nullable``."""
    branches = schema.get("anyOf", ())
    if len(branches) == 2 and branches[1] == {"type": "null"}:
        rest = {k: v for k, v in schema.items() if k != "anyOf"}
        value = {**branches[0], **rest, "nullable": True}
        if "enum" in value:
            value["enum"] = [*value["enum"], None]
        return value
    return dict(schema)


def option_components() -> dict[str, dict[str, Any]]:
    components: dict[str, dict[str, Any]] = {}
    stored: dict[str, str] = {}
    sent: dict[str, str] = {}
    for key, rules in RULESETS.items():
        game = camel(key)
        properties = {option.key: _openapi(option.schema()) for option in rules.options}
        components[f"{game}Options"] = {
            "type": "object",
            "description": f"The house rules of a game of {rules.name}, every key resolved "
            f"(docs/rules/{key}.md).",
            "properties": properties,
            "required": list(properties),
            "additionalProperties": False,
        }
        request = {
            name: _openapi(value) for name, value in rules.options_schema()["properties"].items()
        }
        components[f"{game}OptionsRequest"] = {
            "type": "object",
            "description": f"House rules of {rules.name}, as sent: each key left out takes its "
            "default" + (" (or the `preset`'s value)." if rules.presets else "."),
            "properties": request,
            "additionalProperties": False,
        }
        stored[key], sent[key] = f"{game}Options", f"{game}OptionsRequest"
    components["GameOptions"] = {
        "description": "A game's house rules, every key resolved: those of the game's `ruleset`.",
        "anyOf": [ref(name) for name in stored.values()],
    }
    components["GameOptionsRequest"] = {
        "description": "House rules of the game's `ruleset`, as sent (an unknown key is "
        "refused, 400 `unknown_key`).",
        "anyOf": [ref(name) for name in sent.values()],
    }
    for name, nullable, description in (
        (
            "CompetitionOptions",
            False,
            "House rules per ruleset, as given: {ruleset: {option: value}}.",
        ),
        (
            "CompetitionOptionsRequest",
            True,
            "House rules per ruleset: {ruleset: {option: value}} (null or `{}`: the defaults).",
        ),
    ):
        components[name] = {
            "type": "object",
            "description": description,
            "properties": {
                key: {"oneOf": [ref(target), typed_null("object")]} if nullable else ref(target)
                for key, target in sent.items()
            },
            "additionalProperties": False,
        }
    components.update(_described_components())
    components.update(_audit_components())
    return components


def _audit_components() -> dict[str, dict[str, Any]]:
    def shape(description: str, properties: dict[str, Any], *required: str) -> dict[str, Any]:
        return {
            "type": "object",
            "description": description,
            "properties": properties,
            "required": list(required),
            "additionalProperties": False,
        }

    integers = {"type": "array", "items": {"type": "integer"}}
    names = {"type": "array", "items": {"type": "string"}}
    shapes = {
        "AuditHandState": shape(
            "A hand: its document and what it scored.",
            {"document": ref("HandDocument"), "deltas": integers},
            "document",
            "deltas",
        ),
        "AuditStatusState": shape(
            "The game's status.", {"status": ref("GameStatusEnum")}, "status"
        ),
        "AuditPlayersState": shape(
            "Who sits where, in seat order (and the seating's version after the change).",
            {"players": names, "seating": {"type": "integer"}},
            "players",
        ),
        "AuditAcceptanceState": shape(
            "A hand's acceptance (and who answered for it).",
            {
                "acceptance": ref("AcceptanceEnum"),
                "version": {"type": "integer"},
                "seat": {"type": "integer", "nullable": True},
                "player": {"type": "string", "nullable": True},
            },
            "acceptance",
        ),
        "AuditLockState": shape(
            "The game's lock: whether it is locked, why, and by what.",
            {
                "locked": {"type": "boolean"},
                "reason": {"type": "string", "nullable": True},
                "context": {
                    "type": "object",
                    "properties": {
                        "competition": {"type": "string"},
                        "round": {"type": "integer"},
                    },
                    "additionalProperties": False,
                },
            },
            "locked",
            "reason",
            "context",
        ),
    }
    return {
        **shapes,
        "GameAuditState": {
            "description": "What a game's audit trail keeps of a change: a hand, the game "
            "document (a start), its status, its players, a hand's acceptance, its lock.",
            "anyOf": [ref("GameDocument"), *(ref(name) for name in shapes)],
        },
    }


def _described_components() -> dict[str, dict[str, Any]]:
    """``OptionValue``, ``RulesetOption`` and ``JsonSchema``."""
    integers = {"type": "integer"}
    schema_list = {"type": "array", "items": ref("JsonSchema")}
    return {
        "OptionValue": {
            "description": "The value of a house rule: a number, a flag, a choice, or a map of "
            "numbers (`type` `object`); null where it is automatic.",
            "anyOf": [
                integers,
                {"type": "boolean"},
                {"type": "string"},
                {"type": "object", "additionalProperties": integers},
                typed_null("string"),
            ],
        },
        "RulesetOption": {
            "type": "object",
            "description": "A house rule: its key, the type of its value and its default.",
            "properties": {
                "key": {"type": "string"},
                "type": {"type": "string", "enum": ["integer", "boolean", "choice", "object"]},
                "default": ref("OptionValue"),
                "nullable": {
                    "type": "boolean",
                    "description": "`true`: null (the default) is automatic, resolved for the "
                    "number of players.",
                },
                "min": {**integers, "description": "`integer` and `object`: the least value."},
                "max": {**integers, "description": "`integer` and `object`: the greatest value."},
                "choices": {"type": "array", "items": {"type": "string"}},
                "keys": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "`object`: its keys, each an integer.",
                },
            },
            "required": ["key", "type", "default", "nullable"],
            "additionalProperties": False,
        },
        "JsonSchema": {
            "type": "object",
            "description": "A JSON Schema (the keywords the app's schemas use).",
            "properties": {
                "type": {
                    "type": "string",
                    "enum": ["object", "array", "string", "integer", "number", "boolean", "null"],
                },
                "description": {"type": "string"},
                "properties": {"type": "object", "additionalProperties": ref("JsonSchema")},
                "required": {"type": "array", "items": {"type": "string"}},
                "additionalProperties": {"type": "boolean"},
                "items": ref("JsonSchema"),
                "oneOf": schema_list,
                "anyOf": schema_list,
                "enum": {"type": "array", "items": {"type": "string"}},
                "default": ref("OptionValue"),
                "minimum": integers,
                "maximum": integers,
                "minItems": integers,
                "maxItems": integers,
            },
            "additionalProperties": False,
        },
    }
