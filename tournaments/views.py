"""Competition pages (organizer and public).

Organizer pages live under ``/c/<club>/k/<competition>/``: members of the club may read them,
owners and organizers act (every write is a ``tournaments.services`` call; ``NotAllowed`` is a
403). Public pages live under ``/p/<club>/<competition>/`` and need no login when the
competition is public; otherwise they answer 404 to anyone outside the club.

The standings shown to the public come from the ``StandingsSnapshot`` (computed with
``services.store_standings`` when missing); the polled partial answers 304 while its version is
unchanged. Round times are the club's wall-clock times (``club.time_zone``).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zoneinfo
from decimal import Decimal
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition

from scoring import access
from scoring.models import Club, GameStatus, Seat, TableLink
from scoring.rules import RULESETS, RuleViolation
from scoring.selectors import role_of
from scoring.services import NotAllowed
from scoring.views import qr_svg, table_url
from tournaments import selectors, services, tasks
from tournaments.forms import (
    AdjustForm,
    CheckInForm,
    CompetitionForm,
    EntriesForm,
    ForfeitForm,
    GenerateForm,
    PairForm,
    RoundForm,
    SwapForm,
    WhereForm,
    WithdrawForm,
    problem_text,
)
from tournaments.labels import TIE_BREAK_LABELS
from tournaments.models import (
    Adjustment,
    Bye,
    CheckIn,
    Competition,
    CompetitionEvent,
    Entry,
    EntryStatus,
    Format,
    Round,
    RoundStatus,
    StandingsSnapshot,
    Table,
    TableSeat,
)

#: Rounds with more participants than this are drawn by a Celery task.
TASK_THRESHOLD = 60


# -- the club page section ------------------------------------------------------------------


def club_section(request, club, role) -> str:
    """The competitions block of a club page (registered in ``CLUB_PAGE_SECTIONS``)."""
    competitions = Competition.objects.filter(club=club)
    if role is None:
        competitions = competitions.filter(public=True)
    return render_to_string(
        "tournaments/partials/club_section.html",
        {
            "club": club,
            "role": role,
            "competitions": list(competitions.order_by("-start_date", "-created_at")[:20]),
        },
        request=request,
    )


# -- access ---------------------------------------------------------------------------------


def _load(request, club_slug: str, slug: str) -> tuple[Competition, str | None]:
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
    competition, role = _load(request, club_slug, slug)
    if role is None:
        if competition.public:
            raise PermissionDenied
        raise Http404
    if manage and not access.is_manager(role):
        raise PermissionDenied
    return competition, role


def public_or_404(request, club_slug: str, slug: str):
    competition, role = _load(request, club_slug, slug)
    if not competition.public and role is None:
        raise Http404
    return competition, role


def _call(service, **kwargs):
    """A service call whose ``NotAllowed`` becomes a 403."""
    try:
        return service(**kwargs)
    except NotAllowed:
        raise PermissionDenied from None


def _round_or_404(competition: Competition, number: int) -> Round:
    round_ = get_object_or_404(Round, competition=competition, number=number)
    round_.competition = competition
    return round_


# -- formatting -----------------------------------------------------------------------------


def _zone(club: Club) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(club.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def _times(round_: Round, zone: zoneinfo.ZoneInfo) -> tuple[dt.datetime, dt.datetime] | None:
    """Start and end of a dated and timed round, as aware datetimes in the club's zone."""
    if round_.date is None or round_.start_time is None:
        return None
    start = dt.datetime.combine(round_.date, round_.start_time, tzinfo=zone)
    end = (start.astimezone(dt.UTC) + dt.timedelta(minutes=round_.duration_minutes)).astimezone(
        zone
    )
    return start, end


def _schedule_row(round_: Round, zone) -> dict:
    """A round's date and wall-clock start and end in the club's zone (plain times, so that
    templates show them as they are, whatever the visitor's zone)."""
    times = _times(round_, zone)
    return {
        "round": round_,
        "game": RULESETS[round_.ruleset].name if round_.ruleset in RULESETS else round_.ruleset,
        "date": round_.date,
        "start": times[0].time() if times else None,
        "end": times[1].time() if times else None,
        "next_day": bool(times) and times[1].date() != times[0].date(),
    }


