"""Calling the director: ``/api/v1/games/<id>/director-call/`` (the table's call: read it, make
it) and ``/api/v1/competitions/<id>/calls/`` (the open calls, for the club's members; answered by
its owner and organizers). The same services as the pages (``services.calls``); a table phone's
calls are counted as on the pages (``views.calls.guard_call``)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from scoring import access
from scoring.api import inputs
from scoring.api.parsers import JSONParser
from scoring.models import Via
from scoring.views.access import game_or_404
from tournaments import services
from tournaments.api.common import WRITE_ERRORS, CompetitionView, actor, readable_competition
from tournaments.models import CallReason, DirectorCall
from tournaments.selectors.calls import call_shown, open_calls
from tournaments.services.calls import CALL_ACTIONS, TEXT_MAX
from tournaments.views.calls import guard_call, playing_table


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
    parser_classes = [JSONParser]
    not_allowed_message = "Only the table's phones, its players and the club's scorers call."

    class InputSerializer(inputs.StrictInput):
        reason = inputs.Choice(CallReason.values)
        text = inputs.Text(required=False, max_length=TEXT_MAX)

    def _table(self, request, game_id: int):
        game, _role = game_or_404(request, game_id)
        table = playing_table(game.pk)
        if table is None:
            raise NotFound()
        return game, table

    @extend_schema(summary="The table's call of the director", responses={200: dict})
    def get(self, request, game_id: int):
        _game, table = self._table(request, game_id)
        return Response(call_payload(call_shown(table, timezone.now())))

    @extend_schema(
        summary="Call the director to the table",
        description="`reason`: dispute, rules, leaving or other; `text` optional. One open call "
        "per table: calling again is refused until the call is resolved or a few minutes "
        "have passed without an answer.",
        request=InputSerializer,
        responses={201: dict, **WRITE_ERRORS},
    )
    def post(self, request, game_id: int):
        game, table = self._table(request, game_id)
        body = read(self.InputSerializer, request)
        by = access.actor_for(request, game, via=Via.API)
        guard_call(request, table, by)
        call = services.call_director(table=table, by=by, **body)
        return Response(call_payload(call), status=status.HTTP_201_CREATED)


def read(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _members_only(request, competition_id: int):
    competition, role = readable_competition(request, competition_id)
    if role is None:
        raise NotFound()  # the calls are the club's own business
    return competition


class CompetitionCalls(CompetitionView):
    @extend_schema(summary="The open calls of the director", responses={200: dict})
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
        responses={200: dict, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, call_id: int):
        competition = _members_only(request, competition_id)
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
