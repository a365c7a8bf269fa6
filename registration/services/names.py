"""The registrant's player, and look-alike registrant names (``scoring.lookalike``).

Which player an entry names (``player_for``, ``docs/registration.md``): the one the organizer
named (``register(player=...)``, checked by ``named_player``); else the registrant's account's
own player in the club; else a player of the club of the same name with the same (confirmed)
address and no account; else a new player. A new one whose name a player of the club has
already is made under a free name ("Anna Rossi (2)") and shown to the organizers as a possible
duplicate of that player (``selectors.registrations_of``), whom they may merge it into: never
a second player of one name without a word.

A look-alike name (one that reads as a player's or another registrant's, without being it) is
refused (``refuse_look_alike_registrants``)."""

from __future__ import annotations

from django.db.models import Q

from registration.models import Registration, RegistrationStatus
from scoring import lookalike
from scoring import services as scoring
from scoring.models import Player
from scoring.services import violation
from tournaments.models import Competition

NAME_MAX = 80


def named_player(competition: Competition, player_id) -> Player:
    """The club's active player the organizer names for a registration, refused by name when
    it is not one or when it is registered or entered already (under the caller's lock)."""
    player = Player.objects.filter(club=competition.club_id, pk=player_id, active=True).first()
    if player is None:
        raise violation("player", "not_found", value=player_id)
    standing = Registration.objects.filter(competition=competition).exclude(
        status=RegistrationStatus.WITHDRAWN
    )
    if (
        standing.filter(Q(player=player) | Q(partner=player)).exists()
        or competition.entries.filter(Q(player=player) | Q(partner=player)).exists()
    ):
        raise violation("player", "duplicate", value=player.display_name)
    return player


def player_for(club, name: str, *, user=None, email: str = "") -> Player:
    """The player an entry names when the organizer named none (the module docstring)."""
    if user is not None:
        own = Player.objects.filter(club=club, user=user).first()
        if own is not None:
            return own
    if email:
        same = Player.objects.filter(
            club=club, display_name__iexact=name, email__iexact=email, user=None, active=True
        ).first()
        if same is not None:
            return same
    candidate, n = name, 1
    while Player.objects.filter(club=club, display_name__iexact=candidate).exists():
        n += 1
        suffix = f" ({n})"
        candidate = name[: NAME_MAX - len(suffix)] + suffix
    return scoring.new_player(club, candidate)


def refuse_look_alike_registrants(competition: Competition, **names: str) -> None:
    """``names``: the fields of the registration form (``name``, ``partner_name``) and their
    values; each is compared with the club's players and the registrations still standing."""
    standing = Registration.objects.filter(competition=competition).exclude(
        status=RegistrationStatus.WITHDRAWN
    )
    existing = [
        *Player.objects.filter(club=competition.club_id).values_list("display_name", flat=True),
        *(n for pair in standing.values_list("name", "partner_name") for n in pair if n),
    ]
    for field, name in names.items():
        if name:
            lookalike.refuse(field, name, existing, reason="registrant_name")
