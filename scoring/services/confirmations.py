"""Confirmation by the table, as bridge clubs do: in a game whose hands must be accepted
(``Game.hands_need_acceptance``, set when it starts, by its competition too), each hand entered
or corrected is *pending* until a player of another side accepts it.

Who is "a player of another side": any seated player but the one who entered the hand (the
entering phone says which seat it is, ``Hand.entered_seat``) and, where the game has fixed
partnerships (``Seat.side``, Briscola in pairs), that player's partner. When the entering seat
is unknown (a hand entered through the API without one), any seated player may answer.

- ``accept_hand``: the hand counts from then on (totals, standings, a finished table);
- ``reject_hand``: with a reason; the hand goes back for correction, and a correction
  (``correct_hands``) makes it pending again.

A pending or rejected hand still moves the deal on (the cards were played), so the game's cached
totals and next dealer include it; what does not count yet is shown apart ("+24 pending") and
kept out of a competition's standings (``tournaments.selectors.results_of``) and of a closed
round. Both writes lock the game row, respect a locked game (409) and an If-Match validator of
the hand (412), bump the game's version (other phones refresh) and are audited with the seat and
name of who answered. Answering again the same way changes nothing (a resend is harmless).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.etags import Tag
from scoring.models import (
    Acceptance,
    AuditAction,
    Game,
    GameStatus,
    Hand,
    Seat,
)
from scoring.services import audit
from scoring.services._game_row import (
    _check_expected,
    _locked,
    _refuse_if_abandoned,
    _refuse_if_locked,
)
from scoring.services.actors import Actor, Conflict, HandNotFound, violation
from scoring.signals import announce_game_changed

ANSWER_FIELDS = ["acceptance", "answered_seat", "answered_at", "reject_reason"]


def sides_of(seats: Collection[Seat]) -> dict[int, int | None]:
    """Each seat's fixed side (None where the game has no fixed partnerships)."""
    return {seat.index: seat.side for seat in seats}


def may_answer(entered_seat: int | None, seat: int, sides: dict[int, int | None]) -> bool:
    """Whether the player at ``seat`` is of another side than the one who entered the hand."""
    if entered_seat is None:
        return True
    if seat == entered_seat:
        return False
    side = sides.get(entered_seat)
    return side is None or sides.get(seat) != side


def _answering(
    game: Game | int,
    number: int,
    by: Actor,
    seat: Any,
    expected: Collection[Tag] | None,
) -> tuple[Game, Hand, str]:
    """The locked game and its hand ``number``, once ``seat`` may answer for it; and the name
    of the player at ``seat``."""
    locked = _locked(game, by)
    _refuse_if_abandoned(locked)
    _refuse_if_locked(locked)
    if not locked.hands_need_acceptance:
        raise Conflict("game", "not_allowed", reason="no_acceptance")
    hand = locked.hands.filter(number=number).first()
    if hand is None:
        raise HandNotFound(number)
    seats = list(locked.seats.select_related("player").order_by("index"))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
        raise violation("seat", "not_a_seat", max=len(seats) - 1, value=seat)
    if not may_answer(hand.entered_seat, seat, sides_of(seats)):
        raise violation("seat", "same_side", value=seat, entered=hand.entered_seat)
    if expected is not None:
        _check_expected(locked, hand, expected)
    return locked, hand, seats[seat].player.display_name


def _answer(
    locked: Game, hand: Hand, by: Actor, *, action: str, seat: int, name: str, reason: str = ""
) -> None:
    now = timezone.now()
    before = {"acceptance": hand.acceptance, "version": hand.version}
    hand.acceptance = Acceptance.ACCEPTED if action == AuditAction.ACCEPT_HAND else "rejected"
    hand.answered_seat, hand.answered_at, hand.reject_reason = seat, now, reason
    hand.save(update_fields=ANSWER_FIELDS)
    locked.version += 1
    locked.save(update_fields=["version"])
    audit.record(
        by,
        action,
        club_id=locked.club_id,
        game=locked,
        hand_number=hand.number,
        hand_serial=hand.serial,
        at=now,
        before=before,
        after={"acceptance": hand.acceptance, "seat": seat, "player": name},
        reason=reason,
    )
    # The hand now counts (or not): a finished table's standings follow.
    announce_game_changed(
        locked, was_finished=locked.status == GameStatus.FINISHED, change="confirmation"
    )


def accept_hand(
    *,
    game: Game | int,
    number: int,
    by: Actor,
    seat: Any,
    expected: Collection[Tag] | None = None,
) -> Game:
    """The player at ``seat`` (of another side than who entered it) accepts hand ``number``: it
    counts from now on. ``expected``: the validators the accepting phone read (the hand's ETag),
    so that nobody accepts a version they did not see. A rejected hand must be corrected first;
    accepting an accepted hand again changes nothing."""
    with transaction.atomic():
        locked, hand, name = _answering(game, number, by, seat, expected)
        if hand.acceptance == Acceptance.ACCEPTED:
            return locked
        if hand.acceptance == Acceptance.REJECTED:
            raise Conflict("number", "rejected", number=number)
        _answer(locked, hand, by, action=AuditAction.ACCEPT_HAND, seat=seat, name=name)
    return locked


def reject_hand(
    *,
    game: Game | int,
    number: int,
    by: Actor,
    seat: Any,
    reason: str,
    expected: Collection[Tag] | None = None,
) -> Game:
    """The player at ``seat`` rejects pending hand ``number``, saying why: it goes back to be
    corrected (a correction makes it pending again). An accepted hand is no longer rejected
    (correct it instead); rejecting a rejected hand again changes nothing."""
    if not isinstance(reason, str) or not reason.strip():
        raise violation("reason", "required")
    with transaction.atomic():
        locked, hand, name = _answering(game, number, by, seat, expected)
        if hand.acceptance == Acceptance.REJECTED:
            return locked
        if hand.acceptance == Acceptance.ACCEPTED:
            raise Conflict("number", "accepted", number=number)
        _answer(
            locked,
            hand,
            by,
            action=AuditAction.REJECT_HAND,
            seat=seat,
            name=name,
            reason=reason.strip(),
        )
    return locked
