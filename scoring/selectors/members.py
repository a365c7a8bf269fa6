"""Reads of a club's people: the members page's rows, and a person's own games."""

from __future__ import annotations

from typing import Any

from rest_framework.authtoken.models import Token

from scoring.models import (
    AuditAction,
    AuditEvent,
    ClaimStatus,
    Club,
    Game,
    Invitation,
    InvitationStatus,
    Membership,
    Player,
    PlayerClaim,
)

#: The club's trail on the members page: what changed its people (and its settings).
MEMBER_ACTIONS = [
    AuditAction.CREATE_CLUB,
    AuditAction.UPDATE_CLUB,
    AuditAction.INVITE,
    AuditAction.REVOKE_INVITATION,
    AuditAction.ACCEPT_INVITATION,
    AuditAction.DECLINE_INVITATION,
    AuditAction.CHANGE_ROLE,
    AuditAction.REMOVE_MEMBER,
    AuditAction.CLAIM_PLAYER,
    AuditAction.APPROVE_CLAIM,
    AuditAction.REJECT_CLAIM,
]


def members_page(club: Club) -> dict[str, Any]:
    """The members (with their users), the players linked to accounts by user id, the pending
    invitations and claims, and the last 50 events of the club's people. Five queries."""
    return {
        "members": list(
            Membership.objects.filter(club=club).select_related("user").order_by("user__username")
        ),
        "linked": {p.user_id: p for p in Player.objects.filter(club=club, user__isnull=False)},
        "invitations": list(
            Invitation.objects.filter(club=club, status=InvitationStatus.PENDING).select_related(
                "player", "created_by"
            )
        ),
        "claims": list(
            PlayerClaim.objects.filter(
                player__club=club, status=ClaimStatus.PENDING
            ).select_related("player", "user")
        ),
        "events": list(
            AuditEvent.objects.filter(club=club, action__in=MEMBER_ACTIONS)
            .select_related("actor")
            .order_by("-at", "-id")[:50]
        ),
    }


def games_of_user(user) -> tuple[list[Game], list[Player]]:
    """The last 100 games of the players linked to ``user`` in every club, and those players."""
    games = list(
        Game.objects.filter(seats__player__user=user)
        .select_related("club")
        .prefetch_related("seats__player")
        .distinct()[:100]
    )
    players = list(Player.objects.filter(user=user).select_related("club"))
    return games, players


def pending_invitations(club: Club):
    """The club's invitations still waiting for an answer (a queryset to page)."""
    return Invitation.objects.filter(club=club, status=InvitationStatus.PENDING)


def has_api_token(user) -> bool:
    """Whether ``user`` has an API token now (its key is never shown again)."""
    return Token.objects.filter(user=user).exists()