def _number(value, *, comma: bool | None = None) -> str:
    """A standings figure: localized for a page, ``comma``/point for a CSV file."""
    if value is None or value == "":
        return ""
    if comma is None:
        return formats.number_format(value, use_l10n=True)
    text = format(Decimal(str(value)).normalize(), "f") if isinstance(value, float) else str(value)
    return text.replace(".", ",") if comma else text


def _standings_tables(data: dict) -> list[dict]:
    """The snapshot's tables ready for a template: tie-break columns (the points have their own
    column), ranked rows then unranked ones, figures formatted."""
    tables = []
    for table in data.get("tables", []):
        columns = [(key, str(TIE_BREAK_LABELS.get(key, label))) for key, label in table["columns"]]
        columns = [c for c in columns if c[0] != "points"]
        rows = [
            row
            | {
                "points_text": _number(row["points"]),
                "cells": [_number(row["values"].get(key)) for key, _label in columns],
            }
            for row in table["rows"]
        ]
        tables.append(
            {
                "key": table["key"],
                "title": table["title"],
                "columns": columns,
                "ranked": [r for r in rows if r["ranked"]],
                "unranked": [r for r in rows if not r["ranked"]],
            }
        )
    return tables


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


# -- organizer: a new competition -----------------------------------------------------------


@login_required
def competition_new(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    role = role_of(request.user, club)
    if role is None and not access.can_read_club(request, club, role):
        raise Http404
    if not access.is_manager(role):
        raise PermissionDenied
    form = CompetitionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            competition = _call(
                services.create_competition,
                club=club,
                by=access.actor_for(request),
                **form.service_arguments(),
            )
        except RuleViolation as violation:
            form.add_rule_errors(violation)
        else:
            messages.success(
                request,
                _("%(name)s is ready: add the players and the first round.")
                % {"name": competition.name},
            )
            return redirect("competition", club_slug=club.slug, slug=competition.slug)
    return render(
        request,
        "tournaments/competition_form.html",
        {"club": club, "role": role, "form": form},
        status=400 if form.errors else 200,
    )


# -- organizer: the dashboard ---------------------------------------------------------------


def _table_done(table: Table) -> bool:
    return table.forfeited or (
        table.game is not None and table.game.status != GameStatus.IN_PROGRESS
    )


@login_required
def competition_page(request, club_slug: str, slug: str):
    competition, role = organizer_or_404(request, club_slug, slug, manage=request.method == "POST")
    entries = selectors.entries_of(competition)
    rounds = list(
        competition.rounds.prefetch_related(
            Prefetch("tables", queryset=Table.objects.select_related("game"))
        ).order_by("number")
    )
    last = rounds[-1] if rounds else None
    round_form = RoundForm(
        competition=competition,
        initial={
            "start_time": last.start_time if last else None,
            "duration_minutes": last.duration_minutes if last else 90,
        },
    )
    adjust_form = AdjustForm(entries=entries, rounds=rounds)
    status = 200
    if request.method == "POST":
        by = access.actor_for(request)
        action = request.POST.get("action")
        if action == "add_round":
            round_form = RoundForm(request.POST, competition=competition)
            if round_form.is_valid():
                data = round_form.cleaned_data
                try:
                    round_ = _call(
                        services.add_round,
                        competition=competition,
                        by=by,
                        ruleset=data.get("ruleset") or None,
                        date=data.get("date"),
                        start_time=data.get("start_time"),
                        duration_minutes=data["duration_minutes"],
                    )
                except RuleViolation as violation:
                    round_form.add_rule_errors(violation)
                else:
                    messages.success(request, _("Round %(n)s added.") % {"n": round_.number})
                    return redirect("round", club_slug=club_slug, slug=slug, number=round_.number)
        elif action == "adjust":
            adjust_form = AdjustForm(request.POST, entries=entries, rounds=rounds)
            if adjust_form.is_valid():
                data = adjust_form.cleaned_data
                entry = next((e for e in entries if e.pk == data["entry"]), None)
                round_ = next((r for r in rounds if r.number == data.get("round")), None)
                try:
                    _call(
                        services.adjust,
                        competition=competition,
                        entry=entry,
                        points=data["points"],
                        reason=data["reason"],
                        by=by,
                        round_=round_,
                    )
                except RuleViolation as violation:
                    adjust_form.add_rule_errors(violation)
                else:
                    messages.success(
                        request,
                        _("%(points)s points for %(name)s.")
                        % {"points": _number(data["points"]), "name": entry.name},
                    )
                    return redirect("competition", club_slug=club_slug, slug=slug)
        else:
            return HttpResponseBadRequest(_("Unknown action."))
        status = 400
    zone = _zone(competition.club)
    schedule = []
    for round_ in rounds:
        tables = list(round_.tables.all())
        schedule.append(
            _schedule_row(round_, zone)
            | {"tables": len(tables), "done": sum(1 for t in tables if _table_done(t))}
        )
    adjustments = list(
        Adjustment.objects.filter(competition=competition)
        .select_related("entry__player", "entry__partner", "round", "by")
        .order_by("-at", "-id")
    )
    return render(
        request,
        "tournaments/competition.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "manager": access.is_manager(role),
            "entries": entries,
            "active_count": sum(1 for e in entries if e.active),
            "schedule": schedule,
            "round_form": round_form,
            "adjust_form": adjust_form,
            "adjustments": adjustments,
            "games": [RULESETS[k].name for k in competition.rulesets if k in RULESETS],
            "zone": competition.club.time_zone,
        },
        status=status,
    )


