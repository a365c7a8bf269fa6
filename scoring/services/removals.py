"""Taking hands out of a game, each under the game row's lock: removing one (later hands move up a
number and the game is replayed), removing one and every hand after it, removing one with the
later hands' dealers following the deal order again, and undoing the hand just saved. Each
removal is audited with its reason; nothing is ever removed on the strength of a stale
validator (``expected``).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from scoring.etags import Tag
from scoring.models import (
    AuditAction,
    AuditEvent,
    Game,
    GameStatus,
    Hand,
)
from scoring.rules import Problem, RuleViolation, engine
from scoring.rules.base import dealer_after
from scoring.services._game_row import (
    CACHE_FIELDS,
    _cache_fields,
    _check_expected,
    _locked,
    _refuse_if_abandoned,
    _refuse_if_locked,
)
from scoring.services.actors import (
    Actor,
    HandNotFound,
    violation,
)
from scoring.services.hands import hand_event, hand_fields, hand_state
from scoring.signals import announce_game_changed


def remove_hand(
    *,
    game: Game | int,
    number: int,
    by: Actor,
    reason: str,
    expected: Collection[Tag] | None = None,
) -> Game:
    """Remove a hand (a reason is required); later hands move up one number and the game is
    replayed. Refused, with the hand that fails named in the old numbering, if the replay fails.

    ``expected``: the validators the client read; one must name this very hand (or the game) at
    its current version, so that a resent removal never removes the hand that took its number."""
    _require(reason)
    with transaction.atomic():
        locked, hands, target = _removal_target(game, by, number, expected)
        remaining = [h for h in hands if h.number != number]
        scored = _replay_without(locked, [h.document for h in remaining], number)
        target.delete()
        _renumber_after(locked, number, 1)
        _store_replayed(locked, scored)
        hand_event(
            locked,
            by,
            AuditAction.REMOVE_HAND,
            target,
            before=hand_state(target),
            reason=reason.strip(),
        ).save()
    return locked


def _renumber_after(locked: Game, number: int, removed: int) -> None:
    """Later hands move up ``removed`` numbers, in two steps so that no intermediate state breaks
    the unique (game, number) constraint."""
    locked.hands.filter(number__gt=number).update(number=F("number") + 1_000_000)
    locked.hands.filter(number__gt=1_000_000).update(number=F("number") - 1_000_000 - removed)


def _require(reason: str) -> None:
    if not isinstance(reason, str) or not reason.strip():
        raise violation("reason", "required")


def _removal_target(game: Game | int, by: Actor, number: int, expected: Collection[Tag] | None):
    """The game locked for a removal (refused when abandoned or locked), its hands in order
    and hand ``number``: HandNotFound without it, VersionConflict when ``expected`` no longer
    names it."""
    locked = _locked(game, by)
    _refuse_if_abandoned(locked)
    _refuse_if_locked(locked)
    hands = list(locked.hands.order_by("number"))
    target = next((h for h in hands if h.number == number), None)
    if target is None:
        raise HandNotFound(number)
    if expected is not None:
        _check_expected(locked, target, expected)
    return locked, hands, target


def _replay_without(locked: Game, documents: list[dict[str, Any]], number: int):
    """The game replayed from ``documents``, the hands left once hand ``number`` is removed; a
    hand refused by the replay is named in the old numbering, as the client knows it."""
    try:
        return engine.replay(locked.rules, locked.options, locked.n, documents)
    except RuleViolation as error:
        raise RuleViolation(
            Problem(
                p.field, p.code, p.params, p.hand + 1 if p.hand and p.hand >= number else p.hand
            )
            for p in error.problems
        ) from None


def _store_replayed(locked: Game, scored) -> None:
    was_finished = locked.status == GameStatus.FINISHED
    _cache_fields(locked, scored)
    announce_game_changed(locked, was_finished=was_finished, change="removal")
    locked.version += 1
    locked.save(update_fields=CACHE_FIELDS)


def remove_hands_from(
    *,
    game: Game | int,
    number: int,
    by: Actor,
    reason: str,
    expected: Collection[Tag] | None = None,
) -> Game:
    """Remove hand ``number`` and every hand after it (a reason is required): what a player
    means when a hand in the middle was entered by mistake and the later ones follow from it.
    One audit event per removed hand, all with the reason.

    ``expected``: as for ``remove_hand``, the validators of hand ``number`` the client read."""
    _require(reason)
    with transaction.atomic():
        locked, hands, _target = _removal_target(game, by, number, expected)
        kept = [h for h in hands if h.number < number]
        gone = [h for h in hands if h.number >= number]
        scored = engine.replay(locked.rules, locked.options, locked.n, [h.document for h in kept])
        locked.hands.filter(number__gte=number).delete()
        _store_replayed(locked, scored)
        now = timezone.now()
        AuditEvent.objects.bulk_create(
            hand_event(
                locked,
                by,
                AuditAction.REMOVE_HAND,
                hand,
                at=now,
                before=hand_state(hand),
                reason=reason.strip(),
            )
            for hand in gone
        )
    return locked


def remove_hand_fixing_dealers(
    *,
    game: Game | int,
    number: int,
    by: Actor,
    reason: str,
    expected: Collection[Tag] | None = None,
) -> Game:
    """Remove hand ``number`` and give every later hand the dealer the deal order now expects
    (the deal passes in seat order, so each later hand is dealt by the seat after the previous
    hand's dealer). The game is replayed; if a later hand no longer fits its new dealer (a seat
    that now sits out played, say) nothing changes and the RuleViolation names that hand in the
    old numbering. Audited: the removal, and a correction of each hand whose dealer changed,
    all with the reason."""
    _require(reason)
    with transaction.atomic():
        locked, hands, target = _removal_target(game, by, number, expected)
        remaining = [h for h in hands if h.number != number]
        documents = _fixed_dealers(locked, remaining, number)
        scored = _replay_without(locked, documents, number)
        target.delete()
        now = timezone.now()
        changed = []
        for hand, new in zip(remaining, scored.hands, strict=True):
            if dict(new.document) != hand.document:
                before = {"document": hand.document, "deltas": hand.deltas}
                for column, value in hand_fields(new).items():
                    setattr(hand, column, value)
                hand.version += 1
                hand.updated_at = now
                changed.append((hand, before))
        if changed:
            Hand.objects.bulk_update(
                [h for h, _ in changed],
                ["document", "deltas", "side_points", "version", "updated_at"],
            )
        _renumber_after(locked, number, 1)
        _store_replayed(locked, scored)
        events = [
            hand_event(
                locked,
                by,
                AuditAction.REMOVE_HAND,
                target,
                at=now,
                before=hand_state(target),
                reason=reason.strip(),
            )
        ]
        events += [
            hand_event(
                locked,
                by,
                AuditAction.CORRECT_HAND,
                hand,
                number=hand.number - 1,
                at=now,
                before=before,
                after=hand_state(hand),
                reason=reason.strip(),
            )
            for hand, before in changed
        ]
        AuditEvent.objects.bulk_create(events)
    return locked


def _fixed_dealers(game: Game, remaining: list[Hand], number: int) -> list[dict[str, Any]]:
    """The documents of the ``remaining`` hands, those after ``number`` given the dealer the
    deal order expects after the previous hand's."""
    documents, previous = [], None
    for hand in remaining:
        document = dict(hand.document)
        if hand.number > number and previous is not None:
            document["dealer"] = dealer_after(previous, game.n)
        previous = document.get("dealer")
        documents.append(document)
    return documents


