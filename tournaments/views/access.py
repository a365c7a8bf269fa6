"""How a request reaches a competition and a round, and who may; how a page shown again calls a
service.

Organizer pages (``organizer_or_404``): members of the club read them, owners and organizers
act; people outside the club get 403 for a public competition and 404 for a private one. Public
pages (``public_or_404``) need no login when the competition is public; otherwise they answer
404 to anyone outside the club. A service's ``NotAllowed`` becomes a 403 (``call_service``,
``submit`` and ``attempt`` of ``scoring.views.access``, and ``attempt_into`` here, which keeps a
refusal for the page that shows the form again).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from scoring import access
from scoring.messages import message
from scoring.rules import RuleViolation
from scoring.selectors import role_of
from scoring.views.access import call_service, speak_club_language
from tournaments.extensions import COMPETITION_RELATED
from tournaments.models import Competition, Round


def load_competition(request, club_slug: str, slug: str) -> tuple[Competition, str | None]:
    """The competition and the requester's role in its club (cached on the request, so that
    an ETag function and its view share the queries)."""
    cache = request.__dict__.setdefault("_competitions", {})
    key = (club_slug, slug)
    if key not in cache:
        # Its registration settings in the same query: the public pages link the form while
        # registration is open (issue 24) at no extra query.
        competition = get_object_or_404(
            Competition.objects.select_related("club", *COMPETITION_RELATED),
            club__slug=club_slug,
            slug=slug,
        )
        speak_club_language(request, competition.club)
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


def attempt_into(errors: dict[Any, list[str]], key: Any, service, /, **kwargs: Any) -> Any:
    """``service(**kwargs)`` for a page shown again with its refusals where the action was
    asked (``scoring.views.access.attempt`` puts them above the next page): a ``RuleViolation``
    it raises becomes its sentences in ``errors[key]`` and None is returned; a ``NotAllowed`` is
    a 403."""
    try:
        return call_service(service, **kwargs)
    except RuleViolation as violation:
        errors[key] = [message(p) for p in violation.problems]
        return None
