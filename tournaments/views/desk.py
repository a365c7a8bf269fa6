"""The desk: the competition's fee, each entry marked paid (cash, card, transfer) or waived in
one tap, a mark undone, and the cash report (a printable page and a CSV). Owners and organizers
only: the books are not shown to the club's other members.

Pages under ``/c/<club>/k/<competition>/desk/``. A posted form names its action (``ACTIONS``),
calls one service and redirects back to the entry's row, or shows the page again (400) with the
refusal next to the row or the field.
"""

from __future__ import annotations

import csv
import io

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import access
from scoring.views.access import submit
from tournaments import selectors, services
from tournaments.forms.fees import FeeForm, UndoForm
from tournaments.models import Competition, Entry, Method
from tournaments.money import format_money
from tournaments.money import format_plain as plain
from tournaments.views.access import attempt_into, organizer_or_404
from tournaments.views.exports import decimal_comma, write_row


def _money_rows(competition: Competition, rows: list[dict]) -> list[dict]:
    currency = competition.club.currency
    return [row | {"due_text": format_money(row["due"], currency)} for row in rows]


def _report(competition: Competition) -> dict:
    report = selectors.cash_report(competition)
    currency = report["currency"]
    shown = {
        k: format_money(report[k], currency)
        for k in ("expected", "received", "waived", "outstanding", "fee")
    }
    methods = [
        (label, format_money(report["methods"][key], currency), key)
        for key, label in Method.choices
    ]
    return report | {
        "shown": shown,
        "method_rows": methods,
        "rows": _money_rows(competition, report["rows"]),
    }


def _with_errors(report: dict, errors: dict) -> dict:
    """Each entry's row with the refusal of the action just asked there, if any."""
    report["rows"] = [row | {"errors": errors.get(row["entry"].pk, [])} for row in report["rows"]]
    return report


@login_required
def desk_page(request, club_slug: str, slug: str):
    competition, role = organizer_or_404(request, club_slug, slug, manage=True)
    fee = selectors.fee_of(competition)
    currency = competition.club.currency
    page = {
        "fee_form": FeeForm(
            initial={
                "amount_cents": fee.amount_cents if fee else None,
                "basis": fee.basis if fee else None,
            },
            currency=currency,
            pairs=competition.pairs,
        ),
        "errors": {},
    }
    status = 200
    if request.method == "POST":
        handler = ACTIONS.get(request.POST.get("action", ""))
        answer = handler(request, competition, page) if handler else None
        if answer is not None:
            return answer
        status = 400
    return render(
        request,
        "tournaments/desk.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "fee": fee,
            "fee_form": page["fee_form"],
            "errors": page["errors"],
            "report": _with_errors(_report(competition), page["errors"]),
            "methods": Method.choices,
        },
        status=status,
    )


def _back(competition: Competition, entry: Entry | None = None):
    url = reverse("competition-desk", args=[competition.club.slug, competition.slug])
    return redirect(f"{url}#entry-{entry.pk}" if entry is not None else url)


def _entry(competition: Competition, request) -> Entry:
    raw = request.POST.get("entry", "")
    entry = get_object_or_404(
        Entry.objects.select_related("player", "partner"),
        competition=competition,
        pk=int(raw) if raw.isdigit() else 0,
    )
    entry.competition = competition
    return entry


def _set_fee(request, competition, page):
    form = page["fee_form"] = FeeForm(
        request.POST, currency=competition.club.currency, pairs=competition.pairs
    )
    if form.is_valid():
        data = form.cleaned_data
        by = access.actor_for(request)
        basis = data.get("basis") or "entry"
        if submit(
            form,
            services.set_fee,
            competition=competition,
            amount_cents=data["amount_cents"],
            basis=basis,
            by=by,
        ):
            messages.success(request, _("The fee is set."))
            return _back(competition)
    return None


def _paid(request, competition, page):
    entry = _entry(competition, request)
    method = request.POST.get("method", "")
    by = access.actor_for(request)
    if attempt_into(
        page["errors"], entry.pk, services.mark_paid, entry=entry, method=method, by=by
    ):
        return _back(competition, entry)
    return None


def _waive(request, competition, page):
    entry = _entry(competition, request)
    by = access.actor_for(request)
    if attempt_into(page["errors"], entry.pk, services.waive_fee, entry=entry, by=by):
        return _back(competition, entry)
    return None


def _undo(request, competition, page):
    entry = _entry(competition, request)
    form = UndoForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    by = access.actor_for(request)
    if attempt_into(
        page["errors"], entry.pk, services.undo_payment, entry=entry, by=by, reason=reason
    ):
        messages.success(request, _("The mark of %(name)s is undone.") % {"name": entry.name})
        return _back(competition, entry)
    return None


ACTIONS = {"fee": _set_fee, "paid": _paid, "waive": _waive, "undo": _undo}


@login_required
def cash_report(request, club_slug: str, slug: str):
    """The cash report as a page to print."""
    competition, role = organizer_or_404(request, club_slug, slug, manage=True)
    return render(
        request,
        "tournaments/cash_report.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "report": _report(competition),
        },
    )


@login_required
def cash_report_csv(request, club_slug: str, slug: str):
    """The cash report as a spreadsheet: one row per entry (what it owes, how it paid), then
    the totals, amounts as plain decimals of the club's currency written as the reader's
    language writes them (20,00 in Italian and French, 20.00 in English) unless
    ``?decimal=comma`` or ``?decimal=point`` says otherwise, as the standings' CSV."""
    competition, _role = organizer_or_404(request, club_slug, slug, manage=True)
    report = selectors.cash_report(competition)
    comma = decimal_comma(request.GET.get("decimal"))

    def format_plain(cents: int) -> str:
        return plain(cents, comma=comma)

    labels = dict(Method.choices)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    write_row(
        writer,
        [
            _("Name"),
            _("Due"),
            _("Status"),
            _("Method"),
            _("Received"),
            _("Waived"),
            _("Outstanding"),
            _("Currency"),
        ],
    )
    for row in report["rows"]:
        payment = row["payment"]
        kind = payment.kind if payment else ""
        write_row(
            writer,
            [
                row["entry"].name,
                format_plain(row["due"]),
                payment.get_kind_display()
                if payment
                else (_("withdrawn") if not row["entry"].active else _("owes")),
                str(labels[payment.method]) if payment and payment.method else "",
                format_plain(payment.amount_cents if kind == "paid" else 0),
                format_plain(payment.amount_cents if kind == "waived" else 0),
                format_plain(row["owes"]),
                report["currency"],
            ],
        )
    write_row(writer, [])
    for key, label in (
        ("expected", _("Expected")),
        ("received", _("Received")),
        ("waived", _("Waived")),
        ("outstanding", _("Outstanding")),
    ):
        write_row(
            writer, [label, format_plain(report[key]), "", "", "", "", "", report["currency"]]
        )
    for key, label in Method.choices:
        write_row(
            writer,
            [
                _("Received: %(method)s") % {"method": label},
                format_plain(report["methods"][key]),
                "",
                "",
                "",
                "",
                "",
                report["currency"],
            ],
        )
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}-cash.csv"'
    return response
