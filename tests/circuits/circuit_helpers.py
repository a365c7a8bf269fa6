"""Set-up of the circuit tests (services, API, pages, browser): competitions whose final
standings are given by the organizer's adjustments, made and finalized through the services."""

from __future__ import annotations

from scoring.services import Actor
from tournaments import services
from tournaments.models import Competition


def competition_with_results(
    club, user, name: str, points: dict[str, int], *, final: bool = True
) -> Competition:
    """A tournament of ``club`` whose entrants (players named as the keys, made when new) end
    with the given points; declared final unless ``final`` is False."""
    by = Actor.for_user(user)
    competition = services.create_competition(
        club=club, by=by, name=name, rulesets=["terziglio"], scheme="placement"
    )
    for player, value in points.items():
        entry = services.add_entry(competition=competition, player=player, by=by)
        if value:
            services.adjust(
                competition=competition, entry=entry, points=value, reason="result", by=by
            )
    if final:
        services.finalize_competition(competition=competition, by=by)
    return Competition.objects.get(pk=competition.pk)
