"""Tasks that could not be sent to the Celery broker (``scoring.services.queue``): kept here
until the worker's periodic ``run_pending_tasks`` runs them, so that nothing a request asked
for (a rating, standings, an announcement) is lost while the broker is down."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class PendingTask(models.Model):
    #: The Celery task's registered name, e.g. ``scoring.tasks.rate_game``.
    name = models.CharField(max_length=200)
    #: Its positional arguments (ids and plain values: the tasks' JSON serializer takes no more).
    args = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)
    #: Runs tried by the periodic task that failed; the row stays for the next run.
    failures = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.name}{tuple(self.args)}"
