"""Locking a game once its result is settled (its round closed, its competition finalized), and
reopening it.

A locked game refuses every hand write, and abandoning it (``_game_row._refuse_if_locked``): the
API answers 409, a page shows why where its form is, naming who can reopen it. Only a manager of
the club (``MANAGERS``) locks and reopens; reopening needs a reason. Both are audited on the
game's trail and bump the game's version (its resource now says ``locked``). Neither announces
``game_changed``: the hands and the result stay as they are, so the standings do too; each write
that follows a reopening announces its own change, once.

Apps that build on scoring lock the games they settle (tournaments' ``close_round``) through
``lock_games``, with a ``LockReason`` and the words of that reason; scoring never imports them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.models import MANAGERS, AuditAction, AuditEvent, Club, Game, LockReason
from scoring.services import audit
from scoring.services._game_row import _locked
from scoring.services.actors import Actor, Locked, authorize_club, violation
from scoring.signals import publish_game

LOCK_FIELDS = ["locked_at", "locked_by", "lock_reason", "lock_context", "version"]


def _lock_state(game: Game) -> dict[str, Any]:
    """What the audit trail keeps of a game's lock."""
    return {
        "locked": game.locked_at is not None,
        "reason": game.lock_reason,
        "context": dict(game.lock_context or {}),
    }


def lock_games(
    *,
    games: Iterable[Game | int],
    by: Actor,
    reason: str | None = None,
    context: Mapping[str, Any] | None = None,
) -> list[Game]:
    """Lock ``games`` (rows or ids, of clubs ``by`` manages) for ``reason``, a ``LockReason``,
    with the words of ``context`` (e.g. ``{"round": 3, "competition": "Spring league"}``).
    ``reason=None`` locks each game again for the reason it last had (manual if none): after
    a reopening. A game already locked for the same reason and words is left alone; one locked
    for another reason takes the new one. Returns the games that changed."""
    if reason is not None and reason not in LockReason.values:
        raise ValueError(f"unknown lock reason {reason!r}")
    ids = sorted({g.pk if isinstance(g, Game) else g for g in games})
    with transaction.atomic():
        rows = list(
            Game.objects.select_for_update(no_key=True, of=("self",))
            .filter(pk__in=ids)
            .order_by("pk")
        )
        for club_id in {row.club_id for row in rows}:
            authorize_club(by, Club(pk=club_id), MANAGERS)
        now = timezone.now()
        changed, events = [], []
        for game in rows:
            if reason is None:
                new_reason = game.lock_reason or LockReason.MANUAL
                new_context = dict(game.lock_context or {}) if game.lock_reason else {}
            else:
                new_reason, new_context = reason, dict(context or {})
            if (
                game.locked_at is not None
                and game.lock_reason == new_reason
                and game.lock_context == new_context
            ):
                continue
            before = _lock_state(game)
            game.locked_at, game.locked_by = now, by.user
            game.lock_reason, game.lock_context = new_reason, new_context
            game.version += 1
            changed.append(game)
            events.append(
                audit.event(
                    by,
                    AuditAction.LOCK_GAME,
                    club_id=game.club_id,
                    game=game,
                    at=now,
                    before=before,
                    after=_lock_state(game),
                )
            )
        Game.objects.bulk_update(changed, LOCK_FIELDS)
        for game in changed:
            publish_game(game, "lock")
        AuditEvent.objects.bulk_create(events)
    return changed


def reopen_game(*, game: Game | int, by: Actor, reason: str) -> Game:
    """Let a locked game change again (a manager of the club, with a reason): hands may then be
    entered, corrected and removed as usual, each audited and reaching the standings once. The
    lock's reason is kept, so that ``lock_games(reason=None)`` restores it. A game locked because
    its competition is final is refused: the competition must be reopened first."""
    if not isinstance(reason, str) or not reason.strip():
        raise violation("reason", "required")
    with transaction.atomic():
        locked = _locked(game, by, table_link_may=False, roles=MANAGERS)
        if locked.locked_at is None:
            raise violation("game", "not_allowed", reason="not_locked")
        if locked.lock_reason == LockReason.FINALIZED:
            raise Locked("game", locked.lock_reason, **locked.lock_context)
        before = _lock_state(locked)
        locked.locked_at, locked.locked_by = None, None
        locked.version += 1
        locked.save(update_fields=LOCK_FIELDS)
        publish_game(locked, "lock")
        audit.record(
            by,
            AuditAction.REOPEN_GAME,
            club_id=locked.club_id,
            game=locked,
            before=before,
            after=_lock_state(locked),
            reason=reason.strip(),
        )
    return locked
