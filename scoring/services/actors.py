"""Who is writing, and the refusals that are not rule problems.

An :class:`Actor` says who makes a change and through which door; ``authorize_club`` and the
role groups decide whether it may. ``violation`` builds the one-field
:class:`~scoring.rules.RuleViolation` the services raise for a problem the player can fix.
Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Subquery

from scoring.models import HAND_WRITERS, Club, Membership, Via
from scoring.rules import Problem, RuleViolation


@dataclass(frozen=True)
class Actor:
    """Who makes a change and through which door. ``client`` scopes idempotency keys: a user
    account, or the table link of one game for players without an account."""

    user: Any = None
    via: str = Via.PAGE
    client: str = ""
    #: The one game a table link opens, for players without an account.
    table_game: int | None = None
    #: Management commands and data migrations act for the club itself.
    trusted: bool = False

    @classmethod
    def for_user(cls, user, via: str = Via.PAGE) -> Actor:
        return cls(user=user, via=via, client=f"user:{user.pk}")

    @classmethod
    def for_table(cls, game_id: int, via: str = Via.TABLE) -> Actor:
        return cls(user=None, via=via, client=f"table:{game_id}", table_game=game_id)

    @classmethod
    def system(cls, via: str = Via.IMPORT) -> Actor:
        return cls(user=None, via=via, client="system", trusted=True)


class NotAllowed(Exception):
    """The actor may not make this change (HTTP 403, or 404 where it may not even read)."""


class IdempotencyConflict(Exception):
    """The idempotency key was already used for a different request (HTTP 422)."""


class VersionConflict(Exception):
    """The hand changed since the client read it (HTTP 412). ``reason`` words another thing
    than a hand (``"round"``: a competition's round)."""

    def __init__(self, number: int, current: int, reason: str | None = None):
        self.number, self.current, self.reason = number, current, reason
        super().__init__(f"{reason or 'hand'} {number} is at version {current}")


class Conflict(RuleViolation):
    """A refusal because of the game's state, not the request's values (HTTP 409): a
    RuleViolation, so that a page shows it where its form is."""

    def __init__(self, field: str, code: str, **params: Any):
        super().__init__([Problem(field, code, params)])


class AlreadyEntered(Conflict):
    """The phone entered hand ``number`` but that hand is already in the game (entered from
    another phone in the meantime): HTTP 409, code ``already_entered``."""

    def __init__(self, number: int, hand_count: int):
        self.number, self.hand_count = number, hand_count
        super().__init__("number", "already_entered", number=number, hand_count=hand_count)


class Locked(Conflict):
    """The game (or the competition) is locked: nothing changes until a manager of the club
    reopens it (HTTP 409). A RuleViolation with one ``locked`` problem whose ``reason`` and words
    say why and who can reopen it, so that every page that shows a service's refusal where its
    form is shows this one there too."""

    def __init__(self, field: str, reason: str, **params: Any):
        RuleViolation.__init__(self, [Problem(field, "locked", {"reason": reason, **params})])


class HandNotFound(Exception):
    def __init__(self, number: int):
        self.number = number
        super().__init__(f"no hand {number}")


def _role_subquery(user):
    return Subquery(
        Membership.objects.filter(
            club=OuterRef("club_id"), user_id=getattr(user, "pk", None)
        ).values("role")[:1]
    )


def _authorize(
    by: Actor, *, role: str | None, roles: Sequence[str], table_game: int | None = None
) -> None:
    """Pass if ``by`` is trusted, holds one of ``roles``, or holds the table link of
    ``table_game``; raise NotAllowed otherwise."""
    if by.trusted or role in roles or (table_game is not None and by.table_game == table_game):
        return
    raise NotAllowed()


def authorize_club(by: Actor, club: Club, roles: Sequence[str] = HAND_WRITERS) -> None:
    """Raise NotAllowed unless ``by`` holds one of ``roles`` in ``club`` (one query)."""
    role = None
    if by.user is not None and not by.trusted:
        role = (
            Membership.objects.filter(club=club, user=by.user)
            .values_list("role", flat=True)
            .first()
        )
    _authorize(by, role=role, roles=roles)


def violation(field: str, code: str, **params: Any) -> RuleViolation:
    return RuleViolation([Problem(field, code, params)])
