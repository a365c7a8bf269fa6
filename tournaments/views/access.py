"""How a request reaches a competition, a round and its tables, and who may.

Organizer pages (``organizer_or_404``): members of the club read them, owners and organizers
act; people outside the club get 403 for a public competition and 404 for a private one. Public
pages (``public_or_404``) need no login when the competition is public; otherwise they answer
404 to anyone outside the club. A service's ``NotAllowed`` becomes a 403 (``call_service``, from ``scoring.views.access``).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404

from scoring import access
from scoring.models import Seat
from scoring.selectors import role_of
from tournaments.models import Bye, Competition, Entry, Round, Table, TableSeat


def load_competition(request, club_slug: str, slug: str) -> tuple[Competition, str | None]:
    """The competition and the requester's role in its club (cached on the request, so that
    an ETag function and its view share the queries)."""
    cache = request.__dict__.setdefault("_competitions", {})
    key = (club_slug, slug)
    if key not in cache:
        competition = get_object_or_404(
            Competition.objects.select_related("club"), club__slug=club_slug, slug=slug
        )
        cache[key] = (competition, role_of(request.user, competition.club))
    return cache[key]


def organizer_or_404(request, club_slug: str, slug: str, *, manage: bool = False):
    """Members read the organizer pages; ``manage`` needs an owner or organizer (403). People
    outside the club get 403 for a public competition and 404 for a private one."""
    competition, role = load_competition(request, club_slug, slug)
    if role is None:
        if competition.public:
            raise PermissionDenied
        raise Http404
    if manage and not access.is_manager(role):
        raise PermissionDenied
    return competition, role


def public_or_404(request, club_slug: str, slug: str):
    competition, role = load_competition(request, club_slug, slug)
    if not competition.public and role is None:
        raise Http404
    return competition, role


def round_or_404(competition: Competition, number: int) -> Round:
    round_ = get_object_or_404(Round, competition=competition, number=number)
    round_.competition = competition
    return round_


def round_tables(round_: Round) -> tuple[list[Table], list[Entry]]:
    """A round's tables (seats, game and the game's seats loaded) in number order, and the
    entries with a bye: what every page showing a round reads."""
    tables = list(
        round_.tables.select_related("game")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=TableSeat.objects.select_related(
                    "entry__player", "entry__partner"
                ).order_by("position"),
            ),
            Prefetch(
                "game__seats", queryset=Seat.objects.select_related("player").order_by("index")
            ),
        )
        .order_by("number")
    )
    byes = [
        b.entry
        for b in Bye.objects.filter(round=round_).select_related("entry__player", "entry__partner")
    ]
    return tables, byes
