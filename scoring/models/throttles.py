"""The throttles' counters while the shared cache is down (``scoring.throttles``).

With Redis answering, the counts of wrong passwords and PINs live there, shared by every web
process. When it stops, a count kept in each process's memory would let every process (and every
restart) grant the tries again; these rows keep one count for all of them until Redis is back.
"""

from __future__ import annotations

from django.db import models


class GuessCounter(models.Model):
    """One key of a ``Backoff`` (a hashed account, address or session): its tries, until when it
    must wait, and when it is forgotten (epoch seconds, as ``scoring.throttles.now`` counts)."""

    key = models.CharField(max_length=80, primary_key=True)
    tries = models.PositiveIntegerField(default=0)
    until = models.FloatField(default=0)
    expires = models.FloatField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.tries}"