# -- organizer: entries ---------------------------------------------------------------------


@login_required
def entries_page(request, club_slug: str, slug: str):
    competition, role = organizer_or_404(request, club_slug, slug, manage=request.method == "POST")
    pairs = competition.pairs
    form_class = PairForm if pairs else EntriesForm
    form = form_class(competition=competition)
    withdraw_forms: dict[int, WithdrawForm] = {}
    status = 200
    if request.method == "POST":
        by = access.actor_for(request)
        if request.POST.get("action") == "withdraw":
            raw = request.POST.get("entry", "")
            withdraw = WithdrawForm(
                request.POST, auto_id=f"id_withdraw_{raw if raw.isdigit() else 0}_%s"
            )
            if withdraw.is_valid():
                entry = get_object_or_404(
                    Entry.objects.select_related("player", "partner"),
                    competition=competition,
                    pk=withdraw.cleaned_data["entry"],
                )
                entry.competition = competition
                try:
                    _call(
                        services.withdraw_entry,
                        entry=entry,
                        by=by,
                        reason=withdraw.cleaned_data["reason"],
                    )
                except RuleViolation as violation:
                    for problem in violation.problems:
                        withdraw.add_error(None, problem_text(problem))
                else:
                    messages.success(request, _("%(name)s withdrew.") % {"name": entry.name})
                    return redirect("competition-entries", club_slug=club_slug, slug=slug)
            entry_id = withdraw.data.get("entry")
            if str(entry_id).isdigit():
                withdraw_forms[int(entry_id)] = withdraw
        else:
            form = form_class(request.POST, competition=competition)
            if form.is_valid():
                added = _add_entries(form, competition, by, pairs)
                if added:
                    messages.success(
                        request,
                        ngettext("%(count)s entry added.", "%(count)s entries added.", len(added))
                        % {"count": len(added)},
                    )
                if not form.errors:
                    return redirect("competition-entries", club_slug=club_slug, slug=slug)
                if added and not pairs:  # the choices no longer list those just entered
                    form.fields["players"].choices = (
                        EntriesForm(competition=competition).fields["players"].choices
                    )
        status = 400
    entries = selectors.entries_of(competition)
    return render(
        request,
        "tournaments/entries.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "manager": access.is_manager(role),
            "form": form,
            "pairs": pairs,
            "entries": [
                {
                    "entry": e,
                    "withdraw": withdraw_forms.get(e.pk)
                    or WithdrawForm(initial={"entry": e.pk}, auto_id=f"id_withdraw_{e.pk}_%s"),
                }
                for e in entries
            ],
            "started": competition.rounds.exclude(status=RoundStatus.DRAFT).exists(),
        },
        status=status,
    )


def _add_entries(form, competition, by, pairs) -> list[Entry]:
    added = []
    if pairs:
        try:
            added.append(
                _call(
                    services.add_entry, competition=competition, by=by, **form.service_arguments()
                )
            )
        except RuleViolation as violation:
            form.add_rule_errors(violation)
        return added
    requests = [("players", pk) for pk in form.cleaned_data.get("players") or []]
    requests += [("new_names", name) for name in form.names()]
    for field, player in requests:
        try:
            added.append(_call(services.add_entry, competition=competition, by=by, player=player))
        except RuleViolation as violation:
            for problem in violation.problems:
                form.add_error(field, problem_text(problem, form.fields[field].label))
    return added


