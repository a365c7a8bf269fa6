"""The public pages of a competition: standings (polled), a round's tables, "where do I sit?" and
the projector view for the club room.

They live under ``/p/<club>/<competition>/`` and need no login when the competition is public.
The standings come from the ``StandingsSnapshot`` (computed with ``services.store_standings``
when missing); the polled partial answers 304 while its version is unchanged. Their table is
rendered once per version and language and served from the cache to every visitor with no role
in the club (``standings_cache``); the page around it is each visitor's own.

The competition page, a round's page and the calendar feed answer ``If-None-Match`` with 304
too (``Cache-Control: private, no-cache``: the browser asks every time, the server answers in a
query or two without rendering). Their ETag is made of what the page shows, read cheaply: the
snapshot's version, a fingerprint of the rounds (number, status, date, times, game) or of a
round's tables (their games' versions: every hand, correction and status change bumps one),
the competition's and club's displayed fields, the language, and the viewer (anonymous, or the
user and role, plus the CSRF cookie the page's forms carry). Not in it: a player renamed after
the page was fetched shows on the next change.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition
from django.views.decorators.vary import vary_on_headers

from scoring import access
from scoring.links import qr_svg, site_url
from scoring.views.access import fingerprint, viewer
from tournaments import selectors
from tournaments.extensions import PUBLIC_BUTTONS
from tournaments.forms import WhereForm
from tournaments.middleware import share
from tournaments.models import Competition, Round, RoundStatus
from tournaments.presenters import (
    alphabetical,
    bracket_view,
    club_zone,
    game_names,
    public_table,
    schedule_row,
    standings_explained,
    standings_tables,
    timer_of,
    where_answer,
)
from tournaments.views.access import public_or_404, round_or_404
from tournaments.views.bump import bump_context
from tournaments.views.standings_cache import (
    Stamp,
    page_html,
    shown_fields,
    snapshot,
    snapshot_stamp,
    standings_html,
)

# -- ETags of the public pages ----------------------------------------------------------------


def competition_fields(competition: Competition) -> tuple:
    """What the public pages show of the competition and its club (already loaded: no query)."""
    club = competition.club
    return (
        competition.pk,
        competition.name,
        competition.slug,
        competition.kind,
        tuple(competition.rulesets),
        competition.start_date,
        competition.end_date,
        competition.description,
        competition.public,
        club.name,
        club.slug,
        club.time_zone,
        club.results_public,
        competition.finalized_at,
        club.currency,
    )


def rounds_fields(rounds: list[Round]) -> list[tuple]:
    """Each round as the schedule and the calendar show it."""
    return [
        (r.pk, r.number, r.status, r.ruleset, r.date, r.start_time, r.duration_minutes)
        for r in rounds
    ]


def rounds_of(request, competition: Competition) -> list[Round]:
    """The competition's rounds in order, each with ``snapshot_version`` (the standings
    snapshot's, None before the first one): one query, cached on the request so that the ETag
    function and the view share it."""
    cache = request.__dict__.setdefault("_public_rounds", {})
    if competition.pk not in cache:
        cache[competition.pk] = selectors.rounds_with_snapshot_version(competition)
    return cache[competition.pk]


def _public_or_none(request, club_slug: str, slug: str):
    """``public_or_404`` for an ETag function: None when the view will answer 404 itself."""
    try:
        return public_or_404(request, club_slug, slug)
    except Http404:
        return None, None


def _competition_etag(request, club_slug: str, slug: str) -> str | None:
    """The competition page: standings version, rounds, competition, language, viewer. One
    query after the competition and the role (two for a competition with no round yet)."""
    competition, role = _public_or_none(request, club_slug, slug)
    if competition is None:
        return None
    rounds = rounds_of(request, competition)
    version, _computed_at = _competition_stamp(request, competition)
    digest = fingerprint(
        competition_fields(competition),
        rounds_fields(rounds),
        get_language(),
        viewer(request, role),
        _public_buttons(request, competition),
        _final_awards(request, competition),
    )
    return f"competition-{competition.pk}-{version}-{digest}"


def _competition_stamp(request, competition: Competition) -> Stamp:
    """The standings' version and time as the competition page reads them: with its rounds (no
    query of its own), else from the snapshot (no round to carry them, or no snapshot yet)."""
    rounds = rounds_of(request, competition)
    if rounds and rounds[0].snapshot_version is not None:
        return rounds[0].snapshot_version, rounds[0].snapshot_computed_at
    return snapshot_stamp(request, competition)


def _final_awards(request, competition: Competition) -> list[dict]:
    """The prizes won, once the results are final (none before): cached on the request, so
    that the ETag function and the view share the work."""
    if competition.finalized_at is None:
        return []
    cache = request.__dict__.setdefault("_awards", {})
    if competition.pk not in cache:
        cache[competition.pk] = selectors.awarded(competition)
    return cache[competition.pk]


def _round_etag(request, club_slug: str, slug: str, number: int) -> str | None:
    """A round's page: the round's fields and a fingerprint of its tables (which tables, their
    games' versions, forfeits) and byes, in one query after the competition and the role."""
    competition, role = _public_or_none(request, club_slug, slug)
    if competition is None:
        return None
    row = selectors.round_fingerprint(competition, number)
    if row is None or (row[1] == RoundStatus.DRAFT and not access.is_manager(role)):
        return None  # the view answers 404
    digest = fingerprint(
        competition_fields(competition),
        row,
        _games_readable(competition, role),
        get_language(),
        viewer(request, role),
    )
    return f"round-{row[0]}-{digest}"


def _public_buttons(request, competition: Competition) -> list[tuple[str, str]]:
    """The apps' main actions on the public page (``PUBLIC_BUTTONS``: "Register" while
    registration is open or about to open), from rows that came with the competition."""
    return [button for hook in PUBLIC_BUTTONS for button in hook(competition)]


def _public_context(request, competition: Competition, role) -> dict:
    return {
        "club": competition.club,
        "competition": competition,
        "role": role,
        "zone": competition.club.time_zone,
        "games": game_names(competition),
        "public_buttons": _public_buttons(request, competition),
    }


@cache_control(private=True, no_cache=True)
@condition(etag_func=_competition_etag)
def public_competition(request, club_slug: str, slug: str):
    """Standings (polled) and the schedule."""
    competition, role = public_or_404(request, club_slug, slug)
    stamp = _competition_stamp(request, competition)
    zone = club_zone(competition.club)
    rounds = rounds_of(request, competition)
    return render(
        request,
        "tournaments/public.html",
        _public_context(request, competition, role)
        | {
            "standings_html": standings_html(request, competition, role, stamp=stamp),
            **bump_context(competition, stamp),
            "schedule": [schedule_row(r, zone) for r in rounds],
            "awards": _final_awards(request, competition),
            # The rounds planned but not added yet, shown from the start.
            "planned": [
                competition.round_label(n)
                for n in range(
                    max((r.number for r in rounds), default=0) + 1, competition.planned_total + 1
                )
            ],
        },
    )


def _standings_etag(request, club_slug: str, slug: str) -> str | None:
    competition, role = _public_or_none(request, club_slug, slug)
    if competition is None:
        return None
    version, computed_at = snapshot_stamp(request, competition)
    if request.htmx:
        # The table alone: what names its cached HTML, and whether the viewer is a member (their
        # table links the players' pages). A spectator's is everyone's: polls that ask the same
        # are answered from it while the stamp holds (tournaments/middleware.py).
        shown = fingerprint(computed_at, shown_fields(competition), big_table(request), role)
        if role is None:
            share(request, competition.pk, (version, computed_at))
        return f"standings-{competition.pk}-{version}-{get_language()}-{shown}"
    # Opened directly, the standings are a whole page: its header and forms are the viewer's.
    digest = fingerprint(competition_fields(competition), get_language(), viewer(request, role))
    return f"standings-page-{competition.pk}-{version}-{digest}"


def big_table(request) -> bool:
    """Whether the standings are asked for at the projector's size (``?big=1``)."""
    return request.GET.get("big") == "1"


# private: opened directly it is a whole page, with the viewer's header and forms.
@cache_control(private=True, no_cache=True)
@vary_on_headers("HX-Request")
@condition(etag_func=_standings_etag)
def public_standings(request, club_slug: str, slug: str):
    """The standings alone, polled by the public page and the projector (304 while the
    snapshot's version is unchanged). Opened directly (a link, a bookmark: not htmx), the
    same tables in a whole page."""
    competition, role = public_or_404(request, club_slug, slug)
    html = standings_html(
        request,
        competition,
        role,
        stamp=snapshot_stamp(request, competition),
        big=big_table(request),
    )
    if request.htmx:
        return HttpResponse(html)
    context = {
        "club": competition.club,
        "competition": competition,
        "role": role,
        "standings_html": html,
        **bump_context(competition, snapshot_stamp(request, competition)),
    }
    if role is None:  # a spectator's page is the same for all but the CSRF token
        page = page_html(
            request,
            competition,
            snapshot_stamp(request, competition),
            (competition_fields(competition), big_table(request)),
            lambda extra: render_to_string(
                "tournaments/standings.html", context | extra, request=request
            ),
        )
        if page is not None:
            return HttpResponse(page)
    return render(request, "tournaments/standings.html", context)


def _games_readable(competition: Competition, role) -> bool:
    """Whether the game pages of this competition open for this visitor: members, or anyone
    when the competition is public (as ``scoring.access.can_read_game`` decides it for a game
    page, from the competition as it is now)."""
    return role is not None or competition.public


@cache_control(private=True, no_cache=True)
@condition(etag_func=_round_etag)
def public_round(request, club_slug: str, slug: str, number: int):
    competition, role = public_or_404(request, club_slug, slug)
    round_ = round_or_404(competition, number)
    if round_.status == RoundStatus.DRAFT and not access.is_manager(role):
        raise Http404
    # Read before the tables: the version their stream's first event is compared with.
    stream_version = snapshot_stamp(request, competition)[0]
    tables, byes = selectors.round_tables(round_)
    return render(
        request,
        "tournaments/public_round.html",
        _public_context(request, competition, role)
        | {
            "stream_version": stream_version,
            "round": round_,
            "when": schedule_row(round_, club_zone(competition.club)),
            "tables": [public_table(t) for t in tables],
            "byes": byes,
            "links": _games_readable(competition, role),
        },
    )


def where_page(request, club_slug: str, slug: str):
    """ "Where do I sit?": choose your name, see your table and seat in the current round."""
    competition, role = public_or_404(request, club_slug, slug)
    # Alphabetical: a player looks for their name, not their seed.
    entries = sorted(
        selectors.entries_of(competition, active_only=True), key=lambda e: alphabetical(e.name)
    )
    form = WhereForm(request.GET or None, entries=entries)
    zone = club_zone(competition.club)
    answer = None
    if form.is_bound and form.is_valid():
        entry = next(e for e in entries if e.pk == form.cleaned_data["entry"])
        answer = where_answer(competition, entry, selectors.where_of(competition, entry), zone)
    return render(
        request,
        "tournaments/where.html",
        _public_context(request, competition, role)
        | {
            "form": form,
            "answer": answer,
            "names": entries,
            "chosen": answer["entry"].pk if answer else None,
        },
        status=400 if form.errors else 200,
    )


def projector(request, club_slug: str, slug: str):
    """The club room's screen (1920×1080): the standings and the current round's tables, paged
    so that every row is shown (``static/js/projector.js``), the round timer counting down live,
    and a QR code to "where do I sit?". ``?show=standings`` or ``?show=tables`` shows one."""
    competition, role = public_or_404(request, club_slug, slug)
    data, version = snapshot(request, competition)
    show = request.GET.get("show", "both")
    if show not in ("both", "standings", "tables"):
        show = "both"
    current = selectors.current_round(competition)
    tables = []
    if current is not None and show != "standings":
        tables = [public_table(t) for t in selectors.round_tables(current)[0]]
    where_url = site_url(request, reverse("public-where", args=[club_slug, slug]))
    standings = standings_tables(data)
    return render(
        request,
        "tournaments/projector.html",
        _public_context(request, competition, role)
        | {
            "standings": standings[:1] if show != "tables" else [],
            "scheme_label": data.get("scheme_label", ""),
            "version": version,
            "current": current,
            "when": schedule_row(current, club_zone(competition.club)) if current else None,
            "tables": tables,
            "show": show,
            # A timer counts a round being played: none once it is closed or the results final.
            "timer": timer_of(current, timezone.now()) if _playing(current) else None,
            "where_url": where_url,
            "where_qr": qr_svg(where_url),
        },
    )


@cache_control(private=True, no_cache=True)
def bracket(request, club_slug: str, slug: str):
    """A knockout's bracket: rounds by name, seeds, byes, the third-place match and the
    ranking the bracket gives so far (for the organizer and the public alike)."""
    competition, role = public_or_404(request, club_slug, slug)
    # Read before the bracket: the version its stream's first event is compared with.
    stream_version = snapshot_stamp(request, competition)[0]
    drawn = selectors.bracket_of(competition)  # None for another format, or before the draw
    rounds = rounds_of(request, competition)
    return render(
        request,
        "tournaments/bracket.html",
        _public_context(request, competition, role)
        | {
            "stream_version": stream_version,
            "bracket": bracket_view(
                competition,
                drawn,
                rounds,
                selectors.entries_of(competition),
                selectors.match_scores(competition),
            )
            if drawn
            else None,
        },
    )


@cache_control(private=True, no_cache=True)
def standings_how(request, club_slug: str, slug: str):
    """How this competition's standings are computed, with its own numbers: the points scheme
    and its points per table size, best-N, attendance, the tie-breaks in order, and the
    leader's line worked out."""
    competition, role = public_or_404(request, club_slug, slug)
    data, _version = snapshot(request, competition)
    return render(
        request,
        "tournaments/standings_how.html",
        _public_context(request, competition, role)
        | {"how": standings_explained(competition, data)},
    )


def _playing(round_: Round | None) -> bool:
    """Whether ``round_`` is being played: published (a final competition has none)."""
    return round_ is not None and round_.status == RoundStatus.PUBLISHED


def round_timer(request, club_slug: str, slug: str):
    """The current round's timer as JSON, polled by the projector: ``state`` (idle, running,
    paused, over), ``left`` and ``full`` in seconds, and the round's ``number``; ``state``
    "none" once no round is being played (the projector then hides its timer)."""
    competition, _role = public_or_404(request, club_slug, slug)
    current = selectors.current_round(competition)
    if not _playing(current):
        return JsonResponse(
            {"number": current and current.number, "state": "none", "left": 0, "full": 0}
        )
    return JsonResponse({"number": current.number} | timer_of(current, timezone.now()))


@cache_control(private=True, no_cache=True)
def public_entry(request, club_slug: str, slug: str, entry_id: int):
    """One entry of a competition: its line of the standings (rank, points, nights) and, in a
    league with nights left, who can still win for it: clinched, can still win or cannot, and
    the final ranks still possible."""
    competition, role = public_or_404(request, club_slug, slug)
    data, _version = snapshot(request, competition)
    tables = standings_tables(data)
    rows = [*tables[0]["ranked"], *tables[0]["unranked"]] if tables else []
    row = next((r for r in rows if r["entry"] == entry_id), None)
    if row is None:
        raise Http404
    return render(
        request,
        "tournaments/entry.html",
        _public_context(request, competition, role)
        | {"row": row, "leader": rows[0] if rows and rows[0]["ranked"] else None}
        | bump_context(competition, snapshot_stamp(request, competition), mine=entry_id),
    )
