"""Entry fees at the desk: the competition's fee, an entry marked paid (with the method) or
waived, and such a mark undone. The club takes the money; these writes keep its books
(``tournaments.models.fees``), in integer cents of the club's currency.

Each write locks the competition (``_common.lock``), re-reads the entry's live payment under the
lock and decides on it: a second "paid" for the same entry, from a double tap or from a second
phone at the desk, is refused by name ("already paid on … by …"), never recorded twice. Undoing
a mark keeps it, stamped undone with who and why. Every write records its competition event;
fees are books, not results, so they stay writable once the results are final
(``_common.WHILE_FINAL``).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import formats, timezone

from scoring.services import Actor, violation
from tournaments.models import (
    Competition,
    Entry,
    Fee,
    FeeBasis,
    Method,
    Payment,
    PaymentKind,
)
from tournaments.models.fees import FEE_MAX_CENTS
from tournaments.services._common import lock, record_event, require_manager


def cents(value: Any, field: str, maximum: int) -> int:
    """``value`` as a whole number of cents from 0 to ``maximum``, or the refusal naming
    ``field``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise violation(field, "type", expected="integer")
    if not 0 <= value <= maximum:
        raise violation(field, "range", min=0, max=maximum, value=value)
    return value


def due_of(fee: Fee | None, entry: Entry) -> int:
    """What ``entry`` owes under ``fee``: the amount, twice for a pair charged per player."""
    if fee is None:
        return 0
    players = 2 if entry.partner_id and fee.basis == FeeBasis.PLAYER else 1
    return fee.amount_cents * players


def set_fee(
    *, competition: Competition, amount_cents: Any, by: Actor, basis: Any = FeeBasis.ENTRY
) -> Fee:
    """The competition's fee: ``amount_cents`` (0 to 10 000.00) per entry or per player. Marks
    already made keep the amount they recorded."""
    require_manager(by, competition.club)
    amount = cents(amount_cents, "amount_cents", FEE_MAX_CENTS)
    if basis not in FeeBasis.values:
        raise violation("basis", "choice", choices=FeeBasis.values, value=basis)
    with transaction.atomic():
        lock(competition)
        fee, _created = Fee.objects.get_or_create(competition=competition)
        before = {"amount_cents": fee.amount_cents, "basis": fee.basis}
        fee.amount_cents, fee.basis = amount, basis
        fee.save(update_fields=["amount_cents", "basis"])
        record_event(competition, by, "fee_set", before=before, amount_cents=amount, basis=basis)
    return fee


def mark_paid(*, entry: Entry, method: Any, by: Actor) -> Payment:
    """``entry`` paid its fee by ``method`` (cash, card, transfer): the amount due now."""
    require_manager(by, entry.competition.club)
    if method not in Method.values:
        raise violation("method", "choice", choices=Method.values, value=method)
    return _mark(entry, by, PaymentKind.PAID, method)


def waive_fee(*, entry: Entry, by: Actor, reason: str = "") -> Payment:
    """The club forgives ``entry``'s fee (a helper, a guest, a junior)."""
    require_manager(by, entry.competition.club)
    return _mark(entry, by, PaymentKind.WAIVED, "", reason=" ".join(str(reason or "").split()))


def _mark(entry: Entry, by: Actor, kind: str, method: str, reason: str = "") -> Payment:
    competition = entry.competition
    with transaction.atomic():
        lock(competition)
        fee = Fee.objects.filter(competition=competition).first()
        if fee is None or fee.amount_cents == 0:
            raise violation("entry", "not_allowed", reason="no_fee")
        _refuse_if_marked(entry)
        try:
            with transaction.atomic():
                payment = Payment.objects.create(
                    entry=entry,
                    kind=kind,
                    method=method,
                    amount_cents=due_of(fee, entry),
                    by=by.user,
                )
        except IntegrityError:  # a mark committed between the lock and here: not on SQLite
            _refuse_if_marked(entry)
            raise
        record_event(
            competition,
            by,
            f"fee_{kind}",
            reason=reason,
            entry=entry.pk,
            name=entry.name,
            method=method,
            amount_cents=payment.amount_cents,
        )
    return payment


def _refuse_if_marked(entry: Entry) -> None:
    live = Payment.objects.filter(entry=entry, undone_at__isnull=True).select_related("by").first()
    if live is None:
        return
    zone = timezone.get_current_timezone()
    on = formats.date_format(timezone.localtime(live.at, zone), "SHORT_DATETIME_FORMAT")
    who = live.by.get_username() if live.by is not None else "—"
    reason = "already_paid" if live.kind == PaymentKind.PAID else "already_waived"
    raise violation("entry", "not_allowed", reason=reason, name=entry.name, on=on, by=who)


def undo_payment(*, entry: Entry, by: Actor, reason: str = "") -> Payment:
    """Undo ``entry``'s live mark (paid or waived): it stays in the books, stamped undone by
    ``by`` with ``reason``; the entry owes its fee again."""
    competition = entry.competition
    require_manager(by, competition.club)
    reason = " ".join(str(reason or "").split())
    with transaction.atomic():
        lock(competition)
        live = Payment.objects.filter(entry=entry, undone_at__isnull=True).first()
        if live is None:
            raise violation("entry", "not_allowed", reason="not_paid", name=entry.name)
        live.undone_at, live.undone_by, live.undo_reason = timezone.now(), by.user, reason
        live.save(update_fields=["undone_at", "undone_by", "undo_reason"])
        record_event(
            competition,
            by,
            "fee_undone",
            reason=reason,
            entry=entry.pk,
            name=entry.name,
            kind=live.kind,
            method=live.method,
            amount_cents=live.amount_cents,
        )
    return live
