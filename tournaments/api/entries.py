"""Entries of a competition: the list, a new entry (a player or a pair), a withdrawal."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from scoring import etags
from scoring.api import inputs
from scoring.api.common import ERRORS, Output
from scoring.api.pagination import Pages, page_of_rows
from scoring.api.parsers import JSONParser
from scoring.api.schema import request_example
from scoring.models import Player
from tournaments import selectors, services
from tournaments.api.common import (
    WRITE_ERRORS,
    CompetitionView,
    actor,
    ensure_manager,
    managed_competition,
    read_body,
    readable_competition,
    scheduler_refusals,
)
from tournaments.api.payloads import EntryOutput
from tournaments.models import Entry

PLAYER_NAME_MAX = Player._meta.get_field("display_name").max_length


class _SeatToFix(Output):
    round = serializers.IntegerField(help_text="The number of a published round.")
    table = serializers.IntegerField(help_text="The table, no hand yet, that seats the entry.")


class WithdrawnOutput(EntryOutput):
    to_fix = _SeatToFix(
        many=True,
        help_text="After a withdrawal: where the entry is still seated at a table of a "
        "published round with no hand yet. Fix each with `…/rounds/<n>/replace/` (`absent`: "
        "this entry) or `…/rounds/<n>/redraw/`, which leaves withdrawn entries out.",
    )


IF_MATCH_ENTRY = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description='The entry\'s ETag as read (`"e<entry id>.<version>"`, its `etag`).',
)


class Entries(CompetitionView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]
    pagination_class = Pages

    class InputSerializer(inputs.StrictInput):
        player = inputs.PlayerRef(
            max_length=PLAYER_NAME_MAX, help_text="A player's id, or a name (new or existing)."
        )
        partner = inputs.PlayerRef(
            max_length=PLAYER_NAME_MAX, required=False, help_text="Briscola pairs: the partner."
        )
        seed = inputs.Integer(required=False, min_value=1, max_value=Entry.SEED_MAX)

    @extend_schema(
        summary="Entries of a competition (seed order)",
        responses={200: EntryOutput(many=True), 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        etags = selectors.entry_validators(competition)
        return page_of_rows(
            request,
            selectors.entries_of(competition),
            key=lambda entry: (entry.seed is None, entry.seed or 0, entry.pk),
            serialize=lambda page: EntryOutput(page, many=True, context={"etags": etags}).data,
        )

    @extend_schema(
        summary="Enter a player (or a pair)",
        description="`player` (and `partner` for Briscola pairs) is the id of a player of the "
        "club or a name: a new name becomes a new player. After the first round is published the "
        "entry is `late`.",
        request=InputSerializer,
        responses={201: EntryOutput, **WRITE_ERRORS},
        examples=[
            request_example("An existing player", {"player": 12}),
            request_example("A new pair", {"player": "Anna", "partner": "Bruno", "seed": 1}),
        ],
    )
    def post(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        body = read_body(self.InputSerializer, request)
        entry = services.add_entry(competition=competition, by=actor(request), **body)
        entry = Entry.objects.select_related("player", "partner").get(pk=entry.pk)
        return Response(EntryOutput(entry).data, status=status.HTTP_201_CREATED)


class EntryWithdraw(CompetitionView):
    parser_classes = [JSONParser]
    service = staticmethod(services.withdraw_entry)

    class InputSerializer(inputs.StrictInput):
        reason = inputs.Text(required=False, default="")

    @extend_schema(
        summary="Withdraw an entry",
        description="Its results stay; it is no longer seated, and the draft rounds it was "
        "seated in are drawn again without it. With `If-Match` (the entry's `etag` as read), "
        "only as it was read: 412 when it changed since.",
        parameters=[IF_MATCH_ENTRY],
        request=InputSerializer,
        responses={200: WithdrawnOutput, 412: ERRORS, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, entry_id: int):
        competition, role = readable_competition(request, competition_id)
        entry = (
            Entry.objects.select_related("player", "partner", "competition__club")
            .filter(pk=entry_id, competition=competition)
            .first()
        )
        if entry is None:
            raise NotFound()
        ensure_manager(role)
        body = read_body(self.InputSerializer, request)
        # The service withdraws and draws the draft rounds again in one transaction: when the
        # scheduler refuses a draw without the entry, the 400 says so and the entry stays.
        condition = {}
        if request.headers.get("If-Match") is not None:
            parsed = etags.parse(request.headers["If-Match"])
            condition["expected"] = () if parsed is None or parsed.any else parsed.strong
        with scheduler_refusals():
            self.service(entry=entry, by=actor(request), reason=body["reason"].strip(), **condition)
        entry.refresh_from_db()
        if self.service is services.withdraw_entry:
            entry.to_fix = selectors.open_seats_of(entry)
            return Response(WithdrawnOutput(entry).data)
        return Response(EntryOutput(entry).data)


class EntryReinstate(EntryWithdraw):
    service = staticmethod(services.reinstate_entry)

    @extend_schema(
        summary="Reinstate a withdrawn entry",
        description="It is seated again from the next draw; the draft rounds already drawn are "
        "drawn again with it.",
        parameters=[IF_MATCH_ENTRY],
        request=EntryWithdraw.InputSerializer,
        responses={200: EntryOutput, 412: ERRORS, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, entry_id: int):
        return super().post(request, competition_id, entry_id)
