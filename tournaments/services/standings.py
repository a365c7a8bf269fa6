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
from tournaments import live, selectors
from tournaments.models import Competition, StandingsSnapshot


def refresh_standings_later(competition: Competition) -> None:
    """Refresh the standings snapshot once the change commits (entries, forfeits and
    adjustments all show in the standings)."""
    queue.enqueue_on_commit("tournaments.tasks.recompute_standings", competition.pk)


def store_standings(*, competition: Competition, outlook: bool = True) -> dict[str, Any]:
    """Recompute the standings from the games and keep them in the snapshot (a cache).

    ``outlook=False``: the points, ranks and tie-breaks now, and who can still win as the
    snapshot said before (``selectors.standings_of`` spends nearly all its time on the outlook:
    about 400 of 420 ms for a league of 60). The task after a finished game stores that first,
    so that the spectators' standings move within milliseconds, then the whole (``tasks.
    recompute_standings``): the badges follow a moment later, as a version of their own."""
    data = selectors.standings_of(competition, outlook=outlook)
    with transaction.atomic():
        snapshot, created = StandingsSnapshot.objects.select_for_update(no_key=True).get_or_create(
            competition=competition, defaults={"data": data}
        )
        if not outlook and not created:
            _keep_outlook(data, snapshot.data)
        if not created and snapshot.data != data:
            snapshot.data = data
            snapshot.version += 1
            snapshot.computed_at = timezone.now()
            snapshot.save(update_fields=["data", "version", "computed_at"])
            live.announce_standings(competition.pk, snapshot.version)
        # The standings after each round, for the chart and the arrows of the pages.
        selectors.keep_history(competition, (snapshot.version, snapshot.computed_at), data)
    return data


def _keep_outlook(data: dict[str, Any], before: dict[str, Any]) -> None:
    """Each overall row's outlook as ``before`` gave it (entries new since have none yet)."""
    if not before.get("outlook") or not data.get("tables") or not before.get("tables"):
        return
    kept = {row["entry"]: row.get("outlook") for row in before["tables"][0]["rows"]}
    for row in data["tables"][0]["rows"]:
        if kept.get(row["entry"]) is not None:
            row["outlook"] = kept[row["entry"]]
    data["outlook"] = True
