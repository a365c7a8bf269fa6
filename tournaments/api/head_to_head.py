"""Who beat whom in a competition (``selectors.head_to_head``): the entries in standings order
and every pair that met, with each meeting's game, round, outcome and scores."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from scoring.api.common import ERRORS, Output
from tournaments.api.common import CompetitionView, readable_competition
from tournaments.selectors.head_to_head import MATCHES, PLACES, head_to_head_of


class HeadToHeadEntry(Output):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField(
        allow_null=True, help_text="The entry's rank in the standings; null when unranked."
    )


class HeadToHeadMeeting(Output):
    game = serializers.IntegerField(help_text="The game's id (its page: /g/<game>/).")
    round = serializers.IntegerField(help_text="The round's (or night's) number.")
    outcome = serializers.ChoiceField(
        ["won", "lost", "drawn"],
        help_text="For `entry`: finished ahead of `opponent` (won), behind (lost) or sharing "
        "the place (drawn).",
    )
    score = serializers.IntegerField(help_text="The game's own total of `entry`.")
    opponent_score = serializers.IntegerField(help_text="The game's own total of `opponent`.")


class HeadToHeadPair(Output):
    entry = serializers.IntegerField()
    opponent = serializers.IntegerField()
    ahead = serializers.IntegerField(help_text="Games where `entry` finished ahead.")
    behind = serializers.IntegerField(help_text="Games where `entry` finished behind.")
    level = serializers.IntegerField(help_text="Games where they shared the place.")
    meetings = HeadToHeadMeeting(many=True)


class HeadToHeadOutput(Output):
    competition = serializers.IntegerField()
    counted_by = serializers.ChoiceField(
        [MATCHES, PLACES],
        help_text="matches: every game had two competitors (each meeting is a match); "
        "places: tables of three or more (who finished ahead of whom).",
    )
    entries = HeadToHeadEntry(many=True)
    pairs = HeadToHeadPair(
        many=True, help_text="Every ordered pair of entries that met, both ways round."
    )


class HeadToHead(CompetitionView):
    anyone_may = ("GET",)

    @extend_schema(
        summary="Who beat whom in a competition",
        description="Every pair of entries that met in a finished game (forfeits left out), "
        "both ways round, with each meeting; the entries in standings order.",
        responses={200: HeadToHeadOutput, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        return Response(head_to_head_of(competition))
