"""The results picture's addresses (``tournaments.pictures``): the standings now (final once
declared) at ``/p/<club>/<competition>/picture/<shape>.<format>``, and after a closed round at
``…/rounds/<n>/picture/<shape>.<format>``. They answer as the competition's public pages do: a
private competition's picture is a 404 to anyone outside its club, and so is a round not closed.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpResponse
from django.utils.csp import CSP
from django.views.decorators.http import require_safe

from tournaments import pictures
from tournaments.models import Competition, RoundStatus
from tournaments.views.access import public_or_404, round_or_404
from tournaments.views.standings_cache import snapshot_stamp

#: How long a browser or a chat's preview fetcher may keep a public competition's picture.
MAX_AGE = 300


@require_safe
def results_picture(request, club_slug: str, slug: str, shape: str, fmt: str):
    competition, _role = public_or_404(request, club_slug, slug)
    return _answer(request, competition, None, shape, fmt)


@require_safe
def round_picture(request, club_slug: str, slug: str, number: int, shape: str, fmt: str):
    competition, _role = public_or_404(request, club_slug, slug)
    if round_or_404(competition, number).status != RoundStatus.CLOSED:
        raise Http404
    return _answer(request, competition, number, shape, fmt)


def _answer(request, competition: Competition, number: int | None, shape: str, fmt: str):
    if shape not in pictures.SHAPES or fmt not in pictures.FORMATS:
        raise Http404
    version, _computed_at = snapshot_stamp(request, competition)
    body = pictures.picture(competition, number=number, shape=shape, fmt=fmt, version=version)
    response = HttpResponse(body, content_type=pictures.FORMATS[fmt])
    # A private competition's picture is its members' only: no shared cache keeps it.
    scope = "public" if competition.public else "private"
    response["Cache-Control"] = f"{scope}, max-age={MAX_AGE}"
    if fmt == "png":
        # A PNG runs nothing; opened on its own, the browser's image viewer styles itself
        # inline, which the pages' policy would block (console errors, an uncentred picture):
        # the pages' policy with inline styles allowed. The SVG keeps the pages' policy as it
        # is: an SVG document could hold a script or a style.
        response._csp_config = settings.SECURE_CSP | {"style-src": [CSP.SELF, CSP.UNSAFE_INLINE]}
    return response
