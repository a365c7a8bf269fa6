"""A schedule preview: the pure scheduler run on numbered players, nothing stored."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from scoring.api import inputs
from scoring.api.common import ERRORS, Output
from scoring.api.parsers import JSONParser
from scoring.api.schema import request_example
from scoring.rules import Problem
from tournaments.api.common import CompetitionView, read_body, scheduler_refusals
from tournaments.models import Round
from tournaments.scheduling import cli as schedule_cli

#: Limits of the schedule preview (it runs in the request).
PREVIEW_MAX_PLAYERS = 500
PREVIEW_MAX_ROUNDS = 60
PREVIEW_MAX_TABLE_SIZE = 8


def _ints(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), **kwargs)


class ScheduleMetrics(Output):
    """The quality figures of a previewed schedule."""

    repeated_pairs = serializers.IntegerField(help_text="Meetings beyond a pair's first.")
    max_meetings = serializers.IntegerField(help_text="The most times two players share a table.")
    lower_bound = serializers.IntegerField(
        help_text="The most rounds that can be played without any repeat."
    )
    perfect = serializers.BooleanField(help_text="No pair meets twice.")
    byes_per_player = _ints(help_text="(fewest, most) rounds a player is not seated.")
    first_dealer = _ints(help_text="(fewest, most) times a player deals first.")
    seconds = serializers.FloatField(help_text="Time spent building the schedule.")
    method = serializers.CharField(help_text="How the schedule was built.")


class SchedulePlan(Output):
    """A previewed schedule of numbered players (``cli.build``)."""

    rounds = serializers.ListField(
        child=serializers.ListField(child=_ints()),
        help_text="Per round, its tables, each the seat-ordered numbers of its players.",
    )
    byes = serializers.ListField(child=_ints(), help_text="Per round, the players not seated.")
    metrics = ScheduleMetrics()


class SchedulePreview(CompetitionView):
    parser_classes = [JSONParser]
    # Pure computation, but up to a few seconds of it: for signed-in users (organizers trying
    # sizes before they start), not for anyone on the internet.
    permission_classes = [IsAuthenticated]

    class InputSerializer(inputs.StrictInput):
        players = inputs.Integer(min_value=2, max_value=PREVIEW_MAX_PLAYERS)
        table_size = inputs.Integer(min_value=2, max_value=PREVIEW_MAX_TABLE_SIZE)
        rounds = inputs.Integer(min_value=1, max_value=PREVIEW_MAX_ROUNDS)
        format = inputs.Choice(schedule_cli.FORMATS, required=False, default="rotation")
        seed = inputs.Integer(required=False, default=0, min_value=0, max_value=Round.SEED_MAX)

        def validate(self, attrs):
            players, size = attrs["players"], attrs["table_size"]
            problems = []
            if players < size:
                problems.append(
                    Problem(
                        "players",
                        "range",
                        {"min": size, "max": PREVIEW_MAX_PLAYERS, "value": players},
                    )
                )
            if attrs["format"] == "round_robin" and size != 2:
                problems.append(Problem("table_size", "choice", {"choices": (2,), "value": size}))
            self.refuse(problems)
            return attrs

    @extend_schema(
        summary="Preview a schedule (nothing is stored)",
        description="Players are numbered 0 … players-1; the answer gives each round's "
        "tables and byes, and the schedule's quality figures. "
        f"At most {PREVIEW_MAX_PLAYERS} players and {PREVIEW_MAX_ROUNDS} rounds; a round robin "
        "is played at tables of 2. Signed-in callers only.",
        request=InputSerializer,
        responses={200: SchedulePlan, 400: ERRORS, 403: ERRORS},
        examples=[
            request_example(
                "13 players at tables of 3",
                {"players": 13, "table_size": 3, "rounds": 4, "format": "rotation"},
            )
        ],
    )
    def post(self, request):
        data = read_body(self.InputSerializer, request)
        # A case the checks above did not foresee is a 400 on the document, not a 500.
        with scheduler_refusals("document"):
            plan = schedule_cli.build(
                data["players"], data["table_size"], data["rounds"], data["format"], data["seed"]
            )
        return Response(plan)
