"""The hand writes, each under the game row's lock: recording the next hand (idempotent with a
key) and correcting recorded hands. Also the one way a scored hand becomes a ``Hand`` row
(``hand_fields``, ``hand_row``) and the audit event of a hand (``hand_event``). Removing hands
and undoing the hand just saved are ``scoring.services.removals``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring import selectors
from scoring.etags import Tag
from scoring.models import (
    HAND_WRITERS,
    Acceptance,
    AuditAction,
    AuditEvent,
    Game,
    GameStatus,
    Hand,
    IdempotencyRecord,
)
from scoring.rules import RuleViolation, ScoredHand, engine
from scoring.services import _rows, audit
from scoring.services._game_row import (
    CACHE_FIELDS,
    _cache_fields,
    _check_expected,
    _locked,
    _refuse_if_abandoned,
    _refuse_if_locked,
    _refuse_if_reseated,
)
from scoring.services.actors import (
    Actor,
    AlreadyEntered,
    HandNotFound,
    IdempotencyConflict,
    _authorize,
    violation,
)
from scoring.signals import announce_game_changed


def hand_fields(scored_hand: ScoredHand) -> dict[str, Any]:
    """The columns of a ``Hand`` row that the engine decides, from its scored hand: the one
    place a scored hand becomes stored values (new rows and corrected ones alike)."""
    return {
        "document": dict(scored_hand.document),
        "deltas": list(scored_hand.deltas),
        "side_points": None if scored_hand.side_points is None else list(scored_hand.side_points),
    }


def hand_state(hand: Hand) -> dict[str, Any]:
    """What the audit trail keeps of a hand: its document and what it scored."""
    return {"document": hand.document, "deltas": hand.deltas}


def hand_event(
    locked: Game,
    by: Actor,
    action: str,
    hand: Hand,
    *,
    number: int | None = None,
    at=None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str = "",
) -> AuditEvent:
    """An audit event (not yet saved) for ``hand`` of the locked game, done by ``by``: the hand
    named by its serial, and by its number now (or ``number``, the one it had)."""
    return audit.event(
        by,
        action,
        club_id=locked.club_id,
        game=locked,
        hand_number=hand.number if number is None else number,
        hand_serial=hand.serial,
        at=at,
        before=before,
        after=after,
        reason=reason,
    )


def hand_row(*, game: Game, scored_hand: ScoredHand, by: Actor, serial: int, at=None) -> Hand:
    """A new, unsaved ``Hand`` row of ``game`` for ``scored_hand``, entered by ``by`` (now, or
    ``at``), with its ``serial`` (the game's next: the caller moves ``last_hand_serial`` on)."""
    at = at or timezone.now()
    return Hand(
        game=game,
        number=scored_hand.number,
        serial=serial,
        entered_by=by.user,
        entered_via=by.via,
        created_at=at,
        updated_at=at,
        **hand_fields(scored_hand),
    )


def fingerprint(document: Any) -> str:
    return hashlib.sha256(
        json.dumps(document, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


#: ``Actor.client`` values that name no one in particular: their keys are never replayed.
SHARED_CLIENTS = frozenset({"", "anonymous"})


@dataclass(frozen=True)
class Recorded:
    """The answer to a hand entry: the stored hand's payload, and whether it is a resend."""

    payload: dict[str, Any]
    replayed: bool = False
    hand: Hand | None = None


def record_hand(
    *,
    game: Game | int,
    document: Any,
    by: Actor,
    idempotency_key: str | None = None,
    number: int | None = None,
    seat: int | None = None,
    seating: Any = None,
) -> Recorded:
    """Validate, score and store the next hand of ``game``.

    With an ``idempotency_key``, a resend of the same document returns the first answer and
    stores nothing; the same key with another document raises IdempotencyConflict.

    ``number``: the hand number the phone showed. When that hand is already in the game (another
    phone entered it meanwhile) AlreadyEntered says so, instead of a refusal about the dealer or
    the same hand stored twice. ``seat``: who is entering, where the game's hands must be
    accepted by a player of another side (``services.confirmations``): the hand is pending.
    ``seating``: the game's seating version the phone's page showed (or the document's
    ``seating`` key, as the API sends it): refused with ``seating_changed`` (409) when the seats
    changed since; None (an older client) is not checked."""
    document, seating = take_seating(document, seating)
    document_print = fingerprint(document)
    try:
        with transaction.atomic():
            locked = _rows.lock_game(
                game.pk if isinstance(game, Game) else game,
                user_id=getattr(by.user, "pk", None),
                key=idempotency_key,
                client=by.client,
            )
            # A resend answers as the first time, whatever changed since (the game over or
            # locked, the role changed): looked up before the checks that depend on them.
            first = _replayed(locked, by, idempotency_key, document_print)
            if first is not None:
                return first
            _refuse_entry(locked, by, number, seating)
            was_finished = locked.status == GameStatus.FINISHED
            scored = engine.play(locked.scored(), document)
            now = timezone.now()
            locked.last_hand_serial += 1
            hand = hand_row(
                game=locked,
                scored_hand=scored.hands[-1],
                by=by,
                serial=locked.last_hand_serial,
                at=now,
            )
            if seat is not None:
                hand.entered_seat = _entering_seat(locked, seat)
            if locked.hands_need_acceptance:
                hand.acceptance = Acceptance.PENDING
            hand = _rows.insert(hand)
            _cache_fields(locked, scored)
            locked.version += 1
            announce_game_changed(locked, was_finished=was_finished, change="hand")
            payload = selectors.hand_payload(hand, locked, scored)
            first_answer = (by.client, idempotency_key, document_print) if idempotency_key else None
            _rows.run(*recorded_writes(locked, hand, payload, first_answer))
            return Recorded(payload=payload, hand=hand)
    except (IntegrityError, RuleViolation):
        # A concurrent request with the same key won the race. On PostgreSQL the lock query's
        # "key seen?" subquery reads the snapshot taken before the wait, so the resend is then
        # played as a new hand: refused (wrong dealer, game over…) or stopped by the unique key.
        # Either way the first answer, now committed, is the one to give.
        if idempotency_key:
            first = _first_answer(
                by.client,
                idempotency_key,
                game.pk if isinstance(game, Game) else game,
                document_print,
            )
            if first is not None:
                return first
        raise


#: The key of a hand POST's body that names the seating it was typed for (never stored).
SEATING_KEY = "seating"


def take_seating(document: Any, seating: Any = None) -> tuple[Any, int | None]:
    """The hand document without its ``seating`` key, and the seating version sent (the
    key's, else ``seating``; None when neither says): a whole number from 1, else refused by
    its field (400)."""
    if isinstance(document, Mapping) and SEATING_KEY in document:
        document = dict(document)
        seating = document.pop(SEATING_KEY)
        if seating is None:
            raise violation(SEATING_KEY, "type", expected="integer")
    if seating is not None and (
        isinstance(seating, bool) or not isinstance(seating, int) or seating < 1
    ):
        raise violation(SEATING_KEY, "type", expected="integer")
    return document, seating


def _refuse_entry(locked: Game, by: Actor, number: int | None, seating: int | None) -> None:
    """The refusals of a new hand that do not depend on its document, under the game's lock:
    who may write, a game gone or locked, seats that changed since the hand was typed, a hand
    ``number`` entered meanwhile from another phone."""
    _authorize(by, role=locked.actor_role, roles=HAND_WRITERS, table_game=locked.pk)
    _refuse_if_abandoned(locked)
    _refuse_if_locked(locked)
    _refuse_if_reseated(locked, seating)
    # (Once the game is over, that it is over says more: the engine refuses below.)
    if (
        number is not None
        and number <= locked.hand_count
        and locked.status == GameStatus.IN_PROGRESS
    ):
        raise AlreadyEntered(number, locked.hand_count)


def _entering_seat(locked: Game, seat: Any) -> int:
    """The seat of who enters a hand that must be accepted, refused unless a seat of the game."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < locked.n:
        raise violation("seat", "not_a_seat", max=locked.n - 1, value=seat)
    return seat


def recorded_writes(
    locked: Game, hand: Hand, payload: dict[str, Any], first_answer: tuple[str, str, str] | None
) -> list[tuple[str, list]]:
    """What follows a new hand's row (just inserted) in one round trip: the locked game's cache
    (already refreshed), the audit event and, given ``first_answer`` (client, key, fingerprint),
    the idempotency record that answers a resend with ``payload``."""
    writes = [
        _rows.updating(locked, CACHE_FIELDS),
        _rows.insertion(
            AuditEvent,
            club_id=locked.club_id,
            game_id=locked.pk,
            hand_number=hand.number,
            hand_serial=hand.serial,
            action=AuditAction.RECORD_HAND,
            actor_id=hand.entered_by_id,
            via=hand.entered_via,
            at=hand.created_at,
            before=None,
            after={"document": hand.document, "deltas": hand.deltas},
            reason="",
        ),
    ]
    if first_answer is not None:
        client, key, document_print = first_answer
        writes.append(
            _rows.insertion(
                IdempotencyRecord,
                client=client,
                key=key,
                game_id=locked.pk,
                fingerprint=document_print,
                status_code=201,
                response=payload,
                created_at=hand.created_at,
            )
        )
    return writes


def _replayed(locked: Game, by: Actor, key: str | None, document_print: str) -> Recorded | None:
    """The first answer to a resend of ``key`` by this very client (``by.client``: its account,
    or this game's table link; another actor's key never finds it), or None."""
    if not key or not locked.seen_key or by.client in SHARED_CLIENTS:
        return None
    return _first_answer(by.client, key, locked.pk, document_print)


def _first_answer(client: str, key: str, game_id: int, document_print: str) -> Recorded | None:
    """The stored first answer to ``key``, if any; IdempotencyConflict when the key was used
    for another document (``document_print`` is the new one's fingerprint) or another game."""
    record = IdempotencyRecord.objects.filter(client=client, key=key).first()
    if record is None:
        return None
    if record.fingerprint != document_print or record.game_id != game_id:
        raise IdempotencyConflict(key)
    return Recorded(payload=record.response, replayed=True)


def correct_hands(
    *,
    game: Game | int,
    changes: Mapping[int, Any],
    by: Actor,
    expected: Mapping[int, Collection[Tag]] | None = None,
    reason: str = "",
) -> Game:
    """Replace the documents of recorded hands (docs/rules/README.md §9): the game is replayed from
    hand 1; if every hand is valid the new documents and figures are stored, otherwise nothing
    changes and the RuleViolation names the hand that failed. Several hands may change at once.

    ``expected``: for each changed hand number, the validators the client read (``scoring.etags``);
    one of them must name that very hand at its current version, or the game at its current
    version, else VersionConflict. None (trusted callers only) checks nothing.
    """
    with transaction.atomic():
        locked = _locked(game, by)
        _refuse_if_abandoned(locked)
        _refuse_if_locked(locked)
        hands = list(locked.hands.order_by("number"))
        by_number = {h.number: h for h in hands}
        for number in changes:
            if number not in by_number:
                raise HandNotFound(number)
        if expected is not None:
            for number in changes:
                _check_expected(locked, by_number[number], expected.get(number, ()))
        documents = [changes.get(h.number, h.document) for h in hands]
        scored = engine.replay(locked.rules, locked.options, locked.n, documents)
        now = timezone.now()
        changed = []
        for hand, new in zip(hands, scored.hands, strict=True):
            if hand.number in changes and dict(new.document) != hand.document:
                before = {"document": hand.document, "deltas": hand.deltas}
                for column, value in hand_fields(new).items():
                    setattr(hand, column, value)
                hand.version += 1
                hand.updated_at = now
                if locked.hands_need_acceptance:
                    # A corrected hand is checked again by the table (a rejected one too).
                    hand.acceptance = Acceptance.PENDING
                    hand.answered_seat = hand.answered_at = None
                changed.append((hand, before))
        if not changed:
            return locked
        Hand.objects.bulk_update(
            [h for h, _ in changed],
            [
                "document",
                "deltas",
                "side_points",
                "version",
                "updated_at",
                "acceptance",
                "answered_seat",
                "answered_at",
            ],
        )
        was_finished = locked.status == GameStatus.FINISHED
        _cache_fields(locked, scored)
        announce_game_changed(locked, was_finished=was_finished, change="correction")
        locked.version += 1
        locked.save(update_fields=CACHE_FIELDS)
        AuditEvent.objects.bulk_create(
            hand_event(
                locked,
                by,
                AuditAction.CORRECT_HAND,
                hand,
                at=now,
                before=before,
                after=hand_state(hand),
                reason=reason.strip(),
            )
            for hand, before in changed
        )
    return locked


def correct_hand(
    *,
    game: Game | int,
    number: int,
    document: Any,
    by: Actor,
    expected: Collection[Tag] | None = None,
    reason: str = "",
) -> Game:
    """Correct one hand; ``expected`` as for one hand of ``correct_hands``."""
    return correct_hands(
        game=game,
        changes={number: document},
        by=by,
        expected=None if expected is None else {number: expected},
        reason=reason,
    )
