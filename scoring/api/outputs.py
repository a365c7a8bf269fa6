"""The answers about games and hands, typed for the schema: a game (``selectors.game_detail``),
its figures after a write (``game_status``), a hand (``hand_payload``), the game document of
imports and exports (``export_game``), the rulesets. The views answer the selectors' dicts;
these serializers only describe them (schemathesis checks every answer against them)."""

from __future__ import annotations

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from scoring.api.common import Output
from scoring.api.inputs import text_pattern
from scoring.api.schema import (
    GAME_OPTIONS,
    GAME_OPTIONS_REQUEST,
    HAND_DOCUMENT,
    HAND_DOCUMENT_REQUEST,
    JSON_SCHEMA,
    RULESET_OPTION,
)
from scoring.models import Acceptance, GameStatus
from scoring.rules import RULESETS

RULESET_KEYS = list(RULESETS)


@extend_schema_field(HAND_DOCUMENT)
class HandDocumentField(serializers.JSONField):
    """A stored hand document (``HandDocument``)."""


@extend_schema_field(HAND_DOCUMENT_REQUEST)
class HandDocumentRequestField(serializers.JSONField):
    """A hand document as sent (``HandDocumentRequest``)."""


@extend_schema_field(GAME_OPTIONS)
class OptionsField(serializers.JSONField):
    """A game's resolved options (``GameOptions``: those of its ruleset)."""


@extend_schema_field(GAME_OPTIONS_REQUEST)
class OptionsRequestField(serializers.DictField):
    """House rules as sent (``GameOptionsRequest``)."""


@extend_schema_field(JSON_SCHEMA)
class JsonSchemaField(serializers.DictField):
    """A JSON Schema (``JsonSchema``)."""


@extend_schema_field(RULESET_OPTION)
class RulesetOptionField(serializers.DictField):
    """A house rule as described (``RulesetOption``)."""


@extend_schema_field({"type": "object", "additionalProperties": GAME_OPTIONS_REQUEST})
class PresetsField(serializers.DictField):
    """A game's presets: {name: {option: value}}."""


def numbers(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), **kwargs)


class Placing(Output):
    seat = serializers.IntegerField()
    place = serializers.IntegerField()


class GameFigures(Output):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(GameStatus.choices)
    hand_count = serializers.IntegerField()
    totals = numbers(help_text="Per seat, in seat order.")
    card_points = numbers(allow_null=True, help_text="Per side, where the game sums them.")
    ranking = Placing(many=True, allow_null=True, help_text="Null before the first hand.")
    next_dealer = serializers.IntegerField(allow_null=True)
    sitting_out_next = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField()
    etag = serializers.CharField(help_text="The game's ETag, as in the header.")
    locked = serializers.BooleanField()


class HandRow(Output):
    number = serializers.IntegerField()
    serial = serializers.IntegerField(
        help_text="The hand's identity in the game: it keeps it when earlier hands are removed."
    )
    document = HandDocumentField()
    deltas = numbers(help_text="The change of each seat's total.")
    totals = numbers(help_text="Each seat's total after this hand.")
    version = serializers.IntegerField()
    etag = serializers.CharField(help_text="The hand's ETag: send it in `If-Match` to change it.")
    acceptance = serializers.ChoiceField(Acceptance.choices)
    reject_reason = serializers.CharField(required=False)
    card_points = numbers(required=False, help_text="Per side, where the game sums them.")


@extend_schema_serializer(component_name="Hand")
class HandAnswer(HandRow):
    status = serializers.ChoiceField(GameStatus.choices)
    game = GameFigures()


class GameSeat(Output):
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    side = serializers.IntegerField(allow_null=True)


@extend_schema_serializer(component_name="Game")
class GameAnswer(Output):
    id = serializers.IntegerField()
    club = serializers.CharField()
    title = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField()
    etag = serializers.CharField()
    seating = serializers.IntegerField(
        help_text="The version of who sits where: send it as `seating` with a hand, which is "
        "then refused (409 `seating_changed`) if the players changed since."
    )
    locked = serializers.BooleanField()
    lock_reason = serializers.CharField(allow_null=True)
    ruleset = serializers.ChoiceField(RULESET_KEYS)
    options = OptionsField()
    players = serializers.ListField(child=serializers.CharField())
    seats = GameSeat(many=True)
    hands = HandRow(many=True)
    totals = numbers()
    hands_need_acceptance = serializers.BooleanField()
    status = serializers.ChoiceField(GameStatus.choices)
    ranking = Placing(many=True, allow_null=True)
    next_dealer = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    accepted_totals = numbers(required=False)
    pending_totals = numbers(required=False)
    pending_hands = numbers(required=False)
    card_points = numbers(required=False)
    abandon_reason = serializers.CharField(required=False, allow_blank=True)


class GameDocument(Output):
    ruleset = serializers.ChoiceField(RULESET_KEYS)
    options = OptionsField()
    players = serializers.ListField(child=serializers.CharField())
    hands = serializers.ListField(child=HandDocumentField())
    title = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(GameStatus.choices)
    abandon_reason = serializers.CharField(required=False, allow_blank=True)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer"},
            {"type": "string", "pattern": text_pattern(single_line=True, non_blank=True)},
        ]
    }
)
class PlayerRefField(serializers.JSONField):
    """A player of the club: an id, or a name."""


@extend_schema_serializer(
    description="A game to start: its ruleset, house rules and players in seat order, and "
    "optionally the hands already played (an import)."
)
class GameImport(Output):
    #: The rules engine refuses a key it does not know (``unknown_key``).
    schema_extra = {"additionalProperties": False}

    ruleset = serializers.ChoiceField(RULESET_KEYS)
    options = OptionsRequestField(
        required=False,
        help_text="House rules: the ruleset's `options_schema` (`/api/v1/rulesets/`).",
    )
    players = serializers.ListField(
        child=PlayerRefField(),
        help_text="Ids of the club's players, or names (a new name makes "
        "a new player), in seat order.",
    )
    hands = serializers.ListField(child=HandDocumentRequestField(), required=False)
    #: Refused when it holds a control character (``services.games``): the pattern says so.
    title = serializers.CharField(
        required=False,
        allow_blank=True,
        validators=[RegexValidator(text_pattern(single_line=True, non_blank=False))],
    )
    hands_need_acceptance = serializers.BooleanField(
        required=False,
        help_text="Each later hand counts once a player of another side accepts it.",
    )
    status = serializers.ChoiceField(
        GameStatus.choices,
        required=False,
        help_text="As exported: `abandoned` (with `abandon_reason`), or what the hands make it.",
    )
    abandon_reason = serializers.CharField(
        required=False, allow_null=True, help_text="`null` is the same as leaving it out."
    )


class Ruleset(Output):
    key = serializers.ChoiceField(RULESET_KEYS)
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    ideal_players = serializers.IntegerField()
    lowest_total_wins = serializers.BooleanField()
    zero_sum = serializers.BooleanField()
    options = serializers.ListField(
        child=RulesetOptionField(), help_text="Each house rule: its key, type and default."
    )
    presets = PresetsField(help_text="Named sets of house rules: send one as `preset`.")
    hand_schema = JsonSchemaField(
        help_text="The JSON Schema of this game's hand document (the `…HandRequest` component)."
    )
    options_schema = JsonSchemaField(help_text="The JSON Schema of the `options` object.")
