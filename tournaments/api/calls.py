"""Calling the director: ``/api/v1/games/<id>/director-call/`` (the table's call: read it, make
it) and ``/api/v1/competitions/<id>/calls/`` (the open calls, for the club's members; answered by
its owner and organizers). The same services as the pages (``services.calls``); a table phone's
calls are counted as on the pages (``views.calls.guard_call``)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response

from scoring import access
from scoring.api import inputs
from scoring.api.common import ERRORS, Output
from scoring.api.parsers import JSONParser
from scoring.models import Via
from scoring.views.access import game_or_404
from tournaments import services
from tournaments.api.common import WRITE_ERRORS, CompetitionView, actor, readable_competition
from tournaments.models import CallReason, DirectorCall
from tournaments.selectors.calls import call_shown, open_calls
from tournaments.services.calls import CALL_ACTIONS, TEXT_MAX, caller_name
from tournaments.views.calls import guard_call, playing_table

#: What a read of the calls may answer besides 200.
READ_ERRORS = {401: ERRORS, 403: ERRORS, 404: ERRORS}


class CallOutput(Output):
    """A table's call of the director (``state`` "none" alone when the table has none)."""

    state = serializers.ChoiceField(["none", "open", "coming", "resolved"])
    id = serializers.IntegerField(required=False)
    table = serializers.IntegerField(required=False, help_text="The table's number.")
    round = serializers.IntegerField(required=False, help_text="The round's number.")
    reason = serializers.ChoiceField(CallReason.choices, required=False)
    text = serializers.CharField(required=False, allow_blank=True)
    caller = serializers.CharField(
        required=False, allow_blank=True, help_text="Who called; empty: the table's phone."
    )
    times = serializers.IntegerField(required=False, help_text="How many times it was made.")
    called_at = serializers.DateTimeField(required=False)
    acknowledged_at = serializers.DateTimeField(required=False, allow_null=True)
    resolved_at = serializers.DateTimeField(required=False, allow_null=True)


class CallsOutput(Output):
    class Meta:
        ref_name = "CallList"

    calls = CallOutput(many=True)


def call_payload(call: DirectorCall | None) -> dict:
    if call is None:
        return {"state": "none"}
    return {
        "id": call.pk,
        "table": call.table.number,
        "round": call.table.round.number,
        "state": call.state,
        "reason": call.reason,
        "text": call.text,
        "caller": call.caller,
        "times": call.times,
        "called_at": call.called_at.isoformat(),
        "acknowledged_at": call.acknowledged_at.isoformat() if call.acknowledged_at else None,
        "resolved_at": call.resolved_at.isoformat() if call.resolved_at else None,
    }


class GameCall(CompetitionView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]
    not_allowed_message = "Only the table's phones, its players and the club's scorers call."

    class InputSerializer(inputs.StrictInput):
        reason = inputs.Choice(CallReason.values)
        text = inputs.Text(required=False, max_length=TEXT_MAX)

    def _table(self, request, game_id: int):
        game, _role = game_or_404(request, game_id)
        return game, playing_table(game.pk)

    @extend_schema(
        summary="The table's call of the director", responses={200: CallOutput, **READ_ERRORS}
    )
    def get(self, request, game_id: int):
        _game, table = self._table(request, game_id)
        if table is None:  # no round being played at this game's table
            return Response(call_payload(None))
        return Response(call_payload(call_shown(table, timezone.now())))

    @extend_schema(
        summary="Call the director to the table",
        description="`reason`: dispute, rules, leaving or other; `text` optional. One open call "
        "per table: calling again is refused until the call is resolved or a few minutes "
        "have passed without an answer.",
        request=InputSerializer,
        responses={201: CallOutput, **WRITE_ERRORS},
    )
    def post(self, request, game_id: int):
        game, table = self._table(request, game_id)
        if table is None:
            raise NotFound()
        by = access.actor_for(request, game, via=Via.API)
        if caller_name(table, by) is None:
            raise PermissionDenied()  # who may call comes before what the body says
        body = read(self.InputSerializer, request)
        guard_call(request, table, by)
        call = services.call_director(table=table, by=by, **body)
        return Response(call_payload(call), status=status.HTTP_201_CREATED)


def read(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _members_only(request, competition_id: int, *, manage: bool = False):
    competition, role = readable_competition(request, competition_id)
    if role is None:
        raise NotFound()  # the calls are the club's own business
    if manage and not access.is_manager(role):
        raise PermissionDenied()  # before the body is read: who may answer comes first
    return competition


class CompetitionCalls(CompetitionView):
    @extend_schema(
        summary="The open calls of the director", responses={200: CallsOutput, **READ_ERRORS}
    )
    def get(self, request, competition_id: int):
        competition = _members_only(request, competition_id)
        return Response({"calls": [call_payload(c) for c in open_calls(competition.pk)]})


class CallAnswer(CompetitionView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        action = inputs.Choice(CALL_ACTIONS)

    @extend_schema(
        summary="Acknowledge or resolve a call",
        request=InputSerializer,
        responses={200: CallOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, call_id: int):
        competition = _members_only(request, competition_id, manage=True)
        call = (
            DirectorCall.objects.select_related("table__round__competition__club")
            .filter(pk=call_id, table__round__competition=competition)
            .first()
        )
        if call is None:
            raise NotFound()
        body = read(self.InputSerializer, request)
        call = CALL_ACTIONS[body["action"]](call=call, by=actor(request))
        return Response(call_payload(call))
