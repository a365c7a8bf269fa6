"""Registration through the API (issue 24): the organizer's settings, registering, the e-mailed
links' actions (confirm, withdraw, check in: the token in the body), the waiting list (reorder,
promote), a withdrawal, a partner confirmed at the desk, a merge, and the self check-in window.

A registrant's address is read only by the organizers of the club (``RegistrationOutput``);
everyone else reads the counts (``RegistrationSummaryOutput``) and, answering their own
registration, its status (``RegisteredOutput``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from registration import rates as registration_rates
from registration import selectors, services
from registration.api.outputs import RegisteredOutput, RegistrationOutput, paged_registrations
from registration.models import CapacityUnit, Eligibility, Registration, RegistrationStatus
from registration.services import checkin
from registration.services.registration import EMAIL_MAX, NAME_MAX, NOTE_MAX
from scoring import rates
from scoring.api import inputs
from scoring.api.common import ERRORS, Moment, Output
from scoring.api.inputs import Invalid
from scoring.api.pagination import Pages
from scoring.api.parsers import JSONParser
from scoring.api.schema import request_example
from scoring.models import Player
from scoring.services import violation
from tournaments.api.common import (
    WRITE_ERRORS,
    CompetitionView,
    actor,
    managed_competition,
    managed_round,
    read_body,
    readable_competition,
    scheduler_refusals,
)


class MomentInput(inputs.Strict, serializers.DateTimeField):
    """A moment written in ISO 8601 with its offset (``2026-05-01T18:00:00+02:00``)."""

    def to_internal_value(self, data: Any) -> dt.datetime:
        if isinstance(data, str):
            try:
                value = dt.datetime.fromisoformat(data)
            except ValueError:
                value = None
            if value is not None and value.tzinfo is not None:
                return value
        raise Invalid.one("invalid", reason="moment", value=data)


#: Whether the registration is open (the schema's ``StateEnum``).
REGISTRATION_STATES = ["not_open", "open", "closed"]


class RegistrationSummaryOutput(Output):
    state = serializers.ChoiceField(REGISTRATION_STATES)
    opens_at = Moment(source="settings.opens_at")
    closes_at = Moment(source="settings.closes_at")
    capacity = serializers.IntegerField(source="settings.capacity")
    unit = serializers.ChoiceField(CapacityUnit.choices, source="settings.unit")
    places = serializers.IntegerField()
    taken = serializers.IntegerField()
    free = serializers.IntegerField()
    waiting = serializers.IntegerField()
    waiting_list = serializers.BooleanField(source="settings.waiting_list")
    eligibility = serializers.ChoiceField(Eligibility.choices, source="settings.eligibility")
    note = serializers.CharField(source="settings.note")


def _summary(competition) -> dict:
    summary = selectors.registration_summary(competition)
    if summary is None:
        raise NotFound()
    return RegistrationSummaryOutput(summary).data


class RegistrationSettingsView(CompetitionView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        opens_at = MomentInput()
        closes_at = MomentInput()
        capacity = inputs.Integer(min_value=1, max_value=10_000)
        unit = inputs.Choice(CapacityUnit.values, required=False, default=CapacityUnit.ENTRIES)
        waiting_list = inputs.Boolean(required=False, default=True)
        eligibility = inputs.Choice(Eligibility.values, required=False, default=Eligibility.ANYONE)
        note = inputs.Text(required=False, default="", max_length=NOTE_MAX)

    @extend_schema(
        summary="Registration of a competition: window, places, counts",
        description="Anyone who reads the competition reads this: never a registrant's name or "
        "address. 404 while registration was never opened.",
        responses={200: RegistrationSummaryOutput, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        return Response(_summary(competition))

    @extend_schema(
        summary="Open registration, or change its settings",
        description="From `opens_at` to `closes_at` (ISO 8601 with an offset), `capacity` "
        "entries or tables (`unit`), for `members` of the club, `accounts` or `anyone` "
        "(confirmed by an e-mailed link); beyond capacity a waiting list unless "
        "`waiting_list` is false.",
        request=InputSerializer,
        responses={200: RegistrationSummaryOutput, **WRITE_ERRORS},
        examples=[
            request_example(
                "Forty pairs' tables",
                value={
                    "opens_at": "2026-05-01T09:00:00+02:00",
                    "closes_at": "2026-05-20T20:00:00+02:00",
                    "capacity": 20,
                    "unit": "tables",
                    "eligibility": "anyone",
                },
            )
        ],
    )
    def put(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        body = read_body(self.InputSerializer, request)
        services.set_registration(competition=competition, by=actor(request), **body)
        return Response(_summary(competition))


class RegistrationClose(CompetitionView):
    @extend_schema(
        summary="Close registration now (the waiting list is frozen)",
        request=None,
        responses={200: RegistrationSummaryOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        services.close_registration(competition=competition, by=actor(request))
        return Response(_summary(competition))


REGISTRATION_THROTTLED = OpenApiResponse(
    ERRORS,
    description="Too many registrations from this address, for this e-mail address or for this "
    "competition: wait `Retry-After` seconds (the message says which).",
)


class Registrations(CompetitionView):
    anyone_may = ("POST",)
    parser_classes = [JSONParser]
    pagination_class = Pages

    class InputSerializer(inputs.StrictInput):
        name = inputs.Text(
            required=False, default="", max_length=NAME_MAX, single_line=True,
            help_text="Required, unless `player` is given (then the player's name).",
        )  # fmt: skip
        player = inputs.Integer(
            required=False, min_value=1, max_value=2**63 - 1,
            help_text="Organizers of the club: the existing player registered (its id), whom "
            "the entry names; the address defaults to the player's and needs no confirmation.",
        )  # fmt: skip
        email = inputs.Text(
            required=False, default="", max_length=EMAIL_MAX, single_line=True,
            help_text="Optional for an account: its own address (no confirmation needed).",
        )  # fmt: skip
        partner_name = inputs.Text(
            required=False, default="", max_length=NAME_MAX, single_line=True
        )
        partner_email = inputs.Text(
            required=False, default="", max_length=EMAIL_MAX, single_line=True,
            help_text="Pairs: the partner confirms by a link sent here.",
        )  # fmt: skip

    @extend_schema(
        summary="Every registration, with its address (organizers of the club)",
        description="By status (as the status enum lists them), then waiting-list position, "
        "then the order they came in.",
        responses={200: RegistrationOutput(many=True), 403: ERRORS, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        grouped = selectors.registrations_of(competition)
        rows = [r for status_ in RegistrationStatus.values for r in grouped[status_]]
        return paged_registrations(request, rows)

    @extend_schema(
        summary="Register (a person, or a pair)",
        description="Anyone the settings let register. An address other than the account's "
        "own is confirmed by an e-mailed link (`status` `unconfirmed`); a pair's partner "
        "confirms by theirs (`partner`). Then the registration takes a place (`entered`, "
        "with its `entry`) or waits (`waiting`, at `position`). Refusals name their field: "
        "`registration` (not open, closed, full), `user` (not eligible, registered already), "
        "`email` (registered already), `partner_email` (the partner registered already). "
        "Anonymous registrations are limited per client address, per e-mail address and per "
        "competition, signed-in ones per e-mail address (README: `REGISTRATION_RATE_*`): "
        "beyond, 429 with `Retry-After` and a sentence saying which, nothing stored or sent. "
        "Which player the entry names: an organizer's `player` (refused by name when not a "
        "player of the club, `not_found`, or registered already, `duplicate`; by anyone else, "
        "403); else the signed-in registrant's own player in the club; else the club's "
        "player of that name with that address and no account; else a new player. A new "
        "player whose name the club has already is listed to the organizers with "
        "`possible_duplicate_of` (docs/registration.md).",
        request=InputSerializer,
        responses={201: RegisteredOutput, **WRITE_ERRORS, 429: REGISTRATION_THROTTLED},
        examples=[
            request_example("A player", value={"name": "Anna Rossi", "email": "anna@example.org"}),
        ],
    )
    def post(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        body = read_body(self.InputSerializer, request)
        counted, refusal = registration_rates.take(request, competition, body)
        if refusal is not None:
            raise rates.api_refusal(refusal)
        try:
            with scheduler_refusals():
                registration = services.register(
                    competition=competition, by=actor(request), language=get_language(), **body
                )
        except Exception:
            counted.give_back()  # refused: nothing stored, nothing sent
            raise
        return Response(RegisteredOutput(registration).data, status=status.HTTP_201_CREATED)


class TokenInput(inputs.StrictInput):
    token = inputs.Text(max_length=200, single_line=True, help_text="The e-mailed link's token.")


class RegistrationConfirm(CompetitionView):
    anyone_may = ("POST",)
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Confirm a registration (or a pair, as the partner) by its e-mailed token",
        description="Once: a used, expired or unknown token is refused (`token`).",
        request=TokenInput,
        responses={200: RegisteredOutput, 400: ERRORS, 409: ERRORS},
    )
    def post(self, request):
        token = read_body(TokenInput, request)["token"]
        with scheduler_refusals():
            registration = services.confirm_registration(token=token, by=actor(request))
        return Response(RegisteredOutput(registration).data)


class RegistrationWithdrawByLink(CompetitionView):
    anyone_may = ("POST",)
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Withdraw by the e-mailed link's token",
        description="The place goes to the first waiting registration (e-mailed), unless "
        "registration is closed.",
        request=TokenInput,
        responses={200: RegisteredOutput, 400: ERRORS, 409: ERRORS},
    )
    def post(self, request):
        token = read_body(TokenInput, request)["token"]
        with scheduler_refusals():
            registration = services.withdraw_registration(token=token, by=actor(request))
        return Response(RegisteredOutput(registration).data)


class SelfCheckIn(CompetitionView):
    anyone_may = ("POST",)
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        token = inputs.Text(max_length=200, single_line=True, required=False, default="")
        competition = inputs.Integer(
            required=False, min_value=1, max_value=2**63 - 1,
            help_text="Without a token: the signed-in account's entry in this competition.",
        )  # fmt: skip

    class CheckedIn(Output):
        round = serializers.IntegerField(source="number")

    @extend_schema(
        summary="Check in for the round whose self check-in is open",
        description="By the registration's e-mailed token, or signed in (`competition`).",
        request=InputSerializer,
        responses={200: CheckedIn, 400: ERRORS, 404: ERRORS, 409: ERRORS},
    )
    def post(self, request):
        body = read_body(self.InputSerializer, request)
        competition = None
        if body.get("competition"):
            competition, _role = readable_competition(request, body["competition"])
        by = actor(request)
        entry = checkin.entry_of(by=by, token=body["token"], competition=competition)
        round_ = services.check_in_self(entry=entry, by=by)
        return Response(self.CheckedIn(round_).data)


def _registration(competition, registration_id: int) -> Registration:
    found = (
        Registration.objects.select_related("entry")
        .filter(competition=competition, pk=registration_id)
        .first()
    )
    if found is None:
        raise NotFound()
    found.competition = competition
    return found


class RegistrationAction(CompetitionView):
    """An organizer's action on one registration: withdraw, promote, confirm the partner."""

    parser_classes = [JSONParser]
    service = staticmethod(services.promote)

    def act(self, request, registration) -> None:
        self.service(registration=registration, by=actor(request))

    def post(self, request, competition_id: int, registration_id: int):
        competition, _role = managed_competition(request, competition_id)
        registration = _registration(competition, registration_id)
        with scheduler_refusals():
            self.act(request, registration)
        registration.refresh_from_db()
        return Response(RegistrationOutput(registration).data)


