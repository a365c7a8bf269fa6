"""What the competition API's views share: who may read, who may write, reading a request's
body (``read_body``), the scheduler's refusals, and the schema pieces.

Who may do what: anyone reads a public competition, members of the club read all of its
competitions; writes need the club's owner or an organizer (the services check it again). A
caller who may not read a competition gets a 404 from the lookups here
(``readable_competition``, ``readable_round``), before any service runs; a reader who may not
write gets a ``NotAllowed`` (``managed_competition``, ``managed_round``), which
``scoring.api.errors`` answers with a 403 and the view's ``not_allowed_message``.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import NotFound
from rest_framework.views import APIView

from scoring import access
from scoring.api.common import ERRORS
from scoring.api.idempotency import Idempotent
from scoring.models import MANAGERS, Club, Via
from scoring.selectors import role_of
from scoring.services import NotAllowed
from tournaments.models import Competition, Round, RoundStatus

# The scheduler's refusals are the draw service's (kept here under their old names).
from tournaments.services.draw import SchedulerRefused, scheduler_refusals  # noqa: F401

#: 409: the competition is final (``services.finalize_competition``) or a game is locked.
WRITE_ERRORS = {400: ERRORS, 403: ERRORS, 404: ERRORS, 409: ERRORS}
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag of the standings last read: 304 while they have not changed.",
)


class CompetitionView(Idempotent, APIView):
    """A view of the competition API: refused writes say who may make them."""

    not_allowed_message = _(
        "Only the owner or an organizer of the club may change its competitions."
    )


def read_body(serializer_class, request, **kwargs) -> dict:
    """The request's body as ``serializer_class`` (an ``inputs.StrictInput``) reads it; a bad
    body is refused, naming every bad key (a ``RuleViolation``: 400)."""
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def actor(request):
    return access.actor_for(request, via=Via.API)


def may_manage(role: str | None) -> bool:
    return role in MANAGERS


def ensure_manager(role: str | None) -> None:
    """A write the caller may not make is refused before its body is even read."""
    if not may_manage(role):
        raise NotAllowed()


def club_of(request, slug: str) -> tuple[Club, str | None, bool]:
    """The club, the caller's role, and whether the caller may see the club's competitions."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise NotFound()
    role = role_of(request.user, club)
    visible = (
        role is not None
        or club.results_public
        or Competition.objects.filter(club=club, public=True).exists()
    )
    return club, role, visible


def readable_competition(request, competition_id: int) -> tuple[Competition, str | None]:
    """The competition and the caller's role; 404 unless the caller may read it (members: all;
    others: public ones)."""
    competition = Competition.objects.select_related("club").filter(pk=competition_id).first()
    if competition is None:
        raise NotFound()
    role = role_of(request.user, competition.club)
    if role is None and not competition.public:
        raise NotFound()
    return competition, role


def may_see_drafts(role: str | None) -> bool:
    """A draft round is the club's work in progress: its members see it (as on the organizer
    pages); for anyone else it does not exist yet, as its public page says with a 404."""
    return role is not None


def readable_round(request, competition_id: int, number: int):
    """(competition, role, round); 404 unless the round exists and may be read (a draft round
    only by members of the club: its seating is not published yet)."""
    competition, role = readable_competition(request, competition_id)
    round_ = (
        Round.objects.select_related("competition__club")
        .filter(competition=competition, number=number)
        .first()
    )
    if round_ is None or (round_.status == RoundStatus.DRAFT and not may_see_drafts(role)):
        raise NotFound()
    return competition, role, round_


def managed_competition(request, competition_id: int) -> tuple[Competition, str | None]:
    """``readable_competition`` for a write: a reader who may not make it gets a 403."""
    competition, role = readable_competition(request, competition_id)
    ensure_manager(role)
    return competition, role


def managed_round(request, competition_id: int, number: int):
    """``readable_round`` for a write: a reader who may not make it gets a 403."""
    competition, role, round_ = readable_round(request, competition_id, number)
    ensure_manager(role)
    return competition, role, round_
