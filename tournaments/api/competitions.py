"""Competitions of a club: the list, a new league or tournament, one competition."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from scoring.api import inputs
from scoring.api.common import ERRORS
from scoring.api.pagination import Pages, page_of_rows
from scoring.api.parsers import JSONParser
from scoring.api.schema import COMPETITION_OPTIONS_REQUEST, request_example, sends
from scoring.rules import RULESETS
from scoring.services import NotAllowed
from tournaments import selectors, services
from tournaments.api.common import (
    WRITE_ERRORS,
    CompetitionView,
    actor,
    club_of,
    managed_competition,
    may_manage,
    read_body,
    readable_competition,
)
from tournaments.api.payloads import CompetitionOutput, CompetitionSummary, competition_detail
from tournaments.models import Competition, Format, Kind
from tournaments.standings import SCHEMES, TIE_BREAKS

#: The largest number a placement point may be (they are stored as JSON numbers).
PLACEMENT_POINTS_MAX = 1000
#: A knockout stage's own match length (a knockout, or the knockout of a Swiss cut).
LENGTH_HELP = (
    "Hands to win a match of this stage of the knockout (2: best of 3); the third-place match "
    "is played as the semi-finals. Null: the house rules' hands_to_win."
)


@extend_schema_field(COMPETITION_OPTIONS_REQUEST)
class HouseRules(inputs.ObjectOf):
    """House rules per ruleset (``CompetitionOptionsRequest``), each read by the rules engine."""


def _max_length(name: str) -> int:
    return Competition._meta.get_field(name).max_length


def latest_first(competition: Competition) -> tuple:
    """The order of a club's competitions: latest start first, undated ones after the dated
    (whatever the database does with NULL), then the latest created."""
    start = competition.start_date
    return (
        start is None,
        -start.toordinal() if start else 0,
        -competition.created_at.timestamp(),
        -competition.pk,
    )


class ClubCompetitions(CompetitionView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]
    pagination_class = Pages

    class InputSerializer(inputs.StrictInput):
        """Types, enums and lengths; the service checks the rest (ranges, combinations)."""

        class Meta:
            ref_name = "CompetitionCreate"

        name = inputs.Text(max_length=_max_length("name"), single_line=True)
        slug = inputs.Text(required=False, max_length=_max_length("slug"), single_line=True)
        kind = inputs.Choice(Kind.values, required=False)
        format = inputs.Choice(Format.values, required=False)
        rulesets = inputs.ListOf(child=inputs.Choice(RULESETS))
        options = HouseRules(
            child=inputs.Document(required=False, allow_null=True),
            required=False,
            help_text="House rules per ruleset: {ruleset: {option: value}}.",
        )
        table_size = inputs.Integer(required=False)
        min_table_size = inputs.Integer(required=False)
        max_table_size = inputs.Integer(required=False)
        planned_rounds = inputs.Integer(required=False)
        double_round = inputs.Boolean(required=False)
        third_place = inputs.Boolean(required=False)
        cut_to = inputs.Integer(
            required=False,
            allow_null=True,
            help_text="Swiss: after the planned rounds, a seeded knockout of the top N.",
        )
        bracket_reset = inputs.Boolean(
            required=False,
            help_text="Double elimination: a second grand final if the losers' champion wins the first.",
        )
        early_rounds_hands_to_win = inputs.Integer(
            required=False, allow_null=True, help_text=LENGTH_HELP
        )
        semi_final_hands_to_win = inputs.Integer(
            required=False, allow_null=True, help_text=LENGTH_HELP
        )
        final_hands_to_win = inputs.Integer(required=False, allow_null=True, help_text=LENGTH_HELP)
        scheme = inputs.Choice(SCHEMES, required=False)
        placement_points = inputs.NumberedObject(
            child=inputs.Numbers(limit=PLACEMENT_POINTS_MAX, required=False),
            key_problem=("unknown_key", {}),
            required=False,
            help_text='Points by place per table size: {"3": [4, 2, 0]}.',
        )
        tie_breaks = inputs.ListOf(child=inputs.Choice(TIE_BREAKS), required=False)
        best_of = inputs.Integer(required=False)
        min_rounds = inputs.Integer(required=False)
        start_date = inputs.Date(required=False, allow_null=True)
        end_date = inputs.Date(required=False, allow_null=True)
        public = inputs.Boolean(required=False)
        notify_entrants = inputs.Boolean(required=False)
        hands_must_be_accepted = inputs.Boolean(required=False)
        description = inputs.Text(required=False)

    @extend_schema(
        summary="Competitions of a club",
        description="Members see every competition of the club, others the public ones. "
        "Latest start first (undated ones after the dated), then the latest created.",
        responses={200: CompetitionSummary(many=True), 404: ERRORS},
    )
    def get(self, request, slug: str):
        club, role, visible = club_of(request, slug)
        if not visible:
            raise NotFound()
        competitions = selectors.club_competitions(club, public_only=role is None)
        return page_of_rows(
            request,
            competitions,
            key=latest_first,
            serialize=lambda page: CompetitionSummary(page, many=True).data,
        )

    @extend_schema(
        summary="Create a league or a tournament",
        description="Owners and organizers of the club. Every bad field is named in the 400.",
        request=InputSerializer,
        extensions=sends(_201=("Location",)),
        responses={201: CompetitionOutput, **WRITE_ERRORS},
        examples=[
            request_example(
                "A Terziglio tournament of four rounds",
                {
                    "name": "Torneo di primavera",
                    "rulesets": ["terziglio"],
                    "format": "rotation",
                    "planned_rounds": 4,
                    "start_date": "2026-04-11",
                },
            )
        ],
    )
    def post(self, request, slug: str):
        club, role, visible = club_of(request, slug)
        if not may_manage(role):
            # A club whose competitions the caller may not see is not even known to exist.
            raise NotAllowed() if visible else NotFound()
        body = read_body(self.InputSerializer, request)
        competition = services.create_competition(club=club, by=actor(request), **body)
        response = Response(competition_detail(competition, role), status=status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/competitions/{competition.pk}/"
        return response


class SettingsInput(inputs.StrictInput):
    """The settings the settings page changes; only the keys sent change. The kind, format,
    games and address stay as created."""

    name = inputs.Text(required=False, max_length=_max_length("name"), single_line=True)
    description = inputs.Text(required=False, max_length=2000)
    table_size = inputs.Integer(required=False, allow_null=True)
    min_table_size = inputs.Integer(required=False, allow_null=True)
    max_table_size = inputs.Integer(required=False, allow_null=True)
    planned_rounds = inputs.Integer(required=False, allow_null=True)
    double_round = inputs.Boolean(required=False)
    third_place = inputs.Boolean(required=False)
    bracket_reset = inputs.Boolean(required=False)
    cut_to = inputs.Integer(required=False, allow_null=True)
    early_rounds_hands_to_win = inputs.Integer(
        required=False, allow_null=True, help_text=LENGTH_HELP
    )
    semi_final_hands_to_win = inputs.Integer(required=False, allow_null=True, help_text=LENGTH_HELP)
    final_hands_to_win = inputs.Integer(required=False, allow_null=True, help_text=LENGTH_HELP)
    scheme = inputs.Choice(SCHEMES, required=False)
    placement_points = inputs.NumberedObject(
        child=inputs.Numbers(limit=PLACEMENT_POINTS_MAX, required=False),
        key_problem=("unknown_key", {}),
        required=False,
        allow_null=True,
    )
    tie_breaks = inputs.ListOf(child=inputs.Choice(TIE_BREAKS), required=False)
    best_of = inputs.Integer(required=False, allow_null=True)
    min_rounds = inputs.Integer(required=False)
    start_date = inputs.Date(required=False, allow_null=True)
    end_date = inputs.Date(required=False, allow_null=True)
    public = inputs.Boolean(required=False)
    notify_entrants = inputs.Boolean(required=False)
    confirm = inputs.Boolean(
        required=False,
        help_text="Needed once a round is played to change how the standings count (points, "
        "placement points, tie-breaks, best nights, attendance): they are computed again.",
    )


class CompetitionDetail(CompetitionView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]

    @extend_schema(
        summary="A competition, with a summary of its rounds",
        responses={200: CompetitionOutput, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, role = readable_competition(request, competition_id)
        return Response(competition_detail(competition, role))

    @extend_schema(
        summary="Change a competition's settings",
        description="The same service and checks as the settings page: only the fields sent "
        "change. Once a round is played, a change of how the standings count is refused (400 "
        "naming `confirm`) unless `confirm` is true; the standings are then computed again. "
        "Owners and organizers; audited in the competition's event log.",
        request=SettingsInput,
        responses={200: CompetitionOutput, **WRITE_ERRORS},
        examples=[request_example("Best 8 nights", {"best_of": 8, "confirm": True})],
    )
    def patch(self, request, competition_id: int):
        competition, role = managed_competition(request, competition_id)
        body = read_body(SettingsInput, request, partial=True)
        changes = dict(body)
        confirm = bool(changes.pop("confirm", False))
        if "description" in changes:
            changes["description"] = changes["description"] or ""
        services.update_competition(
            competition=competition, by=actor(request), confirm=confirm, **changes
        )
        competition.refresh_from_db()
        return Response(competition_detail(competition, role))


class CompetitionFinalize(CompetitionView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        reason = inputs.Text(required=False, default="", max_length=500)

    service = staticmethod(services.finalize_competition)

    @extend_schema(
        summary="Declare the results final",
        description="Every game of the competition is locked and no write of the competition "
        "(rounds, draw, entries, check-ins, forfeits, adjustments) nor of its games' hands is "
        "accepted (409) until an organizer reopens it. Refused (400) while a published round is "
        "still open. Owners and organizers; audited in the competition's event log.",
        request=InputSerializer,
        responses={200: CompetitionOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int):
        competition, role = managed_competition(request, competition_id)
        body = read_body(self.InputSerializer, request)
        competition = self.service(competition=competition, by=actor(request), **body)
        return Response(competition_detail(competition, role))


class CompetitionReopen(CompetitionFinalize):
    class InputSerializer(inputs.StrictInput):
        reason = inputs.Text(non_blank=True, max_length=500)

    service = staticmethod(services.reopen_competition)

    @extend_schema(
        summary="Reopen a final competition (reason required)",
        description="Writes are accepted again, audited in the competition's event log. The "
        "games stay locked for their closed round: an organizer reopens each game that must "
        "change (`POST /api/v1/games/{id}/reopen/`).",
        request=InputSerializer,
        responses={200: CompetitionOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int):
        return super().post(request, competition_id)