# -- organizer: a round ---------------------------------------------------------------------

METRICS = (
    ("repeated_pairs", gettext_lazy("Repeated meetings"), "one"),
    ("max_meetings", gettext_lazy("Most meetings of two players"), "one"),
    ("byes_per_player", gettext_lazy("Byes per player"), "range"),
    ("first_dealer", gettext_lazy("First dealer per player"), "range"),
    ("sit_outs", gettext_lazy("Sitting out per player"), "range"),
    ("lower_bound", gettext_lazy("Rounds possible without a repeat"), "one"),
    ("perfect", gettext_lazy("Perfect"), "bool"),
    ("seconds", gettext_lazy("Time to draw"), "seconds"),
)


def _metric_notes() -> dict[str, str]:
    return {
        "repeated_pairs": _(
            "Times two players sit together again after meeting before (0 is best)."
        ),
        "max_meetings": _("The most times any two players share a table."),
        "byes_per_player": _("Rounds a player sits out entirely: fewest – most."),
        "first_dealer": _("Times a player deals first (seat 1): fewest – most."),
        "sit_outs": _(
            "Times a player is the dealer who sits out at a larger table: fewest – most."
        ),
        "lower_bound": _("The most rounds this many players can play without meeting twice."),
        "perfect": _("Nobody meets anybody twice."),
        "seconds": _("How long the draw took."),
    }


def metrics_rows(metrics: dict) -> list[dict]:
    """The quality figures of a draw, with a short explanation each."""
    notes = _metric_notes()
    rows = []
    for key, label, kind in METRICS:
        if key not in metrics:
            continue
        value = metrics[key]
        if kind == "range":
            low, high = [*value, 0, 0][:2]
            text = str(low) if low == high else f"{low}–{high}"
        elif kind == "bool":
            text = _("yes") if value else _("no")
        elif kind == "seconds":
            text = _("%(s)s s") % {"s": formats.number_format(value, use_l10n=True)}
        else:
            text = str(value)
        good = None
        if key == "repeated_pairs":
            good = value == 0
        elif key == "perfect":
            good = bool(value)
        rows.append({"key": key, "label": label, "value": text, "note": notes[key], "good": good})
    return rows


def _round_tables(round_: Round) -> tuple[list[Table], list[Entry]]:
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


def _participant_count(round_: Round) -> int:
    present = CheckIn.objects.filter(round=round_, entry__status=EntryStatus.ACTIVE).count()
    return present or round_.competition.entries.filter(status=EntryStatus.ACTIVE).count()


def _last_event_id(competition: Competition) -> int:
    return (
        CompetitionEvent.objects.filter(competition=competition)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
        or 0
    )


#: How long the round page waits for a background draw before saying it did not come.
DRAW_PATIENCE = dt.timedelta(minutes=3)


def _drawing(request, round_: Round) -> str | None:
    """``"waiting"`` while a background draw asked for at ``?drawing=<last event id>&at=<unix
    time>`` has not ended, ``"late"`` once it has taken too long (the task failed or no worker
    runs), None otherwise."""
    since, at = request.GET.get("drawing", ""), request.GET.get("at", "")
    if not since.isdigit() or round_.status != RoundStatus.DRAFT:
        return None
    if CompetitionEvent.objects.filter(
        competition=round_.competition, round=round_, action="generate_round", pk__gt=int(since)
    ).exists():
        return None
    asked = dt.datetime.fromtimestamp(int(at), tz=dt.UTC) if at.isdigit() else timezone.now()
    return "late" if timezone.now() - asked > DRAW_PATIENCE else "waiting"


