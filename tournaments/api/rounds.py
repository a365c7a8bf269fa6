"""Rounds (or club nights) of a competition: add, reschedule, check in, draw, swap, publish,
close, and settle a table that cannot finish.

Every write answers with the round as it now is (``payloads.round_payload``).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from scoring.api import inputs
from scoring.api.common import ERRORS, required_if_match, with_etag
from scoring.api.pagination import Pages, page_of_rows
from scoring.api.parsers import JSONParser
from scoring.api.schema import request_example, sends
from scoring.rules import RULESETS
from tournaments import selectors, services
from tournaments.api.common import (
    WRITE_ERRORS,
    CompetitionView,
    actor,
    ensure_manager,
    managed_competition,
    managed_round,
    may_see_drafts,
    read_body,
    readable_competition,
    readable_round,
    scheduler_refusals,
)
from tournaments.api.payloads import RoundOutput, round_payload, round_response
from tournaments.models import RepeatObjective, Round, RoundStatus, Table

IF_MATCH_ROUND = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description='The round\'s ETag as read (`"r<round id>.<version>"`, from `GET` of the round).',
)

#: Entry ids are database keys: positive, within a 64-bit integer.
ID_MAX = 2**63 - 1


class RoundInput(inputs.StrictInput):
    """A round's slot and game. On a change (PATCH) only the keys sent change, ``null`` clears
    the date or the time; the service checks the duration's range and the game."""

    date = inputs.Date(required=False, allow_null=True)
    start_time = inputs.Time(required=False, allow_null=True)
    duration_minutes = inputs.Integer(required=False)
    ruleset = inputs.Choice(RULESETS, required=False)


