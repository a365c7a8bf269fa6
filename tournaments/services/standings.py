"""Keeping a competition's standings snapshot up to date.

The snapshot (``StandingsSnapshot``) is a cache of ``selectors.standings_of``: stored here, and
refreshed after commit by a Celery task whenever entries, forfeits, adjustments or finished
games change. The pure arithmetic lives in ``tournaments.standings``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.services import queue
from tournaments import live, selectors, tasks
from tournaments.models import Competition, StandingsSnapshot


def refresh_standings_later(competition: Competition) -> None:
    """Refresh the standings snapshot once the change commits (entries, forfeits and
    adjustments all show in the standings)."""
    queue.enqueue_on_commit(tasks.recompute_standings, competition.pk)


def store_standings(*, competition: Competition) -> dict[str, Any]:
    """Recompute the standings from the games and keep them in the snapshot (a cache)."""
    data = selectors.standings_of(competition)
    with transaction.atomic():
        snapshot, created = StandingsSnapshot.objects.select_for_update(no_key=True).get_or_create(
            competition=competition, defaults={"data": data}
        )
        if not created and snapshot.data != data:
            snapshot.data = data
            snapshot.version += 1
            snapshot.computed_at = timezone.now()
            snapshot.save(update_fields=["data", "version", "computed_at"])
            live.announce_standings(competition.pk, snapshot.version)
    return data
