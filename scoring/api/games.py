"""The scoring API under ``/api/v1/``: clubs, rulesets, games and their hands.

Views translate: request in, one selector or service call, response out. A refusal is raised
(``RuleViolation``, ``NotAllowed``, ``VersionConflict``...) and mapped to the one error shape,
``{"errors": [{"hand", "field", "code", "message"}]}``, by ``scoring.api_errors``. A view first
makes sure the caller may read the game (404 otherwise), so a write the service refuses to a
reader is a 403.

Game and hand documents are read by the rules engine, not by serializers: they pass through as
JSON objects, and their problems come back as the rules engine names them.

Hands are entered with an ``Idempotency-Key`` header: a phone on club Wi-Fi may resend, and the
resend gets the first answer back. Every other hand write is conditional: a correction or a
removal carries in ``If-Match`` the validator the client read (``scoring.etags``: the hand's
``"h<id>.<version>"`` ETag, which names the hand itself, or the game's ``"g<id>.<version>"``),
428 without one, 412 when it no longer names the hand now at that number at its version.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db.models import Count
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ParseError, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import access, etags, selectors, services
from scoring.api import inputs
from scoring.api.common import (
    ERRORS,
    OBJECTS,
    Moment,
    Output,
    not_modified,
    readable_game,
    required_if_match,
    with_etag,
)
from scoring.api.parsers import JSONParser
from scoring.api_errors import Refused
from scoring.models import HAND_WRITERS, MANAGERS, Club, Game, GameStatus, Via
from scoring.rules import Problem, RuleViolation
from scoring.services import NotAllowed
from scoring.validators import control_character

#: What a refused write says, where the caller may read the game (``scoring.api_errors``).
MAY_NOT_CHANGE_GAME = _("You may not change this game.")
MAY_NOT_LOCK_GAME = _("Only an owner or organizer of the club may reopen or lock a game.")

IDEMPOTENCY_KEY_MAX = 128
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="A key the client makes for this entry (e.g. a UUID). A resend with the same key and "
    "body returns the first answer and stores nothing; the same key with another body is refused (422).",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description='The hand\'s ETag as read (`"h<hand id>.<version>"`: it names the hand itself, '
    'not its number), or the game\'s ETag (`"g<game id>.<version>"`). Required: none (or `*`) '
    "gives 428. 412 when it no longer names the hand now at this number at its current version "
    "(it was corrected, or removed and the later hands renumbered), or when it is garbled.",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag last read: 304 while it is still current.",
)
#: What a write conditioned on ``If-Match`` answers (a hand's correction or removal).
CONDITIONAL_WRITE_RESPONSES = {
    200: OpenApiTypes.OBJECT,
    400: ERRORS,
    403: ERRORS,
    404: ERRORS,
    409: ERRORS,
    412: ERRORS,
    428: ERRORS,
}
GAME_DOCUMENT_EXAMPLE = OpenApiExample(
    "Terziglio with two hands",
    value={
        "ruleset": "terziglio",
        "options": {"target_score": 31},
        "players": [12, "Bruno", "Carla"],
        "hands": [
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 0,
                "contract": "chiamo",
                "soloist_points": 7,
            },
            {"dealer": 1, "outcome": "passed_out"},
        ],
    },
)
HAND_DOCUMENT_EXAMPLE = OpenApiExample("Briscola", value={"dealer": 1, "points": [67, 53]})


class ReasonInput(inputs.StrictInput):
    """A reason for the audit trail."""

    reason = inputs.Text(required=False, default="")

    @classmethod
    def read(cls, data) -> str:
        serializer = cls(data=data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data["reason"]

    @classmethod
    def required(cls, request) -> str:
        """The reason of :meth:`of`, refused when empty (the service would refuse it too)."""
        reason = cls.of(request)
        if not reason.strip():
            raise RuleViolation([Problem("reason", "required")])
        return reason

    @classmethod
    def of(cls, request) -> str:
        """From the body, or (a DELETE often has none) from ``?reason=``."""
        data = request.data or {}
        if isinstance(data, dict) and "reason" not in data and "reason" in request.query_params:
            data = {**data, "reason": request.query_params["reason"]}
        return cls.read(data)


class ClubList(APIView):
    class OutputSerializer(Output):
        slug = serializers.CharField()
        name = serializers.CharField()
        role = serializers.CharField(allow_null=True)

    @extend_schema(summary="Clubs the caller can see", responses=OutputSerializer(many=True))
    def get(self, request):
        rows = [
            {"slug": club.slug, "name": club.name, "role": role}
            for club, role in selectors.clubs_for(request.user)
        ]
        return Response(self.OutputSerializer(rows, many=True).data)


class RulesetList(APIView):
    @extend_schema(
        summary="Every game the app scores, with its options and presets",
        responses={200: OBJECTS},
    )
    def get(self, request):
        return Response(selectors.rulesets_description())


class ClubGames(APIView):
    parser_classes = [JSONParser]
    not_allowed_message = _("Only members of the club may start games.")

    class OutputSerializer(Output):
        id = serializers.IntegerField(source="pk")
        ruleset = serializers.CharField()
        title = serializers.CharField()
        status = serializers.CharField()
        hand_count = serializers.IntegerField()
        totals = serializers.JSONField()
        created_at = Moment()
        finished_at = Moment(allow_null=True)
        version = serializers.IntegerField()

    def club(self, request, slug: str) -> Club:
        """The club; 404 unless the caller may see it."""
        club = get_object_or_404(Club, slug=slug)
        if not access.can_read_club(request, club, selectors.role_of(request.user, club)):
            raise NotFound()
        return club

    @extend_schema(
        summary="Games of a club",
        parameters=[OpenApiParameter("status", OpenApiTypes.STR, enum=GameStatus.values)],
        responses={200: OutputSerializer(many=True), 400: ERRORS, 404: ERRORS},
    )
    def get(self, request, slug: str):
        club = self.club(request, slug)
        games = selectors.visible_games(request.user, club).annotate(n_seats=Count("seats"))
        status_ = request.query_params.get("status")
        if status_:
            if status_ not in GameStatus.values:
                raise Refused.rule(
                    "status", "choice", choices=tuple(GameStatus.values), value=status_
                )
            games = games.filter(status=status_)
        return Response(self.OutputSerializer(games[:200], many=True).data)

    @extend_schema(
        summary="Start a game (optionally with its hands: an import)",
        description="The body is a game document: `ruleset`, `options`, `players` in seat order "
        "(ids of the club's players or names; a new name becomes a new player), optional `hands`. "
        "The rules engine reads it and names every problem. `hands_need_acceptance: true` "
        "(optional): each later hand counts once a player of another side accepts it "
        "(`…/hands/{number}/accept/`).",
        request=OpenApiTypes.OBJECT,
        examples=[GAME_DOCUMENT_EXAMPLE],
        responses={201: OpenApiTypes.OBJECT, 400: ERRORS, 403: ERRORS, 404: ERRORS},
    )
    def post(self, request, slug: str):
        club = self.club(request, slug)
        by = access.actor_for(request, via=Via.API)
        document, need = request.data, False
        if isinstance(document, dict) and "hands_need_acceptance" in document:
            document = dict(document)
            need = document.pop("hands_need_acceptance")
            if not isinstance(need, bool):
                services.authorize_club(by, club)  # an outsider learns nothing from the body
                raise RuleViolation(
                    [Problem("hands_need_acceptance", "type", {"expected": "boolean"})]
                )
        game = services.import_game(club=club, document=document, by=by, hands_need_acceptance=need)
        response = Response(selectors.game_detail(game), status=status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/games/{game.pk}/"
        return with_etag(response, etags.game_tag(game))


class GameDetail(APIView):
    @extend_schema(
        summary="A scored game",
        description="The shape of `manage.py score --json` plus `id`, `club`, `version`, `seats`. "
        "Send `If-None-Match` with the last ETag to poll cheaply (304 when nothing changed).",
        parameters=[IF_NONE_MATCH],
        responses={200: OpenApiTypes.OBJECT, 304: None, 404: ERRORS},
    )
    def get(self, request, game_id: int):
        game, _role = readable_game(request, game_id)
        tag = etags.game_tag(game)
        if not_modified(request, tag):
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), tag)
        return with_etag(Response(selectors.game_detail(game)), tag)


class GameExport(APIView):
    @extend_schema(
        summary="The game document (import/export format)",
        responses={200: OpenApiTypes.OBJECT, 404: ERRORS},
    )
    def get(self, request, game_id: int):
        game, _role = readable_game(request, game_id)
        return Response(selectors.export_game(game))


class GameWrite(APIView):
    """A write on a game. The service authorises the caller; the game is not read first, to keep
    entering a hand at a fixed, small number of queries. When the service refuses, the exception
    handler asks :meth:`may_read`: a caller who may not even read the game gets a 404.

    Input the view checks itself (a header, a body's shape) is checked inside
    :meth:`input_checks`: a refusal there is only answered once the caller is known to be
    allowed to write, so an outsider gets its 403/404 and never a 400 about the input."""

    parser_classes = [JSONParser]
    not_allowed_message = MAY_NOT_CHANGE_GAME
    #: Whether the game's table link may make this write (not abandoning the game).
    table_link_may = True
    #: The roles that may make this write (a table link aside): its input is judged only then.
    writers = HAND_WRITERS

    def may_read(self, request, game_id: int, **_kwargs) -> bool:
        try:
            readable_game(request, game_id)
        except NotFound:
            return False
        return True

    def missing_precondition(self, request, game_id: int, field: str, reason: str) -> Refused:
        """428 for a conditional write sent without its condition: to a caller who may read the
        game (the others learn nothing, not even that the game exists: 404)."""
        if not self.may_read(request, game_id):
            raise NotFound()
        return Refused(428, field, "required", reason=reason)

    def if_match(self, request, game_id: int) -> tuple[etags.Tag, ...]:
        """The validators of ``If-Match`` (``required_if_match``), 404 before 428."""
        try:
            return required_if_match(request)
        except Refused:
            raise self.missing_precondition(request, game_id, "If-Match", "if_match") from None

    def authorize(self, request, game_id: int) -> None:
        """NotFound unless the caller may read the game, NotAllowed unless it may write it."""
        game, role = readable_game(request, game_id)
        if role in self.writers:
            return
        if self.table_link_may and game.pk in access.table_writable(request):
            return
        raise NotAllowed()

    @contextmanager
    def input_checks(self, request, game_id: int) -> Iterator[None]:
        try:
            yield
        except (RuleViolation, Refused, ValidationError, ParseError):
            self.authorize(request, game_id)
            raise


class GameHands(GameWrite):
    @extend_schema(
        summary="Enter the next hand",
        description="The body is the hand document of the game's ruleset (see `/api/v1/rulesets/`), "
        "read by the rules engine.",
        parameters=[IDEMPOTENCY_KEY],
        request=OpenApiTypes.OBJECT,
        examples=[HAND_DOCUMENT_EXAMPLE],
        responses={
            201: OpenApiTypes.OBJECT,
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
        by = access.actor_for(request, Game(pk=game_id), via=Via.API)
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
    @extend_schema(
        summary="One hand",
        description="Its ETag names the hand itself and its version: send it back in `If-Match` "
        "to correct or remove this hand.",
        parameters=[IF_NONE_MATCH],
        responses={200: OpenApiTypes.OBJECT, 304: None, 404: ERRORS},
    )
    def get(self, request, game_id: int, number: int):
        game, _role = readable_game(request, game_id)
        hand = game.hands.filter(number=number).first()
        if hand is None:
            raise NotFound()
        tag = etags.hand_tag(hand)
        if not_modified(request, tag):
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), tag)
        return with_etag(Response(selectors.hand_payload(hand, game)), tag)

    @extend_schema(
        summary="Correct a hand",
        description='The body is the new hand document (or `{"document": …, "reason": …}`), read '
        "by the rules engine. The game is replayed from hand 1; if a later hand no longer fits, "
        "nothing changes and the 400 names that hand.",
        parameters=[IF_MATCH],
        request=OpenApiTypes.OBJECT,
        examples=[HAND_DOCUMENT_EXAMPLE],
        responses=CONDITIONAL_WRITE_RESPONSES,
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
        by = access.actor_for(request, Game(pk=game_id), via=Via.API)
        game = services.correct_hand(
            game=game_id,
            number=number,
            document=document,
            by=by,
            expected=expected,
            reason=reason,
        )
        hand = game.hands.get(number=number)
        return with_etag(Response(selectors.hand_payload(hand, game)), etags.hand_tag(hand))

    @extend_schema(
        summary="Remove a hand",
        description='A reason is required (`{"reason": …}` or `?reason=`). Later hands move up one '
        "number and the game is replayed. `If-Match` is required and names the hand removed: a "
        "removal resent with the same validator finds the hand that took this number and is "
        "refused (412), it never removes a second hand.",
        parameters=[IF_MATCH],
        request=ReasonInput,
        responses=CONDITIONAL_WRITE_RESPONSES,
    )
    def delete(self, request, game_id: int, number: int):
        with self.input_checks(request, game_id):
            expected = self.if_match(request, game_id)
            reason = ReasonInput.required(request)
        by = access.actor_for(request, Game(pk=game_id), via=Via.API)
        game = services.remove_hand(
            game=game_id,
            number=number,
            by=by,
            reason=reason,
            expected=expected,
        )
        return with_etag(Response(selectors.game_status(game)), etags.game_tag(game))


class HandAnswer(GameWrite):
    """A player of another side accepts or rejects a hand of a game whose hands must be
    accepted (``scoring.services.confirmations``). Conditioned on ``If-Match`` like every hand
    write: the answer is about the version the player read."""

    class InputSerializer(inputs.StrictInput):
        seat = inputs.Integer(
            min_value=0,
            max_value=7,
            help_text="The seat (from 0) of the player who answers: not the one who entered the "
            "hand, nor that player's partner.",
        )
        reason = inputs.Text(required=False, default="", help_text="Why (required to reject).")

    service: Any = None

    def post(self, request, game_id: int, number: int):
        serializer = self.InputSerializer(data=request.data)
        with self.input_checks(request, game_id):
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            extra = {}
            if type(self).service is services.reject_hand:
                if not data["reason"].strip():
                    raise RuleViolation([Problem("reason", "required")])
                extra["reason"] = data["reason"]
            expected = self.if_match(request, game_id)
        by = access.actor_for(request, Game(pk=game_id), via=Via.API)
        game = type(self).service(
            game=game_id, number=number, by=by, seat=data["seat"], expected=expected, **extra
        )
        hand = game.hands.get(number=number)
        return with_etag(Response(selectors.hand_payload(hand, game)), etags.hand_tag(hand))


ANSWER_DESCRIPTION = (
    "In a game whose hands must be accepted (`hands_need_acceptance`), a hand counts only once a "
    "player of another side than who entered it accepts it. `If-Match` names the hand as read "
    "(412 once it was corrected). 409 when the game is locked or its hands need no acceptance, "
    "{state}. Answering again the same way changes nothing."
)


@extend_schema_view(
    post=extend_schema(
        summary="Accept a hand (confirmation by the table)",
        description=ANSWER_DESCRIPTION.format(state="or when the hand was rejected (correct it)"),
        parameters=[IF_MATCH],
        request=HandAnswer.InputSerializer,
        examples=[OpenApiExample("Carla accepts", value={"seat": 2})],
        responses=CONDITIONAL_WRITE_RESPONSES,
    )
)
class HandAccept(HandAnswer):
    service = staticmethod(services.accept_hand)


@extend_schema_view(
    post=extend_schema(
        summary="Reject a hand, with a reason (confirmation by the table)",
        description=ANSWER_DESCRIPTION.format(
            state="or when it was already accepted (correct it instead)"
        )
        + " A rejected hand counts only once corrected and accepted.",
        parameters=[IF_MATCH],
        request=HandAnswer.InputSerializer,
        examples=[
            OpenApiExample("Carla rejects", value={"seat": 2, "reason": "Anna made 7, not 8"})
        ],
        responses=CONDITIONAL_WRITE_RESPONSES,
    )
)
class HandReject(HandAnswer):
    service = staticmethod(services.reject_hand)


class GameCorrections(GameWrite):
    class InputSerializer(inputs.StrictInput):
        hands = inputs.NumberedObject(
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
            OpenApiExample(
                "Two hands",
                value={
                    "hands": {"3": {"dealer": 2, "points": [70, 50]}, "4": {"dealer": 0}},
                    "versions": {"3": '"h1234.1"', "4": '"h1235.2"'},
                    "reason": "dealer miscounted",
                },
            )
        ],
        responses=CONDITIONAL_WRITE_RESPONSES,
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
            by=access.actor_for(request, Game(pk=game_id), via=Via.API),
            reason=data["reason"],
        )
        return with_etag(Response(selectors.game_detail(game)), etags.game_tag(game))


class ReasonedGameWrite(GameWrite):
    """A write on the whole game that needs a reason (abandon, reopen): the reason is judged
    once the caller may make the write; the answer is the game's status. ``service`` is the
    scoring service called with ``game``, ``by`` and ``reason``."""

    permission_classes = [IsAuthenticated]
    table_link_may = False
    service: Any = None

    def post(self, request, game_id: int):
        with self.input_checks(request, game_id):
            reason = ReasonInput.required(request)
        by = access.actor_for(request, via=Via.API)
        game = type(self).service(game=game_id, by=by, reason=reason)
        return with_etag(Response(selectors.game_status(game)), etags.game_tag(game))


REASONED_WRITE_RESPONSES = {
    200: OpenApiTypes.OBJECT,
    400: ERRORS,
    403: ERRORS,
    404: ERRORS,
    409: ERRORS,
}


@extend_schema_view(
    post=extend_schema(
        summary="Abandon a game (reason required)",
        request=ReasonInput,
        responses=REASONED_WRITE_RESPONSES,
    )
)
class GameAbandon(ReasonedGameWrite):
    service = staticmethod(services.abandon_game)


@extend_schema_view(
    post=extend_schema(
        summary="Reopen a locked game (reason required)",
        description="A game is locked when its round is closed or its competition is final: "
        "every hand write is then refused with 409. An owner or organizer of the club reopens it "
        "with a reason (audited); its hands may then change as usual, each change audited and "
        "reaching the standings once. A game locked because its competition is final stays "
        "locked (409) until the competition is reopened. `POST …/lock/` locks it again.",
        request=ReasonInput,
        responses=REASONED_WRITE_RESPONSES,
    )
)
class GameReopen(ReasonedGameWrite):
    service = staticmethod(services.reopen_game)
    not_allowed_message = MAY_NOT_LOCK_GAME
    writers = MANAGERS


class GameLock(GameWrite):
    permission_classes = [IsAuthenticated]
    not_allowed_message = MAY_NOT_LOCK_GAME

    @extend_schema(
        summary="Lock a game again",
        description="For the reason it was last locked (its round closed...), or by hand: every "
        "hand write is then refused with 409 until it is reopened. Owners and organizers.",
        request=None,
        responses={200: OpenApiTypes.OBJECT, 403: ERRORS, 404: ERRORS},
    )
    def post(self, request, game_id: int):
        readable_game(request, game_id)
        services.lock_games(games=[game_id], by=access.actor_for(request, via=Via.API))
        game = Game.objects.get(pk=game_id)
        return with_etag(Response(selectors.game_status(game)), etags.game_tag(game))


class GameAudit(APIView):
    class OutputSerializer(Output):
        at = Moment()
        action = serializers.CharField()
        hand = serializers.IntegerField(source="hand_number", allow_null=True)
        actor = serializers.CharField(source="actor_label")
        via = serializers.CharField()
        before = serializers.JSONField(allow_null=True)
        after = serializers.JSONField(allow_null=True)
        reason = serializers.CharField()

    @extend_schema(
        summary="The audit trail of a game",
        responses={200: OutputSerializer(many=True), 404: ERRORS},
    )
    def get(self, request, game_id: int):
        game, role = readable_game(request, game_id)
        if role is None and game.pk not in access.table_games(request):
            raise NotFound()
        return Response(self.OutputSerializer(selectors.audit_of_game(game), many=True).data)


__all__ = [
    "ClubGames",
    "ClubList",
    "GameAbandon",
    "GameAudit",
    "GameCorrections",
    "GameDetail",
    "GameExport",
    "GameHand",
    "GameHands",
    "GameLock",
    "GameReopen",
    "RulesetList",
]