def dealers_fixable(*, game: Game, number: int) -> bool:
    """Whether ``remove_hand_fixing_dealers`` would succeed for hand ``number`` now (a read: the
    removal dialog offers that choice only then)."""
    remaining = list(game.hands.exclude(number=number).order_by("number"))
    documents = _fixed_dealers(game, remaining, number)
    try:
        engine.replay(game.rules, game.options, game.n, documents)
    except RuleViolation:
        return False
    return True


class UndoExpired(Exception):
    """The hand can no longer be undone (too late, not the last one, or saved elsewhere): it
    may still be removed, with a reason."""


def undo_hand(
    *,
    game: Game | int,
    number: int,
    by: Actor,
    expected: Collection[Tag],
    within_seconds: int,
) -> Game:
    """Take back the hand just saved, without a reason: only the last hand, only within
    ``within_seconds`` of its entry, only by the client that entered it (the caller checks that
    it is the same browser session), and only while it is the very hand the client saw
    (``expected``, its validator): a retried undo finds it gone (HandNotFound) or another hand
    in its place (VersionConflict), and never removes a second hand. Otherwise UndoExpired: the
    player removes it with a reason instead. Audited as an undo."""
    with transaction.atomic():
        locked, hands, target = _removal_target(game, by, number, expected)
        if hands[-1].pk != target.pk or target.version != 1:
            raise UndoExpired(number)
        if (timezone.now() - target.created_at).total_seconds() > within_seconds:
            raise UndoExpired(number)
        user_id = getattr(by.user, "pk", None)
        same_client = target.entered_by_id == user_id and (
            user_id is not None or target.entered_via == by.via
        )
        if not same_client:
            raise UndoExpired(number)
        scored = engine.replay(
            locked.rules, locked.options, locked.n, [h.document for h in hands[:-1]]
        )
        target.delete()
        _store_replayed(locked, scored)
        hand_event(locked, by, AuditAction.UNDO_HAND, target, before=hand_state(target)).save()
    return locked
