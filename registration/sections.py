"""What registration shows on the competitions' pages (``tournaments.extensions``): the
"Register" button of the public page, the organizer's "Registration" button and the round
page's self check-in."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from registration import selectors
from tournaments.models import RoundStatus


def public_button(competition) -> list[tuple[str, str]]:
    """ "Register" while registration is open or about to open. Its settings came with the
    competition (``COMPETITION_RELATED``): no query."""
    try:
        found = competition.registration_settings
    except ObjectDoesNotExist:
        return []
    if found.state() == "closed":
        return []
    url = reverse("registration-register", args=[competition.club.slug, competition.slug])
    return [(_("Register"), url)]


def settings_button(competition, manager: bool) -> list[tuple[str, str]]:
    """The organizer's registration page, for those who manage the competition."""
    if not manager:
        return []
    url = reverse("competition-registration", args=[competition.club.slug, competition.slug])
    return [(_("Registration"), url)]


def round_section(request, round_) -> str:
    """Self check-in of a round not yet drawn (issue 24): who is here and who is missing."""
    if round_.status != RoundStatus.DRAFT or not hasattr(round_, "check_in_window"):
        return ""
    return render_to_string(
        "registration/partials/self_check_in.html",
        {"c": selectors.check_in_state(round_), "round": round_},
        request=request,
    )
