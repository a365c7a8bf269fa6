"""Entry fees: what a competition charges (``Fee``) and what the desk recorded for each entry
(``Payment``: paid, with the method, or waived). No money moves through the app: the club takes
it, the app keeps the books, in integer cents of the club's currency (``Club.currency``).

A payment is never edited or deleted: undoing one stamps it ``undone_at`` (with who and why), so
the books keep every tap; at most one payment of an entry is live (not undone) at a time.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.competitions import Competition
from tournaments.models.entries import Entry

#: The largest fee (and payment) in cents: 10 000.00 in the club's currency.
FEE_MAX_CENTS = 1_000_000


class FeeBasis(models.TextChoices):
    ENTRY = "entry", _("per entry (a pair pays once)")
    PLAYER = "player", _("per player (a pair pays twice)")


class Method(models.TextChoices):
    CASH = "cash", _("cash")
    CARD = "card", _("card")
    TRANSFER = "transfer", _("bank transfer")


class PaymentKind(models.TextChoices):
    PAID = "paid", _("paid")
    WAIVED = "waived", _("waived")


class Fee(models.Model):
    """The fee of a competition: ``amount_cents`` per entry or per player (``basis``)."""

    competition = models.OneToOneField(Competition, on_delete=models.CASCADE, related_name="fee")
    amount_cents = models.PositiveIntegerField(_("fee"), default=0)
    basis = models.CharField(
        _("charged"), max_length=8, choices=FeeBasis.choices, default=FeeBasis.ENTRY
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(amount_cents__lte=FEE_MAX_CENTS), name="fee_amount_in_range"
            ),
            models.CheckConstraint(condition=Q(basis__in=FeeBasis.values), name="fee_basis_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.competition} · {self.amount_cents}"


class Payment(models.Model):
    """What the desk recorded for an entry: paid (``amount_cents`` by ``method``) or waived
    (``amount_cents`` forgiven)."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="payments")
    kind = models.CharField(max_length=8, choices=PaymentKind.choices)
    method = models.CharField(max_length=8, choices=Method.choices, blank=True)
    amount_cents = models.PositiveIntegerField()
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    undo_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["entry"],
                condition=Q(undone_at__isnull=True),
                name="payment_live_once_per_entry",
            ),
            models.CheckConstraint(
                condition=(Q(kind=PaymentKind.PAID) & Q(method__in=Method.values))
                | (Q(kind=PaymentKind.WAIVED) & Q(method="")),
                name="payment_method_matches_kind",
            ),
            models.CheckConstraint(
                condition=Q(amount_cents__lte=FEE_MAX_CENTS * 2), name="payment_amount_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} {self.kind} {self.amount_cents}"
