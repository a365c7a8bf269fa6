"""Reads of registration (issue 24): what a public page shows (counts, never a registrant's
address) and what the organizers of the club read (every registration, with its address)."""

from __future__ import annotations

from typing import Any

from django.db.models.functions import Lower

from registration.models import (
    CheckInWindow,
    Registration,
    RegistrationRefusals,
    RegistrationSettings,
    RegistrationStatus,
)
from scoring.models import Player
from tournaments.models import CheckIn, Competition, EntryStatus, Round


def registration_settings(competition: Competition) -> RegistrationSettings | None:
    """The competition's registration settings, or None (one query)."""
    found = RegistrationSettings.objects.filter(competition=competition).first()
    if found is not None:
        found.competition = competition
    return found


def registration_summary(competition: Competition) -> dict[str, Any] | None:
    """What anyone may read: the window, the places, how many are taken and waiting, the note.
    No name or address of a registrant (three queries)."""
    found = registration_settings(competition)
    if found is None:
        return None
    taken = competition.entries.filter(status=EntryStatus.ACTIVE).count()
    waiting = Registration.objects.filter(
        competition=competition, status=RegistrationStatus.WAITING
    ).count()
    return {
        "settings": found,
        "state": found.state(),
        "places": found.places,
        "taken": taken,
        "free": max(0, found.places - taken),
        "waiting": waiting,
    }


def registrations_of(competition: Competition) -> dict[str, list[Registration]]:
    """Every registration by status, the waiting list in its order (the organizers' read:
    the addresses are in it), each with ``possible_duplicate``: another player of the club of
    the registrant's name, the one its entry's player may be the same person as (None when
    there is none, or when the entry names the player of that name). Two queries."""
    rows = list(
        Registration.objects.filter(competition=competition)
        .select_related("entry__player", "entry__partner", "player")
        .order_by("position", "created_at", "id")
    )
    named = {row.name.lower() for row in rows if row.player_id is not None}
    by_name: dict[str, Player] = {}
    if named:
        players = Player.objects.annotate(lowered=Lower("display_name")).filter(
            club=competition.club_id, lowered__in=named
        )
        for player in players.order_by("pk"):
            by_name.setdefault(player.lowered, player)
    grouped: dict[str, list[Registration]] = {s: [] for s in RegistrationStatus.values}
    for row in rows:
        other = by_name.get(row.name.lower()) if row.player_id is not None else None
        row.possible_duplicate = other if other is not None and other.pk != row.player_id else None
        grouped[row.status].append(row)
    return grouped


def check_in_state(round_: Round) -> dict[str, Any]:
    """The round's self check-in window and who is present or missing at a glance (the active
    entries, by name). Three queries."""
    window = CheckInWindow.objects.filter(round=round_).first()
    present = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
    entries = list(
        round_.competition.entries.filter(status=EntryStatus.ACTIVE).select_related(
            "player", "partner"
        )
    )
    entries.sort(key=lambda e: e.name.lower())
    return {
        "window": window,
        "open": window is not None and window.is_open(),
        "present": [e for e in entries if e.pk in present],
        "missing": [e for e in entries if e.pk not in present],
    }


def places_of(competition_ids) -> dict[int, int]:
    """How many entries each competition with registration settings takes
    (``tournaments.extensions.COMPETITION_PLACES``: a circuit's outlook counts the room left).
    One query."""
    found = RegistrationSettings.objects.filter(competition__in=competition_ids).select_related(
        "competition"
    )
    return {settings.competition_id: settings.places for settings in found}


def refusals_of(competition: Competition):
    """The competition's throttled registrations (``RegistrationRefusals``), or None if none
    was ever refused (one query)."""
    return RegistrationRefusals.objects.filter(competition=competition).first()
