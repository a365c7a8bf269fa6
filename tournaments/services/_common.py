"""What every competition service shares: the manager check, the row lock (and the transaction
of a write of one round, ``locked_round``), the audit event, and the context of the games they
start. Private to ``tournaments.services``; nothing here writes anything but the event row.
Refusals naming one field are ``scoring.services.violation``, as in the scoring services.

Every write follows ``scoring.services._game_row._locked`` and ``record_hand``: inside one
``transaction.atomic()`` it ``lock``s its competition (and round), re-checks what it depends on
(a round's status, an entry's, a table's) on the rows read under the lock, decides, writes, and
records its event. What was read before the lock never decides: two organizers pressing
"Publish" together must not both see a draft.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction

from scoring.etags import ROUND, Tag
from scoring.models import MANAGERS, Club, Game
from scoring.services import Actor, Locked, VersionConflict, authorize_club, violation
from tournaments import live, selectors
from tournaments.models import Competition, CompetitionEvent, Round

#: ``Game.context`` of the games played at a competition's tables.
GAME_CONTEXT = "competition"

#: The only writes a final competition accepts (``competitions.finalize_competition``...); the
#: desk's books (``fees``) are not results and stay open.
WHILE_FINAL = {"finalize", "reopen", "fee_set", "fee_paid", "fee_waived", "fee_undone"}


def record_event(
    competition: Competition,
    by: Actor,
    action: str,
    *,
    round_: Round | None = None,
    reason: str = "",
    **data: Any,
) -> None:
    """Append the competition's audit event for a write (call it inside the write's
    transaction, so that the event and the change commit together).

    Every write of a competition records its event, so this is also where its live screens
    are told (``tournaments.live``, after commit), and where a final competition
    refuses them all (``Locked``, HTTP 409), read from the database inside the transaction: the
    write's changes roll back with it."""
    if (
        action not in WHILE_FINAL
        and Competition.objects.filter(pk=competition.pk, finalized_at__isnull=False).exists()
    ):
        raise Locked("competition", "finalized", competition=competition.name)
    CompetitionEvent.objects.create(
        competition=competition,
        round=round_,
        action=action,
        actor=by.user,
        reason=reason,
        data=data,
    )
    live.announce_change(competition, action, round_)


def lock(target: Competition | Round) -> Competition:
    """Lock the competition's row (and then the round's, given a round) for the rest of the
    transaction, and re-read them in place; return the competition (``round_.competition``).

    Always the competition first, then the round: every competition write takes them in this
    order, so two writes never hold one each while waiting for the other, and writes that change
    competition-wide state (round numbers, entries, every draft of a rotation) are serialised
    with the writes of any one round. On SQLite the IMMEDIATE transaction already holds the
    database's one write lock; the re-read is what matters there."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock() belongs inside the write's transaction.atomic()")
    round_ = target if isinstance(target, Round) else None
    competition = round_.competition if round_ is not None else target
    competition.refresh_from_db(
        from_queryset=Competition.objects.select_for_update(
            no_key=True, of=("self",)
        ).select_related("club")
    )
    if round_ is not None:
        round_.refresh_from_db(from_queryset=Round.objects.select_for_update(no_key=True))
        round_.competition = competition
    return competition


def lock_round_games(round_: Round) -> list[Game]:
    """Lock the games of ``round_``'s tables (after the competition and the round: ``lock``), in
    id order, for the rest of the transaction; return them as read under the lock."""
    return list(
        Game.objects.select_for_update(no_key=True, of=("self",))
        .filter(pk__in=round_.tables.exclude(game=None).values("game_id"))
        .order_by("pk")
    )


@contextmanager
def locked_round(round_: Round, status: str, reason: str) -> Iterator[Competition]:
    """The transaction of a write of ``round_``: the competition and the round locked and
    re-read (``lock``), then the write refused unless the round, as read under the lock, is
    ``status`` (``round: not_allowed`` for ``reason``). Yields the competition."""
    with transaction.atomic():
        competition = lock(round_)
        if round_.status != status:
            raise violation("round", "not_allowed", reason=reason)
        yield competition


def required_reason(reason: Any) -> str:
    """The reason a write must give, its ends stripped (``reason: required`` when blank)."""
    if not isinstance(reason, str) or not reason.strip():
        raise violation("reason", "required")
    return reason.strip()


def require_manager(by: Actor, club: Club) -> None:
    """Raise ``NotAllowed`` unless the actor owns or organises the club (or is the system)."""
    authorize_club(by, club, MANAGERS)


def check_round_expected(round_: Round, expected: Collection[Tag]) -> None:
    """Refuse a write of ``round_`` unless ``expected`` names it at its current version
    (under the write's lock): 404 when the round named is deleted, else 412."""
    current = selectors.round_validator(round_.pk)
    if current in expected:
        return
    named = {t.id for t in expected if t.kind == ROUND} - {round_.pk}
    gone = Round.with_deleted.filter(
        competition_id=round_.competition_id, pk__in=named, deleted_at__isnull=False
    )
    if gone.exists():
        raise Round.DoesNotExist("the round named by If-Match is deleted")
    raise VersionConflict(round_.number, current.version, reason="round")
