"""The public pages of a competition: standings (polled), a round's tables, "where do I sit?" and
the projector view for the club room.

They live under ``/p/<club>/<competition>/`` and need no login when the competition is public.
The standings come from the ``StandingsSnapshot`` (computed with ``services.store_standings``
when missing); the polled partial answers 304 while its version is unchanged.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition

from scoring import access
from tournaments import selectors, services
from tournaments.forms import WhereForm
from tournaments.models import Competition, Round, RoundStatus, StandingsSnapshot
from tournaments.presenters import (
    club_zone,
    game_names,
    public_table,
    schedule_row,
    standings_tables,
    where_answer,
)
from tournaments.views.access import public_or_404, round_or_404, round_tables


def _snapshot(request, competition: Competition) -> tuple[dict, int]:
    """The cached standings and their version; computed and stored when there are none."""
    cache = request.__dict__.setdefault("_snapshots", {})
    if competition.pk not in cache:
        row = (
            StandingsSnapshot.objects.filter(competition=competition)
            .values_list("data", "version")
            .first()
        )
        if row is None:
            data = services.store_standings(competition=competition)
            version = (
                StandingsSnapshot.objects.filter(competition=competition)
                .values_list("version", flat=True)
                .first()
                or 1
            )
            row = (data, version)
        cache[competition.pk] = row
    return cache[competition.pk]


def _public_context(request, competition: Competition, role) -> dict:
    return {
        "club": competition.club,
        "competition": competition,
        "role": role,
        "zone": competition.club.time_zone,
        "games": game_names(competition),
    }


def public_competition(request, club_slug: str, slug: str):
    """Standings (polled) and the schedule."""
    competition, role = public_or_404(request, club_slug, slug)
    data, version = _snapshot(request, competition)
    zone = club_zone(competition.club)
    rounds = list(competition.rounds.order_by("number"))
    return render(
        request,
        "tournaments/public.html",
        _public_context(request, competition, role)
        | {
            "standings": standings_tables(data),
            "scheme_label": data.get("scheme_label", ""),
            "version": version,
            "schedule": [schedule_row(r, zone) for r in rounds],
        },
    )


def _standings_etag(request, club_slug: str, slug: str) -> str | None:
    try:
        competition, _role = public_or_404(request, club_slug, slug)
    except Http404:
        return None
    _data, version = _snapshot(request, competition)
    return f"standings-{competition.pk}-{version}-{get_language()}"


@cache_control(no_cache=True)
@condition(etag_func=_standings_etag)
def public_standings(request, club_slug: str, slug: str):
    """The standings alone, polled by the public page and the projector (304 while the
    snapshot's version is unchanged)."""
    competition, _role = public_or_404(request, club_slug, slug)
    data, version = _snapshot(request, competition)
    return render(
        request,
        "tournaments/partials/standings.html",
        {
            "club": competition.club,
            "competition": competition,
            "standings": standings_tables(data),
            "scheme_label": data.get("scheme_label", ""),
            "version": version,
            "big": request.GET.get("big") == "1",
        },
    )


def _games_readable(competition: Competition, role) -> bool:
    """Whether the game pages of this competition open for this visitor: members, or anyone
    when the competition is public (its games are published ``public_live``)."""
    return role is not None or competition.public


def public_round(request, club_slug: str, slug: str, number: int):
    competition, role = public_or_404(request, club_slug, slug)
    round_ = round_or_404(competition, number)
    if round_.status == RoundStatus.DRAFT and not access.is_manager(role):
        raise Http404
    tables, byes = round_tables(round_)
    return render(
        request,
        "tournaments/public_round.html",
        _public_context(request, competition, role)
        | {
            "round": round_,
            "when": schedule_row(round_, club_zone(competition.club)),
            "tables": [public_table(t) for t in tables],
            "byes": byes,
            "links": _games_readable(competition, role),
        },
    )


def _current_round(competition: Competition) -> Round | None:
    """The round being played (the first published one), else the last closed one."""
    rounds = list(competition.rounds.exclude(status=RoundStatus.DRAFT).order_by("number"))
    playing = [r for r in rounds if r.status == RoundStatus.PUBLISHED]
    if playing:
        return playing[0]
    return rounds[-1] if rounds else None


def where_page(request, club_slug: str, slug: str):
    """ "Where do I sit?": choose your name, see your table and seat in the current round."""
    competition, role = public_or_404(request, club_slug, slug)
    entries = selectors.entries_of(competition, active_only=True)
    form = WhereForm(request.GET or None, entries=entries)
    zone = club_zone(competition.club)
    answer = None
    if form.is_bound and form.is_valid():
        entry = next(e for e in entries if e.pk == form.cleaned_data["entry"])
        answer = where_answer(competition, entry, zone)
    return render(
        request,
        "tournaments/where.html",
        _public_context(request, competition, role) | {"form": form, "answer": answer},
        status=400 if form.errors else 200,
    )


def projector(request, club_slug: str, slug: str):
    """Big type on a dark background for the club room: the standings and the current round's
    tables, scrolling and refreshing by themselves."""
    competition, role = public_or_404(request, club_slug, slug)
    data, version = _snapshot(request, competition)
    show = request.GET.get("show", "both")
    if show not in ("both", "standings", "tables"):
        show = "both"
    current = _current_round(competition)
    tables = []
    if current is not None and show != "standings":
        tables = [public_table(t) for t in round_tables(current)[0]]
    return render(
        request,
        "tournaments/projector.html",
        _public_context(request, competition, role)
        | {
            "standings": standings_tables(data) if show != "tables" else [],
            "scheme_label": data.get("scheme_label", ""),
            "version": version,
            "current": current,
            "when": schedule_row(current, club_zone(competition.club)) if current else None,
            "tables": tables,
            "show": show,
        },
    )
