"""Who plays a competition: its entries in seed order, and the players of the club who may be
entered."""

from __future__ import annotations

from django.db.models import F

from scoring.models import Club, Player
from tournaments.models import Competition, Entry


def entries_of(competition: Competition, *, active_only: bool = False) -> list[Entry]:
    """The entries in seed order, unseeded ones after the seeded (in the order they entered):
    spelled out, since databases disagree on where NULL sorts (SQLite first, PostgreSQL last)."""
    entries = competition.entries.select_related("player", "partner")
    if active_only:
        entries = entries.filter(status="active")
    return list(entries.order_by(F("seed").asc(nulls_last=True), "id"))


def entered_players(competition: Competition) -> set[int]:
    """The players already entered in the competition, as a player or as a partner."""
    return set(competition.entries.values_list("player_id", flat=True)) | set(
        competition.entries.exclude(partner=None).values_list("partner_id", flat=True)
    )


def active_players(club: Club) -> list[Player]:
    """The club's active players, by name: who may be entered."""
    return list(Player.objects.filter(club=club, active=True).order_by("display_name"))
