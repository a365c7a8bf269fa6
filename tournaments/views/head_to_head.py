"""Who beat whom, at ``/p/<club>/<competition>/head-to-head/``: the matrix alone for the
competition pages, which load it when it scrolls into view (htmx, ``{% head_to_head %}``), or a
whole page opened directly (a link, without script). It answers as the public pages do (a
private competition's is a 404 outside its club) and is computed once per standings version:
the games it reads change the standings' version too."""

from __future__ import annotations

from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from tournaments.presenters.head_to_head import head_to_head_matrix
from tournaments.selectors.head_to_head import head_to_head_of
from tournaments.views.access import public_or_404
from tournaments.views.standings_cache import render_once, snapshot_stamp

PARTIAL = "tournaments/partials/head_to_head.html"


def head_to_head_data(request, competition) -> dict:
    """The head-to-head at the standings' version, from the cache when another visitor asked."""
    version, _computed_at = snapshot_stamp(request, competition)
    return render_once(
        f"head-to-head:{competition.pk}:{version}", lambda: head_to_head_of(competition)
    )


@require_safe
@cache_control(private=True, no_cache=True)
@vary_on_headers("HX-Request")
def head_to_head_page(request, club_slug: str, slug: str):
    competition, role = public_or_404(request, club_slug, slug)
    context = {
        "club": competition.club,
        "competition": competition,
        "role": role,
        "matrix": head_to_head_matrix(head_to_head_data(request, competition)),
        # The game pages open for members, and for anyone when the competition is public.
        "links": role is not None or competition.public,
    }
    if request.htmx:
        return render(request, PARTIAL, context)
    context["section"] = render_to_string(PARTIAL, context, request=request)
    return render(request, "tournaments/head_to_head.html", context)
