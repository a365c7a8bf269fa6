"""The desk through the API: a competition's fee, each entry's mark (paid with a method, or
waived), undoing a mark, and the cash report. Owners and organizers only, reads too: the books
are not the club's other members' business (a member gets 403, anyone else 404 for a private
competition and 403 for a public one). Amounts are integer cents of the club's ``currency``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from scoring.api import inputs
from scoring.api.common import ERRORS, Moment, Output
from scoring.api.pagination import Pages, page_of_rows
from scoring.api.parsers import JSONParser
from scoring.api.schema import request_example
from tournaments import selectors, services
from tournaments.api.common import (
    WRITE_ERRORS,
    CompetitionView,
    actor,
    managed_competition,
    read_body,
)
from tournaments.models import Entry, FeeBasis, Method, PaymentKind

READ_ERRORS = {403: ERRORS, 404: ERRORS}


class FeeOutput(Output):
    amount_cents = serializers.IntegerField(help_text="The fee in cents of `currency`.")
    basis = serializers.ChoiceField(
        FeeBasis.choices, help_text="`entry`: a pair pays once; `player`: a pair pays twice."
    )
    currency = serializers.CharField(help_text="The club's currency (ISO 4217).")


class PaymentOutput(Output):
    mark = serializers.ChoiceField(PaymentKind.values, help_text="`paid` or `waived`.")
    method = serializers.ChoiceField(
        Method.choices, allow_blank=True, help_text="Empty when waived."
    )
    amount_cents = serializers.IntegerField()
    at = Moment()
    by = serializers.CharField(allow_null=True, help_text="The organizer who marked it.")


class DeskRowOutput(Output):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(["paid", "waived", "owes", "withdrawn"])
    due_cents = serializers.IntegerField(help_text="What the entry owes or its mark recorded.")
    outstanding_cents = serializers.IntegerField()
    payment = PaymentOutput(allow_null=True, help_text="The live mark; null when none.")


class CentsByMethod(Output):
    """Cents received by each payment method (``Method``), every method."""

    cash = serializers.IntegerField()
    card = serializers.IntegerField()
    transfer = serializers.IntegerField()


class CashReportOutput(Output):
    currency = serializers.CharField()
    fee_cents = serializers.IntegerField()
    expected_cents = serializers.IntegerField(help_text="received + waived + outstanding.")
    received_cents = serializers.IntegerField()
    waived_cents = serializers.IntegerField()
    outstanding_cents = serializers.IntegerField()
    methods = CentsByMethod(help_text="Cents received per method (every method).")
    counts = serializers.DictField(
        child=serializers.IntegerField(), help_text="Entries paid, waived, outstanding."
    )


def fee_payload(competition) -> dict:
    fee = selectors.fee_of(competition)
    return {
        "amount_cents": fee.amount_cents if fee else 0,
        "basis": fee.basis if fee else FeeBasis.ENTRY,
        "currency": competition.club.currency,
    }


def row_payload(row: dict) -> dict:
    entry, payment = row["entry"], row["payment"]
    state = payment.kind if payment is not None else ("owes" if entry.active else "withdrawn")
    return {
        "entry": entry.pk,
        "name": entry.name,
        "status": state,
        "due_cents": row["due"],
        "outstanding_cents": row["owes"],
        "payment": None
        if payment is None
        else {
            "mark": payment.kind,
            "method": payment.method,
            "amount_cents": payment.amount_cents,
            "at": payment.at,
            "by": payment.by.get_username() if payment.by is not None else None,
        },
    }


class CompetitionFee(CompetitionView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        amount_cents = inputs.Integer(help_text="Cents, 0 to 1000000.")
        basis = inputs.Choice(FeeBasis.values, required=False, default=FeeBasis.ENTRY)

    @extend_schema(summary="The competition's fee", responses={200: FeeOutput, **READ_ERRORS})
    def get(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        return Response(FeeOutput(fee_payload(competition)).data)

    @extend_schema(
        summary="Set the competition's fee",
        request=InputSerializer,
        responses={200: FeeOutput, **WRITE_ERRORS},
        examples=[request_example("7.50 a player", value={"amount_cents": 750, "basis": "player"})],
    )
    def put(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        body = read_body(self.InputSerializer, request)
        services.set_fee(competition=competition, by=actor(request), **body)
        return Response(FeeOutput(fee_payload(competition)).data)


class Payments(CompetitionView):
    pagination_class = Pages

    @extend_schema(
        summary="Every entry at the desk: what it owes and its mark (by name)",
        responses={200: DeskRowOutput(many=True), **READ_ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        return page_of_rows(
            request,
            selectors.desk_rows(competition),
            key=lambda row: (row["entry"].name.casefold(), row["entry"].pk),
            serialize=lambda page: DeskRowOutput([row_payload(r) for r in page], many=True).data,
        )


def _entry(competition, entry_id: int) -> Entry:
    entry = (
        Entry.objects.select_related("player", "partner")
        .filter(pk=entry_id, competition=competition)
        .first()
    )
    if entry is None:
        raise NotFound()
    entry.competition = competition
    return entry


def _row_of(competition, entry: Entry) -> dict:
    return next(
        row_payload(row) for row in selectors.desk_rows(competition) if row["entry"].pk == entry.pk
    )


class EntryPayment(CompetitionView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        mark = inputs.Choice(PaymentKind.values, required=False, default=PaymentKind.PAID)
        method = inputs.Text(
            required=False, default="", single_line=True, help_text="cash, card or transfer."
        )
        reason = inputs.Text(required=False, default="", help_text="Why it is waived.")

    @extend_schema(
        summary="Mark an entry paid (with the method) or waived",
        description="Refused (400, field `entry`) when the entry is already marked: the message "
        "says when and by whom. `method` is one of " + ", ".join(Method.values) + ".",
        request=InputSerializer,
        responses={201: DeskRowOutput, **WRITE_ERRORS},
        examples=[
            request_example("Paid in cash", value={"mark": "paid", "method": "cash"}),
            request_example("Waived", value={"mark": "waived", "reason": "helper"}),
        ],
    )
    def post(self, request, competition_id: int, entry_id: int):
        competition, _role = managed_competition(request, competition_id)
        entry = _entry(competition, entry_id)
        body = read_body(self.InputSerializer, request)
        if body["mark"] == PaymentKind.PAID:
            services.mark_paid(entry=entry, method=body["method"], by=actor(request))
        else:
            services.waive_fee(entry=entry, by=actor(request), reason=body["reason"])
        return Response(
            DeskRowOutput(_row_of(competition, entry)).data, status=status.HTTP_201_CREATED
        )


class EntryPaymentUndo(CompetitionView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        reason = inputs.Text(required=False, default="")

    @extend_schema(
        summary="Undo an entry's mark (it stays in the books, stamped undone)",
        request=InputSerializer,
        responses={200: DeskRowOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, entry_id: int):
        competition, _role = managed_competition(request, competition_id)
        entry = _entry(competition, entry_id)
        body = read_body(self.InputSerializer, request)
        services.undo_payment(entry=entry, by=actor(request), reason=body["reason"])
        return Response(DeskRowOutput(_row_of(competition, entry)).data)


class CashReport(CompetitionView):
    @extend_schema(
        summary="The competition's cash report",
        description="Expected = received + waived + outstanding; received per method. A "
        "withdrawn entry that was never marked owes nothing.",
        responses={200: CashReportOutput, **READ_ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        report = selectors.cash_report(competition)
        payload = {
            "currency": report["currency"],
            "fee_cents": report["fee"],
            **{
                f"{key}_cents": report[key]
                for key in ("expected", "received", "waived", "outstanding")
            },
            "methods": report["methods"],
            "counts": report["counts"],
        }
        return Response(CashReportOutput(payload).data)
