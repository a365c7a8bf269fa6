"""What team competitions show on the competitions' pages (``tournaments.extensions``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _


def teams_button(competition, manager: bool) -> list[tuple[str, str]]:
    """The competition's teams, when it is played between sides or a Swiss of teams."""
    if not (competition.two_sided or competition.format == "swiss"):
        return []
    url = reverse("competition-teams", args=[competition.club.slug, competition.slug])
    return [(_("Teams"), url)]
