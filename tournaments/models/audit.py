"""The append-only trail of an organizer's changes to a competition."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.models.competitions import Competition
from tournaments.models.rounds import Round


class CompetitionEvent(models.Model):
    """Append-only trail of the organizer's changes: who, when, what, why."""

    # PROTECT: history is permanent, in the database too (``scoring.permanent``).
    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="events")
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=32)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    data = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "id"]
        # The nightly check_games reads the competitions changed since yesterday by it.
        indexes = [models.Index(fields=["at"], name="competition_event_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise TypeError("competition events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("competition events are append-only")
