"""Segnapunti as an installable app at the table (issue 10, point 6).

- ``manifest``: the web app manifest (name, colours, icons), in the visitor's language;
- ``service_worker``: ``/sw.js``, served from the site's root so that it may control every page;
  it keeps the static files and the last game pages a phone opened, so that a reload without
  network still shows the game and its outbox, and shows the Web Push notifications
  (``templates/scoring/sw.js`` is the template);
- ``favicon``: ``/favicon.ico`` (browsers ask for it whatever the page links to);
- ``board`` / ``board_live``: the big-type scoreboard for the middle of the table;
- ``rematch``: a new game with the same players and options, the first deal passed on.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_POST

from scoring import access, selectors, services
from scoring.models import GameStatus
from scoring.presenters.games import game_context
from scoring.rules.base import dealer_after
from scoring.views.access import attempt, game_or_404
from scoring.views.games import game_sections, live_etag

#: The files every page needs, kept by the service worker when it is installed.
SHELL = (
    "css/app.css",
    "css/competitions.css",
    "css/pwa.css",
    "js/common.js",
    "js/outbox.js",
    "js/hand_form.js",
    "js/live.js",
    "js/kept.js",
    "js/pwa.js",
    "js/undo.js",
    "js/share.js",
    "icons/icon-192.png",
    "django_htmx/htmx-2.min.js",
    "django_htmx/django-htmx.js",
)
#: Bumped when the service worker's way of caching changes (old caches are dropped).
SW_VERSION = "1"


@cache_control(max_age=3600)
def manifest(request):
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in (192, 512)
    ] + [
        {
            "src": static(f"icons/icon-maskable-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "maskable",
        }
        for size in (192, 512)
    ]
    body = {
        "name": "Segnapunti",
        "short_name": "Segnapunti",
        "description": _("Scores of card games at the table, for clubs, leagues and tournaments."),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#f9fafb",
        "theme_color": "#14532d",
        "icons": icons,
    }
    return HttpResponse(
        json.dumps(body, ensure_ascii=False), content_type="application/manifest+json"
    )


def _shell_urls() -> list[str]:
    """The shell's addresses; a file that is not there is left out (``cache.addAll`` fails the
    whole install on one missing file)."""
    urls = []
    for name in SHELL:
        if finders.find(name) is None:
            continue
        try:
            urls.append(static(name))
        except ValueError:  # not in a production build's manifest: not kept
            continue
    return urls


def static_prefix() -> str:
    """The absolute path under which static files are served (``/static/``)."""
    prefix = settings.STATIC_URL
    return prefix if prefix.startswith(("/", "http://", "https://")) else "/" + prefix


@cache_control(no_cache=True)
def service_worker(request):
    response = render(
        request,
        "scoring/sw.js",
        {
            "version": SW_VERSION,
            "shell": json.dumps(_shell_urls()),
            # The prefix of every static address: settings.STATIC_URL as the pages use it
            # (``static("")`` would ask a production build's manifest for a file named "").
            "static_prefix": json.dumps(static_prefix()),
            "icon": json.dumps(static("icons/icon-192.png")),
        },
        content_type="application/javascript",
    )
    response["Service-Worker-Allowed"] = "/"
    return response


@cache_control(max_age=86400)
def favicon(request):
    path = finders.find("icons/favicon.ico")
    if path is None:  # pragma: no cover - the file is part of the repository
        raise Http404
    return FileResponse(open(path, "rb"), content_type="image/x-icon")


def board(request, game_id: int):
    """Names and totals in huge type, refreshed every few seconds: a phone or tablet propped in
    the middle of the table."""
    game, role = game_or_404(request, game_id)
    context = _board_context(request, game, role) | {"sections": game_sections(request, game, role)}
    return render(request, "scoring/board.html", context)


def _board_etag(request, game_id: int) -> str | None:
    return live_etag(request, game_id, part="b")


@condition(etag_func=_board_etag)
def board_live(request, game_id: int):
    """The scoreboard's totals, fetched at each event of the game's stream (polled while it is
    closed): 304 without a render while nothing this reader sees changed."""
    game, role = game_or_404(request, game_id)
    return render(request, "scoring/partials/board.html", _board_context(request, game, role))


def _board_context(request, game, role) -> dict:
    context = game_context(request, game, role)
    totals = context["totals"]
    if totals and game.hand_count:
        best = min if game.rules.lowest_wins else max
        lead = best(t["total"] for t in totals)
        for t in totals:
            t["leader"] = t["total"] == lead
    return context


@require_POST
@login_required
def rematch(request, game_id: int):
    """A finished game's "rematch": the same players in the same seats, the same options; the
    new game's first hand is offered to the seat after the one that dealt first."""
    game, role = game_or_404(request, game_id)
    if not access.writes_hands(role):
        raise PermissionDenied
    if game.status != GameStatus.FINISHED:
        messages.error(request, _("Only a finished game can be played again."))
        return redirect("game", game_id=game.pk)
    new = attempt(request, services.rematch, game=game, by=access.actor_for(request))
    if new is None:  # refused (a competition's game): said above the game
        return redirect("game", game_id=game.pk)
    first = selectors.first_dealer(game)
    url = reverse("game", args=[new.pk])
    if isinstance(first, int):
        url += f"?dealer={dealer_after(first, game.n)}"
    return redirect(url)
