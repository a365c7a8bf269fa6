"""Player tags: the attributes a club gives its players ("Women", "Under 18") for the
categories of a competition's prize list. Owners and organizers set a player's tags by name; a
name the club has no tag for yet becomes a new tag. Audited (``tag_player``: the names before
and after)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from scoring.models import MANAGERS, AuditAction, Player, PlayerTag
from scoring.rules import RuleViolation
from scoring.services import audit
from scoring.services.actors import Actor, authorize_club, violation
from scoring.validators import text_problem


def _names(names: Any) -> list[str]:
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise violation("tags", "type", expected="list")
    cleaned: dict[str, str] = {}
    for raw in names:
        if not isinstance(raw, str):
            raise violation("tags", "type", expected="string")
        name = " ".join(raw.split())
        if not name:
            continue
        if len(name) > PlayerTag.NAME_MAX:
            raise violation("tags", "too_long", max=PlayerTag.NAME_MAX, value=len(name))
        problem = text_problem(name, "tags")
        if problem is not None:
            raise RuleViolation([problem])
        cleaned.setdefault(name.casefold(), name)
    return list(cleaned.values())


def set_player_tags(*, player: Player, tags: Any, by: Actor) -> list[str]:
    """The player's tags are exactly ``tags`` (names; new names become the club's new tags).
    Returns the names as stored, in order."""
    authorize_club(by, player.club, MANAGERS)
    names = _names(tags)
    with transaction.atomic():
        locked = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
        before = sorted(locked.tags.values_list("name", flat=True))
        chosen = []
        for name in names:
            tag = PlayerTag.objects.filter(club_id=locked.club_id, name__iexact=name).first()
            chosen.append(tag or PlayerTag.objects.create(club_id=locked.club_id, name=name))
        locked.tags.set(chosen)
        after = sorted(tag.name for tag in chosen)
        if before != after:
            audit.record(
                by, AuditAction.TAG_PLAYER, club_id=locked.club_id, before=before, after=after
            )
    return after
