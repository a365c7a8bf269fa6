"""What team competitions show on the competitions' pages (``tournaments.extensions``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _


def teams_button(competition, manager: bool) -> list[tuple[str, str]]:
    """The competition's teams, when it is played between sides, a Swiss of teams, or at
    tables where teams may meet mixed (rotation, club nights)."""
    if not (competition.two_sided or competition.format in ("swiss", "rotation", "club_night")):
        return []
    url = reverse("competition-teams", args=[competition.club.slug, competition.slug])
    return [(_("Teams"), url)]
