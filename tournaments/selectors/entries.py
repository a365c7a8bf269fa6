"""Who plays a competition: its entries in seed order."""

from __future__ import annotations

from django.db.models import F

from tournaments.models import Competition, Entry


def entries_of(competition: Competition, *, active_only: bool = False) -> list[Entry]:
    """The entries in seed order, unseeded ones after the seeded (in the order they entered):
    spelled out, since databases disagree on where NULL sorts (SQLite first, PostgreSQL last)."""
    entries = competition.entries.select_related("player", "partner")
    if active_only:
        entries = entries.filter(status="active")
    return list(entries.order_by(F("seed").asc(nulls_last=True), "id"))
