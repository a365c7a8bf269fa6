"""What circuits show on the competitions' pages (``tournaments.extensions``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _


def club_link(club, role) -> list[tuple[str, str]]:
    """The club's circuits, for its members."""
    return [(_("Circuits"), reverse("club-circuits", args=[club.slug]))] if role else []
