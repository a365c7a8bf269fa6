"""Points an organizer gives or takes, with a reason (a forfeit, a penalty)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.models.competitions import Competition
from tournaments.models.entries import Entry
from tournaments.models.rounds import Round


class Adjustment(models.Model):
    """Points given or taken by the organizer (a forfeit, a penalty), with a reason."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="adjustments"
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, null=True, blank=True, related_name="adjustments"
    )
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="adjustments")
    points = models.DecimalField(max_digits=8, decimal_places=2)
    reason = models.TextField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.entry} {self.points:+}"
