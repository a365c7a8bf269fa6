"""The competitions block of a club page: the one place where the scoring app's pages show
competitions (registered in ``scoring.extensions.CLUB_PAGE_SECTIONS`` by the app config).
"""

from __future__ import annotations

from django.template.loader import render_to_string

from tournaments import selectors
from tournaments.extensions import CLUB_LINKS


def club_section(request, club, role) -> str:
    """The competitions block of a club page (registered in ``CLUB_PAGE_SECTIONS``)."""
    competitions = selectors.club_competitions(club, public_only=role is None)
    return render_to_string(
        "tournaments/partials/club_section.html",
        {
            "club": club,
            "role": role,
            "competitions": list(competitions[:20]),
            "club_links": [link for hook in CLUB_LINKS for link in hook(club, role)],
        },
        request=request,
    )
