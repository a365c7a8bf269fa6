"""The desk's books: each entry's fee and live mark (``desk_rows``), and the cash report of a
competition (``cash_report``). Amounts in integer cents of the club's currency.

Who owes what: an entry owes the competition's fee (twice for a pair charged per player). An
entry marked paid or waived owes the amount its mark recorded (a later change of the fee does
not rewrite the books). A withdrawn entry that was never marked owes nothing: it left before
paying, and nothing is outstanding for it.
"""

from __future__ import annotations

from typing import Any

from tournaments.models import Competition, Entry, Fee, FeeBasis, Method, Payment, PaymentKind


def fee_of(competition: Competition) -> Fee | None:
    """The competition's fee row (None: it charges nothing). One query."""
    return Fee.objects.filter(competition=competition).first()


def _due(fee: Fee | None, entry: Entry) -> int:
    if fee is None:
        return 0
    return fee.amount_cents * (2 if entry.partner_id and fee.basis == FeeBasis.PLAYER else 1)


def live_payments(competition: Competition) -> dict[int, Payment]:
    """Each entry's live mark (paid or waived), by entry id. One query."""
    return {
        p.entry_id: p
        for p in Payment.objects.filter(
            entry__competition=competition, undone_at__isnull=True
        ).select_related("by")
    }


def desk_rows(competition: Competition) -> list[dict[str, Any]]:
    """Every entry at the desk, by name: ``entry``, ``due`` (cents), ``payment`` (the live mark
    or None), ``owes`` (cents outstanding). Three queries."""
    fee = fee_of(competition)
    live = live_payments(competition)
    rows = []
    entries = competition.entries.select_related("player", "partner")
    for entry in sorted(entries, key=lambda e: (e.name.casefold(), e.pk)):
        payment = live.get(entry.pk)
        due = payment.amount_cents if payment else _due(fee, entry)
        owes = 0 if payment or not entry.active else due
        rows.append({"entry": entry, "due": due, "payment": payment, "owes": owes})
    return rows


def cash_report(competition: Competition) -> dict[str, Any]:
    """The competition's totals in cents: ``expected`` = ``received`` + ``waived`` +
    ``outstanding``; ``methods``: received per method (every method listed); ``counts``: entries
    paid, waived, outstanding. Four queries."""
    rows = desk_rows(competition)
    methods = dict.fromkeys(Method.values, 0)
    totals = {"received": 0, "waived": 0, "outstanding": 0}
    counts = {"paid": 0, "waived": 0, "outstanding": 0}
    for row in rows:
        payment = row["payment"]
        if payment is None:
            if row["owes"]:
                totals["outstanding"] += row["owes"]
                counts["outstanding"] += 1
        elif payment.kind == PaymentKind.PAID:
            totals["received"] += payment.amount_cents
            methods[payment.method] += payment.amount_cents
            counts["paid"] += 1
        else:
            totals["waived"] += payment.amount_cents
            counts["waived"] += 1
    fee = fee_of(competition)
    return {
        "currency": competition.club.currency,
        "fee": fee.amount_cents if fee else 0,
        "basis": fee.basis if fee else FeeBasis.ENTRY,
        "expected": sum(totals.values()),
        **totals,
        "methods": methods,
        "counts": counts,
        "rows": rows,
    }
