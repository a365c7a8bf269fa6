"""The scoring API: a game's hands. Entering one (with an ``Idempotency-Key``: a resend gets
the first answer), reading, correcting and removing one (conditioned on ``If-Match``), and
correcting several at once."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
)
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from scoring import etags, selectors, services
from scoring.api import inputs, quick
from scoring.api.common import (
    ERRORS,
    not_modified,
    readable_game,
    with_etag,
)
from scoring.api.errors import Refused
from scoring.api.games import (
    CONDITIONAL_WRITE_RESPONSES,
    IDEMPOTENCY_KEY,
    IDEMPOTENCY_KEY_MAX,
    IF_MATCH,
    IF_NONE_MATCH,
    GameWrite,
    ReasonInput,
    hand_answer,
)
from scoring.api.outputs import GameAnswer, GameFigures, HandAnswer, HandDocumentRequestField
from scoring.api.schema import (
    HAND_DOCUMENT_REQUEST,
    HAND_ENTRY_REQUEST,
    request_example,
    sends,
)
from scoring.rules import Problem
from scoring.validators import control_character

HAND_DOCUMENT_EXAMPLES = [
    request_example(
        "Terziglio",
        {
            "ruleset": "terziglio",
            "dealer": 0,
            "outcome": "played",
            "soloist": 2,
            "contract": "solo",
            "soloist_points": 7,
            "seating": 1,
        },
    ),
    request_example("Briscola", {"ruleset": "briscola", "dealer": 1, "points": [67, 53]}),
]
#: The reason a removal needs, in the query (a DELETE has no body a generator sends).
REASON = OpenApiParameter(
    "reason",
    # the characters a reason may hold, as the server reads it (inputs.Text): not blank
    {"type": "string", "pattern": inputs.text_pattern(single_line=False, non_blank=True)},
    OpenApiParameter.QUERY,
    required=True,
    description="Why the hand is removed (kept in the audit trail). A JSON body "
    '`{"reason": …}` is read too.',
)
#: A hand's correction.
HAND_WRITE_RESPONSES = CONDITIONAL_WRITE_RESPONSES | {200: HandAnswer}


class HandCorrection(inputs.StrictInput):
    document = HandDocumentRequestField(help_text="The new hand document.")
    reason = inputs.Text(required=False, default="", help_text="Why (kept in the audit trail).")


@extend_schema_field({"type": "object", "additionalProperties": HAND_DOCUMENT_REQUEST})
class HandsByNumber(inputs.NumberedObject):
    pass


class GameHands(GameWrite):
    own_idempotency = frozenset({"POST"})  # services.record_hand keeps the hand's first answer

    def dispatch(self, request, *args, **kwargs):
        """A phone's hand POST goes the short way (``scoring.api.quick``) when it can, its
        refusals by the service included; any other request, and a refusal before the service,
        DRF's whole way."""
        if request.method == "POST" and quick.goes_quickly(request.META):
            try:
                return quick.enter_hand(
                    self, request, kwargs["game_id"], key_max=IDEMPOTENCY_KEY_MAX
                )
            except quick.Declined:
                pass
        return super().dispatch(request, *args, **kwargs)

    @extend_schema(
        summary="Enter the next hand",
        description="The body is a hand document of the game's ruleset, naming it in "
        "`ruleset` (`HandEntryRequest`; each game's JSON Schema is also in "
        "`/api/v1/rulesets/`). The rules engine reads it and names every problem (400). The "
        "answer is the hand and the game's figures; its `ETag` is the hand's validator. With "
        "`seating` (the game's `seating` as read), a hand typed for players who no longer sit "
        "there is refused: 409 `seating_changed`, whose message names who replaced whom.",
        parameters=[IDEMPOTENCY_KEY],
        request={"application/json": HAND_ENTRY_REQUEST},
        examples=HAND_DOCUMENT_EXAMPLES,
        extensions=sends(_201=("ETag", "Location", "Idempotent-Replayed")),
        responses={
            201: HandAnswer,
            400: ERRORS,
            403: ERRORS,
            404: ERRORS,
            409: ERRORS,
            422: ERRORS,
        },
    )
    def post(self, request, game_id: int):
        key = request.headers.get("Idempotency-Key", "").strip()
        with self.input_checks(request, game_id):
            if not key or len(key) > IDEMPOTENCY_KEY_MAX or control_character(key):
                raise Refused.rule("Idempotency-Key", "required", reason="idempotency_key")
        by = self.actor(request, game_id)
        result = services.record_hand(
            game=game_id, document=request.data, by=by, idempotency_key=key
        )
        response = Response(result.payload, status=status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/games/{game_id}/hands/{result.payload['number']}/"
        if result.replayed:
            response["Idempotent-Replayed"] = "true"
        if "etag" in result.payload:  # answers stored before hands had validators have none
            response["ETag"] = result.payload["etag"]
        return response


class GameHand(GameWrite):
    anyone_may = ("GET",)

    @extend_schema(
        summary="One hand",
        description="Its ETag names the hand itself and its version: send it back in `If-Match` "
        "to correct or remove this hand.",
        parameters=[IF_NONE_MATCH],
        extensions=sends(_200=("ETag",)),
        responses={200: HandAnswer, 304: None, 404: ERRORS},
    )
    def get(self, request, game_id: int, number: int):
        game, _role = readable_game(request, game_id)
        hand = selectors.hand_of(game, number)
        if hand is None:
            raise NotFound()
        tag = etags.hand_tag(hand)
        if not_modified(request, tag):
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), tag)
        return with_etag(Response(selectors.hand_payload(hand, game)), tag)

    @extend_schema(
        summary="Correct a hand",
        description="The body holds the new hand document and, optionally, a reason (a bare "
        "hand document is read too). The game is replayed from hand 1; if a later hand no "
        "longer fits, nothing changes and the 400 names that hand.",
        parameters=[IF_MATCH],
        request=HandCorrection,
        examples=[
            request_example(
                "Briscola",
                {
                    "document": {"ruleset": "briscola", "dealer": 1, "points": [70, 50]},
                    "reason": "points swapped",
                },
            )
        ],
        extensions=sends(_200=("ETag",)),
        responses=HAND_WRITE_RESPONSES,
    )
    def put(self, request, game_id: int, number: int):
        with self.input_checks(request, game_id):
            expected = self.if_match(request, game_id)
            body = request.data
            document, reason = body, ""
            if (
                isinstance(body, dict)
                and "document" in body
                and set(body) <= {"document", "reason"}
            ):
                document = body["document"]
                reason = ReasonInput.read({"reason": body.get("reason", "")})
        by = self.actor(request, game_id)
        game = services.correct_hand(
            game=game_id,
            number=number,
            document=document,
            by=by,
            expected=expected,
            reason=reason,
        )
        return hand_answer(game, number)

    @extend_schema(
        summary="Remove a hand",
        description="A reason is required (`?reason=`). Later hands move up one "
        "number and the game is replayed. `If-Match` is required and names the hand removed: a "
        "removal resent with the same validator finds the hand that took this number and is "
        "refused (412), it never removes a second hand. The answer is the game's figures.",
        parameters=[IF_MATCH, REASON],
        request=None,
        extensions=sends(_200=("ETag",)),
        responses=CONDITIONAL_WRITE_RESPONSES | {200: GameFigures},
    )
    def delete(self, request, game_id: int, number: int):
        with self.input_checks(request, game_id):
            expected = self.if_match(request, game_id)
            reason = ReasonInput.required(request)
        by = self.actor(request, game_id)
        game = services.remove_hand(
            game=game_id,
            number=number,
            by=by,
            reason=reason,
            expected=expected,
        )
        return with_etag(Response(selectors.game_status(game)), etags.game_tag(game))