class RegistrationPromote(RegistrationAction):
    @extend_schema(
        summary="Give a waiting registration a place now",
        request=None,
        responses={200: RegistrationOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, registration_id: int):
        return super().post(request, competition_id, registration_id)


class RegistrationConfirmPartner(RegistrationAction):
    service = staticmethod(services.confirm_partner)

    @extend_schema(
        summary="Confirm a pair's partner at the desk",
        request=None,
        responses={200: RegistrationOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, registration_id: int):
        return super().post(request, competition_id, registration_id)


class RegistrationWithdraw(RegistrationAction):
    class InputSerializer(inputs.StrictInput):
        reason = inputs.Text(required=False, default="")

    def act(self, request, registration) -> None:
        reason = read_body(self.InputSerializer, request)["reason"]
        services.withdraw_registration(registration=registration, by=actor(request), reason=reason)

    @extend_schema(
        summary="Withdraw a registration (organizers)",
        description="An entered one withdraws its entry; the first waiting registration takes "
        "its place unless registration is closed.",
        request=InputSerializer,
        responses={200: RegistrationOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, registration_id: int):
        return super().post(request, competition_id, registration_id)


class RegistrationMerge(RegistrationAction):
    class InputSerializer(inputs.StrictInput):
        player = inputs.Integer(min_value=1, max_value=2**63 - 1)

    def act(self, request, registration) -> None:
        pk = read_body(self.InputSerializer, request)["player"]
        player = Player.objects.filter(club=registration.competition.club, pk=pk).first()
        if player is None:
            raise violation("player", "not_found", value=pk)
        services.merge_player(registration=registration, player=player, by=actor(request))

    @extend_schema(
        summary="The player made for a registrant is an existing player of the club",
        request=InputSerializer,
        responses={200: RegistrationOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, registration_id: int):
        return super().post(request, competition_id, registration_id)


class WaitingList(CompetitionView):
    parser_classes = [JSONParser]
    pagination_class = Pages

    class InputSerializer(inputs.StrictInput):
        order = inputs.ListOf(
            child=inputs.Integer(min_value=1, max_value=2**63 - 1),
            help_text="Every waiting registration's id, once, first first.",
        )

    @extend_schema(
        summary="The waiting list, in order (organizers)",
        responses={200: RegistrationOutput(many=True), 403: ERRORS, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        rows = selectors.registrations_of(competition)[RegistrationStatus.WAITING]
        return paged_registrations(request, rows)

    @extend_schema(
        summary="Reorder the waiting list (refused once registration is closed)",
        request=InputSerializer,
        responses={200: RegistrationOutput(many=True), **WRITE_ERRORS},
    )
    def put(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        order = read_body(self.InputSerializer, request)["order"]
        services.reorder_waiting(competition=competition, order=list(order), by=actor(request))
        rows = selectors.registrations_of(competition)[RegistrationStatus.WAITING]
        return Response(RegistrationOutput(rows, many=True).data)


class CheckInWindowView(CompetitionView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        minutes = inputs.Integer(
            required=False, default=120, min_value=1, max_value=checkin.WINDOW_MAX
        )

    class WindowOutput(Output):
        open = serializers.BooleanField()
        closes_at = Moment(source="window.closes_at", allow_null=True)
        present = serializers.ListField(child=serializers.IntegerField())
        missing = serializers.ListField(child=serializers.IntegerField())

    def _answer(self, round_) -> Response:
        state = selectors.check_in_state(round_)
        return Response(
            self.WindowOutput(
                state
                | {
                    "present": [e.pk for e in state["present"]],
                    "missing": [e.pk for e in state["missing"]],
                }
            ).data
        )

    @extend_schema(
        summary="Self check-in of a round: open or not, who is present and who is missing",
        responses={200: WindowOutput, 403: ERRORS, 404: ERRORS},
    )
    def get(self, request, competition_id: int, number: int):
        _competition, _role, round_ = managed_round(request, competition_id, number)
        return self._answer(round_)

    @extend_schema(
        summary="Open self check-in for a draft round, for `minutes`",
        request=InputSerializer,
        responses={200: WindowOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, number: int):
        _competition, _role, round_ = managed_round(request, competition_id, number)
        minutes = read_body(self.InputSerializer, request)["minutes"]
        services.open_check_in(round_=round_, by=actor(request), minutes=minutes)
        return self._answer(round_)

    @extend_schema(
        summary="Close self check-in (those checked in stay)",
        responses={200: WindowOutput, **WRITE_ERRORS},
    )
    def delete(self, request, competition_id: int, number: int):
        _competition, _role, round_ = managed_round(request, competition_id, number)
        services.close_check_in(round_=round_, by=actor(request))
        return self._answer(round_)