@login_required
def round_page(request, club_slug: str, slug: str, number: int):
    competition, role = organizer_or_404(request, club_slug, slug, manage=request.method == "POST")
    round_ = _round_or_404(competition, number)
    url = reverse("round", args=[club_slug, slug, number])
    bound: dict[str, object] = {}
    errors: dict[str, list[str]] = {}
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        handler = ROUND_ACTIONS.get(action)
        if handler is None:
            return HttpResponseBadRequest(_("Unknown action."))
        answer = handler(request, competition, round_, bound, errors)
        if answer is not None:
            return answer
        status = 400
        round_.refresh_from_db()
    tables, byes = _round_tables(round_)
    entries = selectors.entries_of(competition, active_only=True)
    present = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
    details = bound.get("details") or RoundForm(
        competition=competition,
        initial={
            "ruleset": round_.ruleset,
            "date": round_.date,
            "start_time": round_.start_time,
            "duration_minutes": round_.duration_minutes,
        },
    )
    checkin = bound.get("checkin") or CheckInForm(
        entries=entries, initial={"present": sorted(present)}
    )
    in_round = [
        (seat.entry.pk, _("%(name)s (table %(n)s)") % {"name": seat.entry.name, "n": t.number})
        for t in tables
        for seat in t.seats.all()
    ] + [(e.pk, _("%(name)s (bye)") % {"name": e.name}) for e in byes]
    swap = bound.get("swap") or SwapForm(choices=in_round)
    forfeit_bound = bound.get("forfeit")
    rows = []
    for table in tables:
        seated = [s.entry for s in table.seats.all()]
        forfeit = (
            forfeit_bound
            if forfeit_bound is not None and forfeit_bound.data.get("table") == str(table.number)
            else ForfeitForm(seats=seated, initial={"table": table.number})
        )
        game = table.game
        rows.append(
            {
                "table": table,
                "entries": seated,
                "game": game,
                "scores": _public_table(table)["seats"] if game else [],
                "done": _table_done(table),
                "forfeit": forfeit,
            }
        )
    zone = _zone(competition.club)
    drawing = _drawing(request, round_)
    return render(
        request,
        "tournaments/round.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "manager": access.is_manager(role),
            "round": round_,
            "when": _schedule_row(round_, zone),
            "zone": competition.club.time_zone,
            "tables": rows,
            "byes": byes,
            "open_tables": [r["table"].number for r in rows if not r["done"]],
            "metrics": metrics_rows(round_.metrics or {}),
            "planned_together": round_.method in ("rotation", "round_robin"),
            "details_form": details,
            "checkin_form": checkin,
            "present_count": len(present),
            "generate_form": bound.get("generate")
            or GenerateForm(initial={"seed": None, "method": round_.method or "rotation"}),
            "swap_form": swap,
            "errors": errors,
            "drawing": drawing,
            "self_url": url,
            "club_night": competition.format == Format.CLUB_NIGHT,
            "task_threshold": TASK_THRESHOLD,
        },
        status=status,
    )


def _back(round_: Round, **query) -> HttpResponse:
    competition = round_.competition
    url = reverse("round", args=[competition.club.slug, competition.slug, round_.number])
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return redirect(url)


def _action_details(request, competition, round_, bound, errors):
    form = RoundForm(request.POST, competition=competition)
    bound["details"] = form
    if not form.is_valid():
        return None
    data = form.cleaned_data
    try:
        _call(
            services.update_round,
            round_=round_,
            by=access.actor_for(request),
            date=data.get("date"),
            start_time=data.get("start_time"),
            duration_minutes=data["duration_minutes"],
            ruleset=data.get("ruleset") or None,
        )
    except RuleViolation as violation:
        form.add_rule_errors(violation)
        return None
    messages.success(request, _("Round %(n)s saved.") % {"n": round_.number})
    return _back(round_)


def _action_checkin(request, competition, round_, bound, errors):
    entries = selectors.entries_of(competition, active_only=True)
    form = CheckInForm(request.POST, entries=entries)
    bound["checkin"] = form
    if not form.is_valid():
        return None
    try:
        present = _call(
            services.set_check_ins,
            round_=round_,
            entries=form.cleaned_data["present"],
            by=access.actor_for(request),
        )
    except RuleViolation as violation:
        errors["checkin"] = [problem_text(p) for p in violation.problems]
        return None
    messages.success(
        request,
        ngettext("%(count)s player present.", "%(count)s players present.", len(present))
        % {"count": len(present)},
    )
    return _back(round_)


def _action_generate(request, competition, round_, bound, errors):
    form = GenerateForm(request.POST)
    bound["generate"] = form
    if not form.is_valid():
        return None
    seed = form.cleaned_data.get("seed")
    method = form.cleaned_data.get("method") if competition.format == Format.CLUB_NIGHT else None
    method = method or None
    if round_.status == RoundStatus.DRAFT and _participant_count(round_) > TASK_THRESHOLD:
        since = _last_event_id(competition)
        tasks.generate_round.delay_on_commit(round_.pk, request.user.pk, seed, method)
        messages.info(request, _("Drawing the tables…"))
        return _back(round_, drawing=since, at=int(timezone.now().timestamp()))
    try:
        _call(
            services.generate_round,
            round_=round_,
            by=access.actor_for(request),
            seed=seed,
            method=method,
        )
    except RuleViolation as violation:
        errors["generate"] = [problem_text(p) for p in violation.problems]
        return None
    messages.success(request, _("The tables of round %(n)s are drawn.") % {"n": round_.number})
    return _back(round_)