class GameCorrections(GameWrite):
    class InputSerializer(inputs.StrictInput):
        hands = HandsByNumber(
            child=inputs.Document(),
            key_problem=("type", {"expected": "integer"}),
            help_text="Hand number → the new hand document (read by the rules engine).",
        )
        versions = inputs.NumberedObject(
            child=inputs.Text(max_length=64),
            key_problem=("type", {"expected": "integer"}),
            required=False,
            default=dict,
            help_text='Hand number → the ETag of that hand as read (`"h<hand id>.<version>"`, '
            "quotes optional; 412 when it no longer names the hand at that number at its version).",
        )
        reason = inputs.Text(required=False, default="")

        def validate(self, attrs):
            if not attrs["hands"]:
                self.refuse([Problem("hands", "required")])
            return attrs

    @extend_schema(
        summary="Correct several hands at once",
        description="Replayed together, accepted or refused as a whole. A precondition is "
        "required (428 without): either `If-Match` with the game's ETag as read "
        '(`"g<game id>.<version>"`), or `versions` giving the ETag read of every corrected hand. '
        "412 when one of them is no longer current.",
        parameters=[
            OpenApiParameter(
                "If-Match",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                required=False,
                description="The game's ETag as read; required unless `versions` covers every "
                "corrected hand.",
            )
        ],
        request=InputSerializer,
        examples=[
            request_example(
                "Two hands",
                {
                    "hands": {
                        "3": {"ruleset": "briscola", "dealer": 0, "points": [70, 50]},
                        "4": {"ruleset": "briscola", "dealer": 1, "points": [50, 70]},
                    },
                    "versions": {"3": '"h1234.1"', "4": '"h1235.2"'},
                    "reason": "dealer miscounted",
                },
            )
        ],
        extensions=sends(_200=("ETag",)),
        responses=CONDITIONAL_WRITE_RESPONSES | {200: GameAnswer},
    )
    def post(self, request, game_id: int):
        serializer = self.InputSerializer(data=request.data)
        with self.input_checks(request, game_id):
            serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        changes = {int(k): v for k, v in data["hands"].items()}
        versions = {int(k): etags.parse_value(v) for k, v in data["versions"].items()}
        if_match = etags.parse(request.headers.get("If-Match"))
        if if_match is None or if_match.any:
            if not set(changes) <= set(versions):
                raise self.missing_precondition(request, game_id, "versions", "versions")
            header: tuple[etags.Tag, ...] = ()
        else:
            header = if_match.strong
        expected = {
            number: (*header, *([versions[number]] if versions.get(number) else []))
            for number in changes
        }
        game = services.correct_hands(
            game=game_id,
            changes=changes,
            expected=expected,
            by=self.actor(request, game_id),
            reason=data["reason"],
        )
        return with_etag(Response(selectors.game_detail(game)), etags.game_tag(game))
