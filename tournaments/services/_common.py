"""What every competition service shares: the manager check and the audit event, and the context
of the games they start. Private to ``tournaments.services``; nothing here writes anything but
the event row. Refusals naming one field are ``scoring.services.violation``, as in the scoring
services.
"""

from __future__ import annotations

from typing import Any

from scoring.models import MANAGERS, Club
from scoring.services import Actor, Locked, authorize_club
from tournaments.models import Competition, CompetitionEvent, Round

#: ``Game.context`` of the games played at a competition's tables.
GAME_CONTEXT = "competition"

#: The only writes a final competition accepts (``competitions.finalize_competition``...).
WHILE_FINAL = {"finalize", "reopen"}


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

    Every write of a competition records its event, so this is also where a final competition
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


def require_manager(by: Actor, club: Club) -> None:
    """Raise ``NotAllowed`` unless the actor owns or organises the club (or is the system)."""
    authorize_club(by, club, MANAGERS)