def _action_swap(request, competition, round_, bound, errors):
    tables, byes = _round_tables(round_)
    choices = [(s.entry_id, s.entry.name) for t in tables for s in t.seats.all()]
    choices += [(e.pk, e.name) for e in byes]
    form = SwapForm(request.POST, choices=choices)
    bound["swap"] = form
    if not form.is_valid():
        return None
    try:
        _call(
            services.swap_in_round,
            round_=round_,
            a=form.cleaned_data["a"],
            b=form.cleaned_data["b"],
            by=access.actor_for(request),
        )
    except RuleViolation as violation:
        form.add_rule_errors(violation)
        return None
    messages.success(request, _("Swapped."))
    return _back(round_)


def _action_publish(request, competition, round_, bound, errors):
    try:
        _call(services.publish_round, round_=round_, by=access.actor_for(request))
    except RuleViolation as violation:
        errors["publish"] = [problem_text(p) for p in violation.problems]
        return None
    messages.success(
        request, _("Round %(n)s is published: its games are open.") % {"n": round_.number}
    )
    return _back(round_)


def _action_close(request, competition, round_, bound, errors):
    try:
        _call(services.close_round, round_=round_, by=access.actor_for(request))
    except RuleViolation as violation:
        errors["close"] = [problem_text(p) for p in violation.problems]
        return None
    messages.success(request, _("Round %(n)s is closed.") % {"n": round_.number})
    return _back(round_)


def _action_forfeit(request, competition, round_, bound, errors):
    number = request.POST.get("table", "")
    table = get_object_or_404(
        Table.objects.select_related("game").prefetch_related(
            "seats__entry__player", "seats__entry__partner"
        ),
        round=round_,
        number=int(number) if number.isdigit() else 0,
    )
    table.round = round_
    form = ForfeitForm(request.POST, seats=[s.entry for s in table.seats.order_by("position")])
    bound["forfeit"] = form
    if not form.is_valid():
        return None
    try:
        _call(
            services.forfeit_table,
            table=table,
            by=access.actor_for(request),
            reason=form.cleaned_data["reason"],
            points=form.points(),
        )
    except RuleViolation as violation:
        form.add_rule_errors(violation)
        return None
    messages.success(request, _("Table %(n)s was settled by forfeit.") % {"n": table.number})
    return _back(round_)


ROUND_ACTIONS = {
    "details": _action_details,
    "checkin": _action_checkin,
    "generate": _action_generate,
    "swap": _action_swap,
    "publish": _action_publish,
    "close": _action_close,
    "forfeit": _action_forfeit,
}


@login_required
def round_cards(request, club_slug: str, slug: str, number: int):
    """One printable card per table: the table's QR code, PIN and seats in dealing order."""
    competition, role = organizer_or_404(request, club_slug, slug, manage=True)
    round_ = _round_or_404(competition, number)
    tables, _byes = _round_tables(round_)
    games = [t.game for t in tables if t.game is not None]
    links = {link.game_id: link for link in TableLink.objects.filter(game__in=games)}
    cards = []
    for table in tables:
        game = table.game
        card = {"table": table, "entries": [s.entry for s in table.seats.all()], "game": game}
        if game is not None:
            link = links.get(game.pk) or TableLink.objects.get_or_create(game=game)[0]
            url = table_url(link)
            seats = list(game.seats.all())
            card |= {
                "pin": link.pin,
                "url": url,
                "qr": qr_svg(url),
                "seats": [s.player.display_name for s in seats],
                "sits_out": bool(game.rules.dealer_sits_out_with & {len(seats)}),
            }
        cards.append(card)
    return render(
        request,
        "tournaments/cards.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "round": round_,
            "when": _schedule_row(round_, _zone(competition.club)),
            "cards": cards,
        },
    )


# -- public pages ---------------------------------------------------------------------------


def _public_context(request, competition: Competition, role) -> dict:
    return {
        "club": competition.club,
        "competition": competition,
        "role": role,
        "zone": competition.club.time_zone,
        "games": [RULESETS[k].name for k in competition.rulesets if k in RULESETS],
    }


