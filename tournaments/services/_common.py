"""What every competition service shares: the manager check, the audit event and the one-problem
refusal. Private to ``tournaments.services``; nothing here writes anything but the event row.
"""

from __future__ import annotations

from typing import Any

from scoring.models import Club
from scoring.rules import RuleViolation
from scoring.rules.base import Problems
from scoring.services import MANAGERS, Actor, authorize_club
from tournaments.models import Competition, CompetitionEvent, Round

#: ``Game.context`` of the games played at a competition's tables.
GAME_CONTEXT = "competition"


def _event(
    competition: Competition,
    by: Actor,
    action: str,
    *,
    round_: Round | None = None,
    reason: str = "",
    **data: Any,
) -> None:
    CompetitionEvent.objects.create(
        competition=competition,
        round=round_,
        action=action,
        actor=by.user,
        reason=reason,
        data=data,
    )


def _manager(by: Actor, club: Club) -> None:
    authorize_club(by, club, MANAGERS)


def violation(field: str, code: str, **params: Any) -> RuleViolation:
    problems = Problems()
    problems.add(field, code, **params)
    return RuleViolation(problems.items)
