"""The standings table of the public pages, rendered once per snapshot version and language and
served from the cache to every spectator (docs/scaling.md "Spectators and players together").

A results night has hundreds of phones polling the standings; when a hand changes them, every
phone's next poll is a full answer. Rendering the table (a row, a few includes and a dozen
localized figures per entry) is most of a full answer's cost, so it is done once: the HTML of
``tournaments/partials/standings.html`` is kept in Django's cache (Redis in production, so that
every web process shares it; each process's memory without Redis) under a key made of

* the competition and its snapshot's version and time: a hand that changes the standings bumps
  the version (``services.store_standings``), so the next request asks for a key nobody has
  rendered yet and gets the new table at once; nothing is ever deleted, old keys expire
  (``LIFETIME``). The time keeps a database restored or made anew (its versions counting from
  1 again) from meeting a table the cache kept from before;
* the language (labels, figures' decimal separator) and ``big`` (the projector's size);
* a digest of the competition's and club's fields the table shows (its kind, format, scheme,
  best-N, minimum attendance, whether the club's player pages are public) and of the templates'
  own source, so that a changed setting or a deployed template never meets an old copy.

What stays out: the table is rendered **without the request** (no context processors), so no
CSRF token, user, message or nonce can get into it (the CSP uses none: config/settings.py); the
page around it, with its forms and their tokens, is rendered for each request as before. Only
visitors with no role in the club use the cache: for them the table is the same for everyone.
A member's table links every player's page, and is rendered for them alone.

After a change, the first request for the new key renders it; others that ask meanwhile wait
for it (``WAIT`` at most, then render it themselves) instead of all rendering it at once.

The whole standings page, opened directly by a spectator (no account, no message waiting), is
kept the same way (``page_html``): its header and forms are the same for every such visitor but
for the CSRF token, which is rendered as a placeholder (``TOKEN_SLOT``) and replaced by the
visitor's own token on the way out. Its key adds the page's address (its ``next`` links) and a
digest of every template of the site (a deployed template never meets an old page).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.middleware.csrf import get_token
from django.template.loader import get_template, render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from scoring.views.access import fingerprint
from tournaments import selectors, services
from tournaments.models import Competition
from tournaments.presenters import standings_tables
from tournaments.views.bump import history_at, with_moves

FRAGMENT = "tournaments/partials/standings.html"
#: The templates the table is made of (their source is part of the key).
TEMPLATES = (
    FRAGMENT,
    "tournaments/partials/standings_row.html",
    "tournaments/partials/nights.html",
    "tournaments/partials/nights_list.html",
    "tournaments/partials/rank_move.html",
)
#: Stands for the CSRF token in a page kept for every spectator (letters only: no escaping
#: changes it), replaced by each visitor's own token.
TOKEN_SLOT = "csrftokenslotc0ffee5e9a"
#: Seconds a rendered table stays in the cache: a version nobody asks for any more expires, so
#: that a busy night (a version per finished game, one copy per language) holds little memory.
LIFETIME = 10 * 60
#: Seconds one render may hold the right to render a key before another may take it.
LOCK_SECONDS = 10
#: Seconds a request waits for the table another request is rendering, and how often it looks.
WAIT = 2.0
STEP = 0.05


#: A snapshot's version and when it was computed: what its table is named by in the cache.
Stamp = tuple[int, datetime | None]


def snapshot(request, competition: Competition) -> tuple[dict, int]:
    """The stored standings and their version; computed and stored when there are none. Cached
    on the request, so that an ETag function and its view share the query."""
    found = request.__dict__.setdefault("_snapshots", {})
    if competition.pk not in found:
        row = selectors.snapshot_of(competition)
        if row is None:
            data = services.store_standings(competition=competition)
            row = selectors.snapshot_of(competition)
            found[competition.pk] = (data, row.version if row else 1)
        else:
            found[competition.pk] = (row.data, row.version)
        stamps = request.__dict__.setdefault("_snapshot_stamps", {})
        stamps.setdefault(competition.pk, (row.version, row.computed_at) if row else (1, None))
    return found[competition.pk]


def snapshot_stamp(request, competition: Competition) -> Stamp:
    """The snapshot's version and when it was computed, without its tables (they are read
    only to render them), cached on the request; the standings are computed and stored when
    there are none yet."""
    stamps = request.__dict__.setdefault("_snapshot_stamps", {})
    if competition.pk not in stamps:
        stamp = selectors.snapshot_stamp(competition)
        if stamp is None:
            snapshot(request, competition)  # stores the standings and their stamp
        else:
            stamps[competition.pk] = stamp
    return stamps[competition.pk]


def shown_fields(competition: Competition) -> tuple:
    """What the table shows of the competition and its club besides the standings."""
    club = competition.club
    return (
        competition.slug,
        competition.kind,
        competition.format,
        competition.scheme,
        competition.best_of,
        competition.min_rounds,
        club.slug,
        club.results_public,
    )


def templates_digest() -> str:
    """A digest of the table's templates: read once per process, or on every request with
    ``DEBUG`` (templates edited while the server runs show at once, as without the cache)."""
    return _read_templates() if settings.DEBUG else _loaded_templates()


def _read_templates() -> str:
    return fingerprint(*(get_template(name).template.source for name in TEMPLATES))


_loaded_templates = functools.cache(_read_templates)


def cache_key(competition: Competition, stamp: Stamp, *, big: bool) -> str:
    """Where the table of ``competition`` at ``stamp`` is kept, in the active language."""
    version, computed_at = stamp
    digest = fingerprint(computed_at, shown_fields(competition), big, templates_digest())
    return f"standings-html:{competition.pk}:{version}:{get_language()}:{digest}"


def standings_html(
    request,
    competition: Competition,
    role: str | None,
    *,
    stamp: Stamp,
    big: bool = False,
    shared: bool = True,
) -> str:
    """The standings table's HTML at ``stamp`` for this visitor: from the cache for visitors
    with no role in the club, rendered for members. ``shared=False``: rendered here, without
    the cache (a stream process renders a version once for all its spectators, and would only
    wait on another process's render lock: tournaments.views.live)."""

    def render() -> str:
        # Read after ``stamp``: the same version or a newer one, never an older table.
        data, shown = snapshot(request, competition)
        context = {
            "club": competition.club,
            "competition": competition,
            "role": role,
            # with the arrows: places gained or lost since the round before (views/bump.py)
            "standings": with_moves(standings_tables(data), history_at(competition, stamp)),
            "version": shown,
            "big": big,
        }
        # No request: nothing of the visitor's (CSRF token, user, messages) can get in.
        return render_to_string(FRAGMENT, context)

    if role is not None or not shared:
        return mark_safe(render())
    return mark_safe(render_once(cache_key(competition, stamp, big=big), render))


def _read_site_templates() -> str:
    sources = sorted(Path(settings.BASE_DIR, "templates").rglob("*.html"))
    return fingerprint(*(path.read_text(encoding="utf-8") for path in sources))


_site_templates = functools.cache(_read_site_templates)


def page_html(
    request, competition: Competition, stamp: Stamp, shown: tuple, render: Callable[[dict], str]
) -> str | None:
    """The whole page for a spectator, with their CSRF token: ``render({"csrf_token":
    TOKEN_SLOT})`` kept under the page's key and filled in; None when the visitor is not one
    (signed in, or a message waiting to be shown) and the page must be rendered for them.
    ``shown``: what the page shows of the competition besides the standings."""
    if request.user.is_authenticated or len(get_messages(request)):
        return None
    version, computed_at = stamp
    digest = fingerprint(
        computed_at,
        shown,
        request.get_full_path(),
        _read_site_templates() if settings.DEBUG else _site_templates(),
    )
    key = f"standings-page:{competition.pk}:{version}:{get_language()}:{digest}"
    page = render_once(key, lambda: render({"csrf_token": TOKEN_SLOT}))
    return page.replace(TOKEN_SLOT, get_token(request))


def render_once(key: str, render: Callable[[], str]) -> str:
    """``render()``, kept in the cache under ``key``. While one request renders a key, the
    others wait for its result (``WAIT`` at most: then they render it too, so a render that
    failed or a lost lock costs time, never an answer)."""
    html = cache.get(key)
    if html is not None:
        return html
    lock = f"{key}:rendering"
    owner = cache.add(lock, 1, timeout=LOCK_SECONDS)
    if not owner:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            time.sleep(STEP)
            html = cache.get(key)
            if html is not None:
                return html
    try:
        html = render()
        cache.set(key, html, LIFETIME)
    finally:
        if owner:
            cache.delete(lock)
    return html
