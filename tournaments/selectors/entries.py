"""Who plays a competition: its entries in seed order, and the players of the club who may be
entered."""

from __future__ import annotations

from django.db.models import F

from scoring.etags import Tag, entry_tag
from scoring.models import Club, Player
from tournaments.models import Competition, CompetitionEvent, Entry


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


def entry_validators(competition: Competition) -> dict[int, Tag]:
    """The ETag of each entry of the competition that an event names (``scoring.etags``): its
    row, and the last of the competition's events that named it (entered, withdrawn,
    reinstated...). One query."""
    last: dict[int, int] = {}
    events = CompetitionEvent.objects.filter(competition=competition, data__has_key="entry")
    for pk, entry_id in events.values_list("pk", "data__entry"):
        if isinstance(entry_id, int):
            last[entry_id] = max(pk, last.get(entry_id, 0))
    return {entry_id: entry_tag(entry_id, version) for entry_id, version in last.items()}


def entry_validator(entry: Entry) -> Tag:
    """One entry's ETag (``entry_validators``). One query."""
    events = CompetitionEvent.objects.filter(
        competition_id=entry.competition_id, data__entry=entry.pk
    )
    return entry_tag(entry.pk, max(events.values_list("pk", flat=True), default=0))