class Rounds(CompetitionView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]
    pagination_class = Pages

    @extend_schema(
        summary="Rounds (or club nights) of a competition, with their tables",
        description="Draft rounds are listed for members of the club only.",
        operation_id="v1_competitions_rounds_list",
        responses={200: RoundOutput(many=True), 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, role = readable_competition(request, competition_id)
        present = selectors.check_ins_by_round(competition)
        drafts = may_see_drafts(role)
        return page_of_rows(
            request,
            [
                r
                for r in selectors.rounds_of(competition)
                if drafts or r.status != RoundStatus.DRAFT
            ],
            key=lambda round_: (round_.number, round_.pk),
            serialize=lambda page: [round_payload(competition, r, present[r.pk]) for r in page],
        )

    @extend_schema(
        summary="Add a round",
        description="`ruleset` defaults to the competition's first game, `duration_minutes` to 90.",
        request=RoundInput,
        extensions=sends(_201=("Location",)),
        responses={201: RoundOutput, **WRITE_ERRORS},
        examples=[
            request_example(
                "A Saturday afternoon",
                {"date": "2026-04-11", "start_time": "15:30", "duration_minutes": 120},
            )
        ],
    )
    def post(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        body = read_body(RoundInput, request)
        round_ = services.add_round(competition=competition, by=actor(request), **body)
        return round_response(competition, round_.number, status.HTTP_201_CREATED)


class RoundDetail(CompetitionView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]

    @extend_schema(
        summary="A round: tables with their seats and games, byes, check-ins, quality figures",
        description="A draft round is a 404 for anyone outside the club. Its `ETag` is the "
        "round's validator: send it in `If-Match` to delete a draft round.",
        extensions=sends(_200=("ETag",)),
        responses={200: RoundOutput, 404: ERRORS},
    )
    def get(self, request, competition_id: int, number: int):
        competition, _role, round_ = readable_round(request, competition_id, number)
        return with_etag(round_response(competition, number), selectors.round_validator(round_.pk))

    @extend_schema(
        summary="Reschedule a round",
        description="Only the fields sent change: `date` and `start_time`, `null` to clear them; "
        "`duration_minutes`; `ruleset` while the round is a draft.",
        request=RoundInput,
        responses={200: RoundOutput, **WRITE_ERRORS},
        examples=[request_example("Moved to 21:00", {"start_time": "21:00"})],
    )
    def patch(self, request, competition_id: int, number: int):
        competition, _role, round_ = managed_round(request, competition_id, number)
        body = read_body(RoundInput, request, partial=True)
        services.update_round(round_=round_, by=actor(request), **body)
        return round_response(competition, number)

    @extend_schema(
        summary="Delete a draft round",
        description="A stray round leaves the schedule and the calendar; only a draft round "
        "after which nothing is published can go (400 otherwise). Audited. `If-Match` is "
        'required (428 without) and names the round as read (its ETag, `"r<round id>.<version>"`): '
        "the later rounds move up one number, so the same DELETE sent again finds the round "
        "it deleted gone (404) and never deletes the one that took its number; 412 when the "
        "round changed since it was read.",
        parameters=[IF_MATCH_ROUND],
        request=None,
        responses={204: None, 412: ERRORS, 428: ERRORS, **WRITE_ERRORS},
    )
    def delete(self, request, competition_id: int, number: int):
        _competition, _role, round_ = managed_round(request, competition_id, number)
        expected = required_if_match(request, reason="if_match_round")
        services.delete_round(round_=round_, by=actor(request), expected=expected)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonInput(inputs.StrictInput):
    first_date = inputs.Date()
    nights = inputs.Integer()
    start_time = inputs.Time(required=False, allow_null=True)
    weekday = inputs.Integer(required=False, allow_null=True, help_text="0 = Monday … 6 = Sunday")
    rulesets = inputs.ListOf(child=inputs.Choice(RULESETS), required=False)
    duration_minutes = inputs.Integer(required=False)


class Season(CompetitionView):
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Add a season of weekly nights in one step",
        description="`nights` rounds a week apart from `first_date` (moved on to `weekday` if "
        "given), at `start_time`; their games rotate through `rulesets` (default: the "
        "competition's games). They follow the rounds already there.",
        request=SeasonInput,
        responses={201: RoundOutput(many=True), **WRITE_ERRORS},
        examples=[
            request_example(
                "Ten Tuesdays",
                {"first_date": "2026-01-13", "nights": 10, "start_time": "21:00"},
            )
        ],
    )
    def post(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        body = read_body(SeasonInput, request)
        rounds = services.add_season(competition=competition, by=actor(request), **body)
        return Response(
            [round_payload(competition, r) for r in rounds], status=status.HTTP_201_CREATED
        )


class RoundAction(CompetitionView):
    """A write on one round: its body (``InputSerializer``) is handed to ``act``."""

    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        """No body (or an empty object)."""

    def act(self, *, round_: Round, by, **fields) -> None:  # pragma: no cover
        raise NotImplementedError

    def post(self, request, competition_id: int, number: int):
        competition, _role, round_ = managed_round(request, competition_id, number)
        body = read_body(self.InputSerializer, request)
        self.act(round_=round_, by=actor(request), **body)
        return round_response(competition, number)


class RoundCheckIns(RoundAction):
    class InputSerializer(inputs.StrictInput):
        entries = inputs.ListOf(
            child=inputs.Integer(min_value=1, max_value=ID_MAX),
            help_text="Ids of the entries present (the others are not).",
        )

    @extend_schema(
        summary="Who is present (only they are seated when the round is drawn)",
        request=InputSerializer,
        responses={200: RoundOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, *, round_, by, entries):
        services.set_check_ins(round_=round_, entries=entries, by=by)


class RoundGenerate(RoundAction):
    class InputSerializer(inputs.StrictInput):
        seed = inputs.Integer(required=False, min_value=0, max_value=Round.SEED_MAX)
        method = inputs.Choice(
            services.CLUB_NIGHT_METHODS + services.SWISS_FIRST_METHODS,
            required=False,
            help_text="Club nights: seat players to meet new opponents (rotation) or with "
            "players of similar standing (standing). A Swiss round 1: top half against bottom "
            "half by the club's rating, at random where entrants have none (drawn, the default) "
            "or in the order entered (entered); later Swiss rounds pair by score. The round's "
            '`method` says how it was drawn: "rating", "random", "entered" or "swiss".',
        )
        objective = inputs.Choice(
            RepeatObjective.values,
            required=False,
            help_text="Rotation only, when some repeated meetings cannot be avoided: spread them "
            "(the fewest meetings for any one pair) or the fewest repeats in all. Kept on the "
            "competition for its later draws.",
        )

    @extend_schema(
        summary="Draw the tables of a draft round",
        description="Rotation and round robin plan every draft round at once; Swiss rounds, "
        "club nights and knockout rounds are drawn from the results so far. The same `seed` "
        "gives the same draw.",
        request=InputSerializer,
        responses={200: RoundOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, *, round_, by, **fields):
        with scheduler_refusals():
            services.generate_round(round_=round_, by=by, **fields)


class RoundSwap(RoundAction):
    class InputSerializer(inputs.StrictInput):
        a = inputs.Integer(min_value=1, max_value=ID_MAX, help_text="An entry id.")
        b = inputs.Integer(min_value=1, max_value=ID_MAX, help_text="Another entry id.")

    @extend_schema(
        summary="Swap two entries: in a draft (seats, tables, or a seat and a bye), or between "
        "two tables of a published round",
        description="In a published round both tables' games must have no hand yet (409 "
        "otherwise); the games are seated again in place (their table links stay) and the "
        "entries of both tables are e-mailed again when the competition e-mails its entrants.",
        request=InputSerializer,
        responses={200: RoundOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, *, round_, by, a, b):
        # The status read here picks the door; each service checks it again under the lock.
        if round_.status == RoundStatus.DRAFT:
            services.swap_in_round(round_=round_, a=a, b=b, by=by)
        else:
            services.swap_published(round_=round_, a=a, b=b, by=by)


class RoundPublish(RoundAction):
    @extend_schema(
        summary="Publish a draft round: a game per table, the round becomes public",
        request=None,
        responses={200: RoundOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, *, round_, by):
        services.publish_round(round_=round_, by=by)


class RoundClose(RoundAction):
    @extend_schema(
        summary="Close a round once every table's game is finished or forfeited",
        request=None,
        responses={200: RoundOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, *, round_, by):
        services.close_round(round_=round_, by=by)


class RoundReopen(RoundAction):
    class InputSerializer(inputs.StrictInput):
        reason = inputs.Text(non_blank=True, max_length=500)

    @extend_schema(
        summary="Reopen a closed round to correct its games (reason required)",
        description="The round is published again and the games its closing locked may change "
        "(a correction that leaves a game needing its deciding hand included); close it again "
        "when they are finished: the players are e-mailed their corrected results once. Audited "
        "in the competition's event log (400 naming `reason` when it is missing or blank).",
        request=InputSerializer,
        responses={200: RoundOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        return super().post(request, competition_id, number)

    def act(self, *, round_, by, reason):
        services.reopen_round(round_=round_, by=by, reason=reason)


@extend_schema_field({"type": "number", "minimum": -10_000, "maximum": 10_000})
class GivenPoints(inputs.Value):
    """Points given to an entry: a number (the service checks the range)."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise inputs.Invalid.one("type", expected="number")
        return data


class TableForfeit(CompetitionView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        reason = inputs.Text()
        points = inputs.NumberedObject(
            child=GivenPoints(),
            key_problem=("type", {"expected": "integer"}),
            required=False,
            help_text="Points given to entries of the table, by entry id (the service checks "
            "the numbers).",
        )

    @extend_schema(
        summary="Settle a table that cannot finish",
        description="The table's game is abandoned (its hands stay readable); `points` gives "
        "entries of the table points instead, by entry id, with the `reason` (required).",
        request=InputSerializer,
        responses={200: RoundOutput, **WRITE_ERRORS},
        examples=[
            request_example("A player left", {"reason": "Bruno was taken ill", "points": {"41": 2}})
        ],
    )
    def post(self, request, competition_id: int, table_id: int):
        competition, role = readable_competition(request, competition_id)
        table = (
            Table.objects.select_related("round__competition__club", "game")
            .filter(pk=table_id, round__competition=competition)
            .first()
        )
        if table is None or (table.round.status == RoundStatus.DRAFT and not may_see_drafts(role)):
            raise NotFound()
        ensure_manager(role)
        body = read_body(self.InputSerializer, request)
        services.forfeit_table(table=table, by=actor(request), **body)
        return round_response(competition, table.round.number)
