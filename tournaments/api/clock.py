"""The round's clock at the tables: ``GET /api/v1/games/<id>/clock/`` (as the game may be read:
the server's ``now``, the ``deadline`` while the timer runs, what is ``left``, this table's
``extra`` time and the ``last_hand`` warning), and the director's settings:
``POST /api/v1/competitions/<id>/rounds/<n>/clock/`` (``last_hand_minutes``) and
``POST /api/v1/competitions/<id>/rounds/<n>/tables/<number>/extra-time/`` (``minutes``)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from scoring.api import inputs
from scoring.api.common import Output
from scoring.api.parsers import JSONParser
from scoring.views.access import game_or_404
from tournaments import services
from tournaments.api.calls import READ_ERRORS, read
from tournaments.api.common import WRITE_ERRORS, CompetitionView, actor, managed_round
from tournaments.presenters.clock import clock_of
from tournaments.services.clock import CLOCK_MINUTES_MAX
from tournaments.views.calls import playing_table


class ClockOutput(Output):
    """The round's clock at a table (``state`` "none" alone once no round is played there)."""

    state = serializers.ChoiceField(["none", "idle", "running", "paused", "over"])
    now = serializers.IntegerField(required=False, help_text="The server's time, ms since 1970.")
    deadline = serializers.IntegerField(
        required=False, allow_null=True, help_text="When the timer ends (ms), while it runs."
    )
    left = serializers.IntegerField(required=False, help_text="Seconds left.")
    extra = serializers.IntegerField(required=False, help_text="This table's extra seconds.")
    extra_minutes = serializers.IntegerField(required=False)
    text = serializers.CharField(required=False, help_text="What is left as mm:ss or h:mm:ss.")
    last_hand = serializers.IntegerField(
        required=False, allow_null=True, help_text="Seconds before the end: “last hand”."
    )


class RoundClockOutput(Output):
    round = serializers.IntegerField()
    last_hand_minutes = serializers.IntegerField(allow_null=True)


class ExtraTimeOutput(Output):
    table = serializers.IntegerField()
    extra = serializers.IntegerField(help_text="Extra seconds of this table.")
    clock = ClockOutput()


class GameClock(CompetitionView):
    anyone_may = ("GET",)

    @extend_schema(
        summary="The round's clock at this game's table",
        responses={200: ClockOutput, **READ_ERRORS},
    )
    def get(self, request, game_id: int):
        game, _role = game_or_404(request, game_id)
        table = playing_table(game.pk)
        if table is None:
            return Response({"state": "none"})
        return Response(clock_of(table, timezone.now()))


class RoundClock(CompetitionView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        last_hand_minutes = inputs.Integer(min_value=0, max_value=CLOCK_MINUTES_MAX)

    @extend_schema(
        summary="The tables' “last hand” warning",
        description="Minutes before the end of the round timer (0: no warning).",
        request=InputSerializer,
        responses={200: RoundClockOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        _competition, _role, round_ = managed_round(request, competition_id, number)
        body = read(self.InputSerializer, request)
        services.set_last_hand(round_=round_, by=actor(request), minutes=body["last_hand_minutes"])
        return Response({"round": round_.number, "last_hand_minutes": round_.last_hand_minutes})


class TableExtraTime(CompetitionView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        minutes = inputs.Integer(min_value=0, max_value=CLOCK_MINUTES_MAX)

    @extend_schema(
        summary="Extra time for one table",
        description="Minutes on top of the round timer, for this table only (0: none).",
        request=InputSerializer,
        responses={200: ExtraTimeOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int, table: int):
        _competition, _role, round_ = managed_round(request, competition_id, number)
        row = round_.tables.filter(number=table).first()
        if row is None:
            raise NotFound()
        row.round = round_
        body = read(self.InputSerializer, request)
        services.give_extra_time(table=row, by=actor(request), minutes=body["minutes"])
        shown = clock_of(row, timezone.now()) if row.game_id else {"state": "none"}
        return Response({"table": row.number, "extra": row.extra_seconds, "clock": shown})
