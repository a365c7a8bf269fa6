"""Look-alike registrant names (``scoring.lookalike``): a registrant named as a player of the
club or another registrant reads, without being that name. One call from
``services.registration.register``."""

from __future__ import annotations

from registration.models import Registration, RegistrationStatus
from scoring import lookalike
from scoring.models import Player
from tournaments.models import Competition


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