def public_competition(request, club_slug: str, slug: str):
    """Standings (polled) and the schedule."""
    competition, role = public_or_404(request, club_slug, slug)
    data, version = _snapshot(request, competition)
    zone = _zone(competition.club)
    rounds = list(competition.rounds.order_by("number"))
    return render(
        request,
        "tournaments/public.html",
        _public_context(request, competition, role)
        | {
            "standings": _standings_tables(data),
            "scheme_label": data.get("scheme_label", ""),
            "version": version,
            "schedule": [_schedule_row(r, zone) for r in rounds],
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
            "standings": _standings_tables(data),
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
    round_ = _round_or_404(competition, number)
    if round_.status == RoundStatus.DRAFT and not access.is_manager(role):
        raise Http404
    tables, byes = _round_tables(round_)
    return render(
        request,
        "tournaments/public_round.html",
        _public_context(request, competition, role)
        | {
            "round": round_,
            "when": _schedule_row(round_, _zone(competition.club)),
            "tables": [_public_table(t) for t in tables],
            "byes": byes,
            "links": _games_readable(competition, role),
        },
    )


def _public_table(table: Table) -> dict:
    game = table.game
    seats = []
    if game is not None:
        place = {}
        if game.hand_count:
            place = {p.seat: p.place for p in game.rules.ranking(game.state())}
        seats = [
            {
                "name": s.player.display_name,
                "total": game.totals[s.index] if s.index < len(game.totals) else None,
                "place": place.get(s.index) if game.status == GameStatus.FINISHED else None,
            }
            for s in game.seats.all()
        ]
    else:
        seats = [{"name": s.entry.name, "total": None, "place": None} for s in table.seats.all()]
    return {"table": table, "game": game, "seats": seats}


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
    zone = _zone(competition.club)
    answer = None
    if form.is_bound and form.is_valid():
        entry = next(e for e in entries if e.pk == form.cleaned_data["entry"])
        answer = _where(competition, entry, zone)
    return render(
        request,
        "tournaments/where.html",
        _public_context(request, competition, role) | {"form": form, "answer": answer},
        status=400 if form.errors else 200,
    )


def _where(competition: Competition, entry: Entry, zone) -> dict:
    playing = (
        competition.rounds.filter(status=RoundStatus.PUBLISHED)
        .filter(tables__seats__entry=entry)
        .order_by("number")
        .first()
    )
    if playing is None:
        playing = (
            competition.rounds.filter(status=RoundStatus.PUBLISHED, byes__entry=entry)
            .order_by("number")
            .first()
        )
    upcoming = competition.rounds.filter(status=RoundStatus.DRAFT).order_by("number").first()
    answer = {"entry": entry, "round": None, "next": None}
    if upcoming is not None:
        answer["next"] = _schedule_row(upcoming, zone)
    if playing is None:
        return answer
    answer["round"] = _schedule_row(playing, zone)
    seat = (
        TableSeat.objects.filter(table__round=playing, entry=entry)
        .select_related("table__game")
        .first()
    )
    if seat is None:
        answer["bye"] = True
        return answer
    table = seat.table
    others = [
        s.entry
        for s in table.seats.select_related("entry__player", "entry__partner").order_by("position")
    ]
    n_entries = len(others)
    if competition.pairs:
        seats = [seat.position + 1, seat.position + 1 + n_entries]
    else:
        seats = [seat.position + 1]
    answer |= {
        "table": table,
        "seats": seats,
        "deals_first": seat.position == 0,
        "with": [e for e in others if e.pk != entry.pk],
        "game": table.game,
    }
    return answer


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
        tables = [_public_table(t) for t in _round_tables(current)[0]]
    return render(
        request,
        "tournaments/projector.html",
        _public_context(request, competition, role)
        | {
            "standings": _standings_tables(data) if show != "tables" else [],
            "scheme_label": data.get("scheme_label", ""),
            "version": version,
            "current": current,
            "when": _schedule_row(current, _zone(competition.club)) if current else None,
            "tables": tables,
            "show": show,
        },
    )


# -- iCalendar and CSV ----------------------------------------------------------------------


def ics_escape(text: str) -> str:
    """TEXT value escaping of RFC 5545 (3.3.11)."""
    return (
        str(text)
        .replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\r", "\\n")
        .replace("\n", "\\n")
    )


def ics_fold(line: str) -> str:
    """Lines longer than 75 octets are folded: CRLF and a space (RFC 5545 3.1), never inside
    a UTF-8 character."""
    parts, current, limit = [], b"", 75
    for char in line:
        encoded = char.encode("utf-8")
        if len(current) + len(encoded) > limit:
            parts.append(current.decode("utf-8"))
            current, limit = b"", 74
        current += encoded
    parts.append(current.decode("utf-8"))
    return "\r\n ".join(parts)


def _utc(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def calendar_ics(request, club_slug: str, slug: str):
    """An iCalendar feed: one VEVENT per dated round (times in UTC, computed from the club's
    wall-clock date, start time and duration)."""
    competition, _role = public_or_404(request, club_slug, slug)
    club = competition.club
    zone = _zone(club)
    host = urlsplit(settings.SITE_URL).hostname or "segnapunti"
    stamp = _utc(timezone.now())
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Segnapunti//Competitions//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{ics_escape(competition.name)}",
        f"X-WR-TIMEZONE:{club.time_zone}",
    ]
    for round_ in competition.rounds.filter(date__isnull=False).order_by("number"):
        game = RULESETS[round_.ruleset].name if round_.ruleset in RULESETS else round_.ruleset
        url = settings.SITE_URL + reverse(
            "public-round", args=[club.slug, competition.slug, round_.number]
        )
        lines += [
            "BEGIN:VEVENT",
            f"UID:segnapunti-round-{round_.pk}@{host}",
            f"DTSTAMP:{stamp}",
        ]
        times = _times(round_, zone)
        if times is None:
            lines += [
                f"DTSTART;VALUE=DATE:{round_.date:%Y%m%d}",
                f"DTEND;VALUE=DATE:{round_.date + dt.timedelta(days=1):%Y%m%d}",
            ]
        else:
            lines += [f"DTSTART:{_utc(times[0])}", f"DTEND:{_utc(times[1])}"]
        summary = _("%(competition)s · round %(n)s") % {
            "competition": competition.name,
            "n": round_.number,
        }
        lines += [
            f"SUMMARY:{ics_escape(summary)}",
            f"DESCRIPTION:{ics_escape(f'{game}. {url}')}",
            f"LOCATION:{ics_escape(club.name)}",
            f"URL:{url}",
            "STATUS:CONFIRMED",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    body = "".join(ics_fold(line) + "\r\n" for line in lines)
    response = HttpResponse(body.encode("utf-8"), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{competition.slug}.ics"'
    return response


def standings_csv(request, club_slug: str, slug: str):
    """The standings as a spreadsheet: semicolons, a header row; ``?bom=1`` starts the file
    with a UTF-8 BOM and ``?decimal=comma`` writes 1,5 instead of 1.5; ``?table=<game>`` picks
    a game's table of a mixed league."""
    competition, _role = public_or_404(request, club_slug, slug)
    data = selectors.standings_of(competition)
    wanted = request.GET.get("table", "overall")
    table = next((t for t in data["tables"] if t["key"] == wanted), data["tables"][0])
    comma = request.GET.get("decimal") == "comma"
    columns = [(key, str(TIE_BREAK_LABELS.get(key, label))) for key, label in table["columns"]]
    columns = [c for c in columns if c[0] != "points"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(
        [
            _("Rank"),
            _("Name"),
            _("Points"),
            *[label for _key, label in columns],
            _("Games"),
            _("Rounds"),
            _("Status"),
        ]
    )
    for row in table["rows"]:
        if row["withdrawn"]:
            state = _("withdrawn")
        elif not row["ranked"]:
            state = _("not ranked")
        else:
            state = ""
        writer.writerow(
            [
                row["rank"] if row["ranked"] and row["rank"] is not None else "",
                row["name"],
                _number(row["points"], comma=comma),
                *[_number(row["values"].get(key), comma=comma) for key, _label in columns],
                row["games"],
                row["rounds"],
                state,
            ]
        )
    text = ("\ufeff" if request.GET.get("bom") == "1" else "") + buffer.getvalue()
    response = HttpResponse(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
    suffix = "" if table["key"] == "overall" else f"-{table['key']}"
    response["Content-Disposition"] = (
        f'attachment; filename="{competition.slug}{suffix}-standings.csv"'
    )
    return response
