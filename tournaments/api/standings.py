"""Standings of a competition, read from their snapshot with an ETag (``"s<competition>.<version>"``,
``scoring.etags``); with ``?after_round=N``, as they stood after round N (``api.history``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring import etags
from scoring.api.common import ERRORS, Output, not_modified, with_etag
from scoring.api.schema import sends
from tournaments import selectors, services
from tournaments.api.common import IF_NONE_MATCH, CompetitionView, readable_competition
from tournaments.api.history import AFTER_ROUND, after_round_of

FIGURE = {"type": "number", "description": "An integer when whole, else to two places."}


@extend_schema_field(
    {
        "type": "array",
        "items": {
            "type": "array",
            "items": {"anyOf": [FIGURE, {"type": "boolean"}]},
            "minItems": 3,
            "maxItems": 3,
        },
        "description": "`[round number, points, counted]` of every night played (best-N).",
    }
)
class NightsField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "additionalProperties": FIGURE})
class FiguresField(serializers.JSONField):
    pass


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2},
        "description": "`[key, label]` of each tie-break column, in order.",
    }
)
class ColumnsField(serializers.JSONField):
    pass


class OutlookOutput(Output):
    """Who can still win (``tournaments.standings.outlook``; docs/outlook.md)."""

    status = serializers.ChoiceField(
        ["clinched", "can_win", "cannot_win"],
        help_text="clinched: first alone whatever happens; can_win: first (alone or level on "
        "points) in some way the nights left can go; cannot_win: in none.",
    )
    best = serializers.IntegerField(
        allow_null=True,
        help_text="The best final rank still possible (winning every tie); null when the entry "
        "cannot play enough nights to be ranked.",
    )
    worst = serializers.IntegerField(
        allow_null=True, help_text="The worst final rank still possible (losing every tie)."
    )
    exact = serializers.BooleanField(
        help_text="The status is proved; false: a safe estimate (never cannot_win for an entry "
        "that could win, never clinched for one that could lose)."
    )
    ranks_exact = serializers.BooleanField(
        help_text="best and worst are reached; false: safe bounds around them."
    )
    reason = serializers.CharField(
        help_text='Why an answer is an estimate: "budget" (too many ways left to check), '
        '"not_drawn" (nights not drawn yet), both joined by "/"; empty when exact.'
    )


class StandingsRow(Output):
    rank = serializers.IntegerField(allow_null=True)
    ranked = serializers.BooleanField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    withdrawn = serializers.BooleanField()
    players = serializers.ListField(child=serializers.IntegerField())
    points = serializers.FloatField()
    games = serializers.IntegerField()
    rounds = serializers.IntegerField()
    wins = serializers.IntegerField()
    values = FiguresField(help_text="Each tie-break's figure, by column key.")
    nights = NightsField()
    outlook = OutlookOutput(
        required=False,
        help_text="Who can still win: in the overall table of a league with nights left only.",
    )


class StandingsTable(Output):
    key = serializers.CharField(help_text="`overall`, or a ruleset in a league of several games.")
    title = serializers.CharField(allow_blank=True)
    columns = ColumnsField()
    rows = StandingsRow(many=True)


class StandingsOutput(Output):
    competition = serializers.IntegerField()
    scheme = serializers.CharField()
    scheme_label = serializers.CharField()
    tables = StandingsTable(many=True)
    bracket = serializers.BooleanField(
        required=False, help_text="Ranked by a knockout's bracket, which is done."
    )
    games_counted = serializers.IntegerField(required=False)
    outlook = serializers.BooleanField(
        required=False, help_text="Whether the overall table's rows carry an outlook."
    )
    version = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    after_round = serializers.IntegerField(
        required=False,
        help_text="With `?after_round=N`: the standings as they stood after round (night) N.",
    )
    rounds_played = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="With `?after_round=N`: the numbers of the rounds played so far, each a valid N.",
    )


class Standings(CompetitionView):
    anyone_may = ("GET",)

    @extend_schema(
        summary="Standings of a competition",
        description="Recomputed from the games whenever one changes and kept as a snapshot; the "
        'ETag names the competition and the snapshot\'s version (`"s<id>.<version>"`): send it in '
        "`If-None-Match` to poll cheaply (304 while "
        "nothing changed). In a league with nights left, each row of the overall table "
        "carries its `outlook`: who can still win. With `?after_round=N`, the standings as they "
        "stood after round N, computed from the games of rounds 1 to N only (no `outlook`): "
        "what the standings page's chart of the rounds draws.",
        parameters=[IF_NONE_MATCH, AFTER_ROUND],
        extensions=sends(_200=("ETag",)),
        responses={200: StandingsOutput, 304: None, 400: ERRORS, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        snapshot = selectors.snapshot_of(competition)
        if snapshot is None:
            services.store_standings(competition=competition)
            snapshot = selectors.snapshot_of(competition)
        tag = etags.standings_tag(competition.pk, snapshot.version)
        after = after_round_of(request, competition)
        if not_modified(request, tag):
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), tag)
        found = snapshot.data if after is None else after
        data = selectors.labelled(found) | {
            "version": snapshot.version,
            "computed_at": snapshot.computed_at.isoformat() if snapshot.computed_at else None,
        }
        return with_etag(Response(data), tag)
