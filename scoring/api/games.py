"""The scoring API under ``/api/v1/``: a game, its export, its audit trail, and the writes on the
whole game (abandon, reopen, lock); the base of every game write (``GameWrite``). Clubs and
rulesets are ``scoring.api.clubs``, hands ``scoring.api.hands``, answers to waiting hands
``scoring.api.confirmations``.

Views translate: request in, one selector or service call, response out. A refusal is raised
(``RuleViolation``, ``NotAllowed``, ``VersionConflict``...) and mapped to the one error shape,
``{"errors": [{"hand", "field", "code", "message"}]}``, by ``scoring.api.errors``. A view first
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

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
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
    Moment,
    Output,
    not_modified,
    readable_game,
    required_if_match,
    with_etag,
)
from scoring.api.errors import Refused
from scoring.api.idempotency import Idempotent
from scoring.api.outputs import GameAnswer, GameDocument, GameFigures, HandAnswer
from scoring.api.pagination import Pages, page_of_queryset
from scoring.api.parsers import JSONParser
from scoring.api.schema import GAME_AUDIT_STATE, sends
from scoring.models import HAND_WRITERS, MANAGERS, Game, Via
from scoring.rules import Problem, RuleViolation
from scoring.services import NotAllowed

#: What a refused write says, where the caller may read the game (``scoring.api.errors``).
MAY_NOT_CHANGE_GAME = _("You may not change this game.")
MAY_NOT_LOCK_GAME = _("Only an owner or organizer of the club may reopen or lock a game.")

IDEMPOTENCY_KEY_MAX = 255  # as every other write (scoring.api.idempotency.KEY_MAX)
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
    200: HandAnswer,
    400: ERRORS,
    403: ERRORS,
    404: ERRORS,
    409: ERRORS,
    412: ERRORS,
    428: ERRORS,
}


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


class RequiredReasonInput(ReasonInput):
    """A reason that must be given (not blank): abandoning or reopening a game."""

    reason = inputs.Text(non_blank=True)


class GameDetail(APIView):
    anyone_may = ("GET",)

    @extend_schema(
        summary="A scored game",
        description="The shape of `manage.py score --json` plus `id`, `club`, `version`, `seats`. "
        "Send `If-None-Match` with the last ETag to poll cheaply (304 when nothing changed).",
        parameters=[IF_NONE_MATCH],
        extensions=sends(_200=("ETag",)),
        responses={200: GameAnswer, 304: None, 404: ERRORS},
    )
    def get(self, request, game_id: int):
        game, _role = readable_game(request, game_id)
        tag = etags.game_tag(game)
        if not_modified(request, tag):
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), tag)
        return with_etag(Response(selectors.game_detail(game)), tag)


class GameExport(APIView):
    anyone_may = ("GET",)

    @extend_schema(
        summary="The game document (import/export format)",
        responses={200: GameDocument, 404: ERRORS},
    )
    def get(self, request, game_id: int):
        game, _role = readable_game(request, game_id)
        return Response(selectors.export_game(game))


class GameWrite(Idempotent, APIView):
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

    def actor(self, request, game_id: int):
        """Who writes: the caller's account, or this game's table link."""
        return access.actor_for_game_id(request, game_id, via=Via.API)

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


def hand_answer(game: Game, number: int) -> Response:
    """The answer to a write on hand ``number``: the hand as it is now, with its validator."""
    hand = selectors.hand_of(game, number)
    return with_etag(Response(selectors.hand_payload(hand, game)), etags.hand_tag(hand))


class ReasonedGameWrite(GameWrite):
    """A write on the whole game that needs a reason (abandon, reopen): the reason is judged
    once the caller may make the write; the answer is the game's status. ``service`` is the
    scoring service called with ``game``, ``by`` and ``reason``."""

    permission_classes = [IsAuthenticated]
    table_link_may = False
    service: Any = None

    #: Whether an ``If-Match`` sent is held to (412 unless it names the game as it is).
    conditional = False

    def post(self, request, game_id: int):
        with self.input_checks(request, game_id):
            reason = RequiredReasonInput.of(request)
        by = access.actor_for(request, via=Via.API)
        condition = {}
        if self.conditional and request.headers.get("If-Match") is not None:
            parsed = etags.parse(request.headers["If-Match"])
            condition["expected"] = () if parsed is None or parsed.any else parsed.strong
        game = type(self).service(game=game_id, by=by, reason=reason, **condition)
        return with_etag(Response(selectors.game_status(game)), etags.game_tag(game))


REASONED_WRITE_RESPONSES = {
    200: GameFigures,
    400: ERRORS,
    403: ERRORS,
    404: ERRORS,
    409: ERRORS,
}


@extend_schema_view(
    post=extend_schema(
        summary="Abandon a game (reason required)",
        description="With `If-Match` (the game's ETag as read), the game is abandoned only as "
        "it was read: 412 when it changed since.",
        parameters=[
            OpenApiParameter(
                "If-Match",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                required=False,
                description='The game\'s ETag as read (`"g<game id>.<version>"`).',
            )
        ],
        request=RequiredReasonInput,
        extensions=sends(_200=("ETag",)),
        responses=REASONED_WRITE_RESPONSES | {412: ERRORS},
    )
)
class GameAbandon(ReasonedGameWrite):
    service = staticmethod(services.abandon_game)
    conditional = True


@extend_schema_view(
    post=extend_schema(
        summary="Reopen a locked game (reason required)",
        description="A game is locked when its round is closed or its competition is final: "
        "every hand write is then refused with 409. An owner or organizer of the club reopens it "
        "with a reason (audited); its hands may then change as usual, each change audited and "
        "reaching the standings once. A game locked because its competition is final stays "
        "locked (409) until the competition is reopened. `POST …/lock/` locks it again.",
        request=RequiredReasonInput,
        extensions=sends(_200=("ETag",)),
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
        extensions=sends(_200=("ETag",)),
        responses={200: GameFigures, 403: ERRORS, 404: ERRORS},
    )
    def post(self, request, game_id: int):
        readable_game(request, game_id)
        services.lock_games(games=[game_id], by=access.actor_for(request, via=Via.API))
        game = Game.objects.get(pk=game_id)
        return with_etag(Response(selectors.game_status(game)), etags.game_tag(game))


@extend_schema_field(GAME_AUDIT_STATE)
class AuditStateField(serializers.JSONField):
    """What the audit trail keeps before or after a change (``GameAuditState``)."""


class GameAudit(APIView):
    pagination_class = Pages

    class OutputSerializer(Output):
        at = Moment()
        action = serializers.CharField()
        hand = serializers.IntegerField(
            source="hand_number",
            allow_null=True,
            help_text="The hand's number when this happened (later removals move numbers up).",
        )
        hand_serial = serializers.IntegerField(
            allow_null=True,
            help_text="Which hand: its serial (a hand's `serial`), the same whatever its number.",
        )
        actor = serializers.CharField(source="actor_label")
        via = serializers.CharField()
        before = AuditStateField(allow_null=True)
        after = AuditStateField(allow_null=True)
        reason = serializers.CharField()

    @extend_schema(
        summary="The audit trail of a game",
        responses={200: OutputSerializer(many=True), 404: ERRORS},
    )
    def get(self, request, game_id: int):
        game, role = readable_game(request, game_id)
        if role is None and game.pk not in access.table_games(request):
            raise NotFound()
        return page_of_queryset(
            request,
            selectors.audit_of_game(game),
            ordering=("at", "id"),
            serialize=lambda page: self.OutputSerializer(page, many=True).data,
        )
