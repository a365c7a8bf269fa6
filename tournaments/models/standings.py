"""The last computed standings of a competition, kept as a cache for the pages that poll them."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tournaments.models.competitions import Competition


class StandingsSnapshot(models.Model):
    """The last computed standings of a competition (a cache; recomputed from the games)."""

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="snapshot"
    )
    data = models.JSONField()
    version = models.PositiveIntegerField(default=1)
    computed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"standings of {self.competition} v{self.version}"
