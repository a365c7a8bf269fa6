"""Clubs, their members and their players: creating a club with its owner, setting a member's
role, adding a player (a name unique in the club, case-insensitively) and (de)activating one.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from scoring.models import MANAGERS, Club, Membership, Player, Role
from scoring.services.actors import Actor, authorize_club, violation


def create_club(
    *,
    name: str,
    slug: str,
    owner,
    language: str = "it",
    results_public: bool = False,
    time_zone: str | None = None,
) -> Club:
    with transaction.atomic():
        club = Club.objects.create(
            name=name,
            slug=slug,
            language=language,
            results_public=results_public,
            **({"time_zone": time_zone} if time_zone else {}),
        )
        Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    return club


def set_membership(*, club: Club, user, role: str) -> Membership:
    membership, _ = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership


def add_player(*, club: Club, display_name: str, by: Actor, user=None) -> Player:
    """A new player of the club. Raises RuleViolation if the name is blank or already taken."""
    authorize_club(by, club)
    return new_player(club, display_name, user)


def new_player(club: Club, display_name: str, user=None) -> Player:
    """A new player of the club, for a service that has already authorised its caller (a game
    started with a new name, a competition entry typed in). Refuses a blank or taken name."""
    name = " ".join(str(display_name).split())
    if not name:
        raise violation("display_name", "required")
    if len(name) > 80:
        raise violation("display_name", "range", min=1, max=80, value=len(name))
    if club.players.filter(display_name__iexact=name).exists():
        raise violation("display_name", "duplicate", value=name)
    try:
        with transaction.atomic():
            return Player.objects.create(club=club, display_name=name, user=user)
    except IntegrityError:  # a concurrent request created the same name
        raise violation("display_name", "duplicate", value=name) from None


def set_player_active(*, player: Player, active: bool, by: Actor) -> Player:
    authorize_club(by, player.club, MANAGERS)
    Player.objects.filter(pk=player.pk).update(active=active)
    player.active = active
    return player
