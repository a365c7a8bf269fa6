"""A table calling the director: why, who called and when, and the director's answer (coming,
then resolved). One call at a time per table (a database constraint): a table cannot flood the
organizer's screens with calls."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.rounds import Table


class CallReason(models.TextChoices):
    DISPUTE = "dispute", _("A dispute")
    RULES = "rules", _("A rules question")
    LEAVING = "leaving", _("A player is leaving")
    OTHER = "other", _("Something else")


class DirectorCall(models.Model):
    """Open while ``resolved_at`` is empty; acknowledged ("the director is coming") once
    ``acknowledged_at`` is set. ``called_at`` is when the table last called (a call repeated
    after ``services.calls.REPEAT_MINUTES`` without an answer rings again)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="director_calls")
    reason = models.CharField(max_length=16, choices=CallReason.choices)
    text = models.CharField(max_length=200, blank=True)
    #: Who called, as the organizer reads it: the player's name, or the table's phone.
    caller = models.CharField(max_length=150)
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    first_called_at = models.DateTimeField(default=timezone.now)
    called_at = models.DateTimeField(default=timezone.now)
    times = models.PositiveSmallIntegerField(default=1)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["called_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(resolved_at__isnull=True),
                name="director_call_one_open_per_table",
            ),
            models.CheckConstraint(
                condition=Q(reason__in=CallReason.values), name="director_call_reason_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.reason}"

    @property
    def state(self) -> str:
        """ "open" (waiting for the director), "coming" (acknowledged) or "resolved"."""
        if self.resolved_at is not None:
            return "resolved"
        return "coming" if self.acknowledged_at is not None else "open"
