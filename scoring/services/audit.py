"""The audit trail's one constructor: who did what, through which door, when, before, after and
why. Every service that changes a game, a hand or a club's people writes its event through
:func:`event` (or :func:`record`), in the same transaction as the change."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from scoring.models import AuditEvent, Game
from scoring.services.actors import Actor


def event(
    by: Actor,
    action: str,
    *,
    club_id: int,
    game: Game | None = None,
    hand_number: int | None = None,
    hand_serial: int | None = None,
    at=None,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEvent:
    """An audit event, not yet saved (a service writing many saves them together)."""
    return AuditEvent(
        club_id=club_id,
        game=game,
        hand_number=hand_number,
        hand_serial=hand_serial,
        action=action,
        actor=by.user,
        via=by.via,
        at=at or timezone.now(),
        before=before,
        after=after,
        reason=reason,
    )


def record(by: Actor, action: str, **fields: Any) -> AuditEvent:
    """An audit event, saved now."""
    saved = event(by, action, **fields)
    saved.save()
    return saved
