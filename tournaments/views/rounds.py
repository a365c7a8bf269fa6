"""The organizer's page of a round and its printable table cards.

The round page shows the draw and acts on it through ``ROUND_ACTIONS`` (one handler per form:
details, check-in, draw, swap, publish, close, forfeit). Each handler calls one service and
redirects back, or leaves its bound form with the errors for the page to show again (400). A
large draw goes to a Celery task and the page waits for it (``?drawing=``); if the task's draw
was refused, the page says why and what to do until a draw succeeds (``draw_notice``).
"""

from __future__ import annotations

import datetime as dt
import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import access
from scoring.messages import DRAW_REFUSED_ADVICE, message
from scoring.models import TableLink
from scoring.rules import RuleViolation
from scoring.views import qr_svg, table_url
from tournaments import selectors, services, tasks
from tournaments.forms import (
    CheckInForm,
    ForfeitForm,
    GenerateForm,
    RoundForm,
    SwapForm,
)
from tournaments.models import (
    CheckIn,
    Competition,
    CompetitionEvent,
    EntryStatus,
    Format,
    Round,
    RoundStatus,
    Table,
)
from tournaments.presenters import club_zone, metrics_rows, public_table, schedule_row, table_done
from tournaments.views.access import call_service, organizer_or_404, round_or_404, round_tables

#: Rounds with more participants than this are drawn by a Celery task.
TASK_THRESHOLD = 60


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
    # ASCII digits, bounded: "²" is a digit to isdigit() but not to int().
    at = at if re.fullmatch(r"[0-9]{1,10}", at) else ""
    if not re.fullmatch(r"[0-9]{1,18}", since) or round_.status != RoundStatus.DRAFT:
        return None
    if CompetitionEvent.objects.filter(
        competition=round_.competition,
        round=round_,
        action__in=("generate_round", "draw_refused"),
        pk__gt=int(since),
    ).exists():
        return None
    asked = dt.datetime.fromtimestamp(int(at), tz=dt.UTC) if at else timezone.now()
    return "late" if timezone.now() - asked > DRAW_PATIENCE else "waiting"


def draw_notice(round_: Round) -> dict[str, object] | None:
    """The refused background draw of a draft round, in words: when, who asked, why, and what
    to do. None once a draw succeeded (or the round was published)."""
    stored = round_.draw_problem
    if not stored or round_.status != RoundStatus.DRAFT:
        return None
    return {
        "at": dt.datetime.fromisoformat(stored["at"]),
        "by_name": stored.get("by_name") or "",
        "messages": [message(p) for p in services.draw_problems(round_)],
        "advice": DRAW_REFUSED_ADVICE,
    }


@login_required
def round_page(request, club_slug: str, slug: str, number: int):
    competition, role = organizer_or_404(request, club_slug, slug, manage=request.method == "POST")
    round_ = round_or_404(competition, number)
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
    tables, byes = round_tables(round_)
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
                "scores": public_table(table)["seats"] if game else [],
                "done": table_done(table),
                "forfeit": forfeit,
            }
        )
    zone = club_zone(competition.club)
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
            "when": schedule_row(round_, zone),
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
            "draw_notice": draw_notice(round_),
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
        call_service(
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
        present = call_service(
            services.set_check_ins,
            round_=round_,
            entries=form.cleaned_data["present"],
            by=access.actor_for(request),
        )
    except RuleViolation as violation:
        errors["checkin"] = [message(p) for p in violation.problems]
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
        call_service(
            services.generate_round,
            round_=round_,
            by=access.actor_for(request),
            seed=seed,
            method=method,
        )
    except RuleViolation as violation:
        errors["generate"] = [message(p) for p in violation.problems]
        return None
    messages.success(request, _("The tables of round %(n)s are drawn.") % {"n": round_.number})
    return _back(round_)


def _action_swap(request, competition, round_, bound, errors):
    tables, byes = round_tables(round_)
    choices = [(s.entry_id, s.entry.name) for t in tables for s in t.seats.all()]
    choices += [(e.pk, e.name) for e in byes]
    form = SwapForm(request.POST, choices=choices)
    bound["swap"] = form
    if not form.is_valid():
        return None
    try:
        call_service(
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
        call_service(services.publish_round, round_=round_, by=access.actor_for(request))
    except RuleViolation as violation:
        errors["publish"] = [message(p) for p in violation.problems]
        return None
    messages.success(
        request, _("Round %(n)s is published: its games are open.") % {"n": round_.number}
    )
    return _back(round_)


def _action_close(request, competition, round_, bound, errors):
    try:
        call_service(services.close_round, round_=round_, by=access.actor_for(request))
    except RuleViolation as violation:
        errors["close"] = [message(p) for p in violation.problems]
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
        call_service(
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
    round_ = round_or_404(competition, number)
    tables, _byes = round_tables(round_)
    games = [t.game for t in tables if t.game is not None]
    links = {link.game_id: link for link in TableLink.objects.filter(game__in=games)}
    cards = []
    for table in tables:
        game = table.game
        card = {"table": table, "entries": [s.entry for s in table.seats.all()], "game": game}
        if game is not None:
            link = links.get(game.pk) or TableLink.objects.get_or_create(game=game)[0]
            url = table_url(link, request)
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
            "when": schedule_row(round_, club_zone(competition.club)),
            "cards": cards,
        },
    )
