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
from scoring.forms.hands import hand_form
from scoring.links import qr_svg, table_url
from scoring.messages import message
from scoring.models import TableLink
from scoring.rules import RuleViolation
from scoring.views.access import call_service
from tournaments import selectors, services, tasks
from tournaments.forms import (
    CheckInForm,
    ForfeitForm,
    GenerateForm,
    RoundForm,
    SwapForm,
    next_round_initial,
)
from tournaments.messages import DRAW_REFUSED_ADVICE
from tournaments.models import (
    CheckIn,
    Competition,
    CompetitionEvent,
    Entry,
    EntryStatus,
    Format,
    Round,
    RoundStatus,
    Table,
)
from tournaments.presenters import (
    club_zone,
    draw_quality,
    public_table,
    schedule_row,
    swap_effect,
    table_done,
    timer_of,
)
from tournaments.views.access import organizer_or_404, round_or_404, round_tables

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
    refusal = selectors.draw_refusal(round_)
    if refusal is None:
        return None
    return {
        "at": dt.datetime.fromisoformat(refusal["at"]),
        "by_name": refusal["by_name"],
        "messages": [message(p) for p in refusal["problems"]],
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
        status = 200 if bound.pop("ok", False) else 400
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
    carried_from = None
    ticked = present
    if not present and round_.status == RoundStatus.DRAFT:
        # Nobody checked in yet: tick who was here at the last round that took a check-in, so
        # that one tap confirms a regular crowd (withdrawn entries are not offered anyway).
        earlier = (
            CheckIn.objects.filter(round__competition=competition, round__number__lt=round_.number)
            .order_by("-round__number")
            .values_list("round__number", flat=True)
            .first()
        )
        if earlier is not None:
            carried_from = earlier
            active = {e.pk for e in entries}
            ticked = {
                e
                for e in CheckIn.objects.filter(
                    round__competition=competition, round__number=earlier
                ).values_list("entry_id", flat=True)
                if e in active
            }
    checkin = bound.get("checkin") or CheckInForm(
        entries=entries, initial={"present": sorted(ticked)}
    )
    swap = bound.get("swap") or SwapForm(choices=_swap_choices(tables, byes))
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
    missing = selectors.unseated(round_) if round_.status != RoundStatus.CLOSED else []
    drawn_at = round_.published_at
    unseated_rows = [
        {
            "entry": e,
            "text": (
                _("%(name)s entered after round %(n)s was drawn and is not seated.")
                if drawn_at is not None and e.registered_at > drawn_at
                else _("%(name)s is not seated in this round.")
            )
            % {"name": e.name, "n": round_.number},
        }
        for e in missing
    ]
    quality = preview = None
    if round_.status == RoundStatus.DRAFT and tables:
        names = {e.pk: e.name for e in selectors.entries_of(competition)}
        drawn = selectors.drawn_tables(competition)
        quality = draw_quality(round_.metrics or {}, drawn, round_.number, names)
        if "preview" in bound:
            found = bound["preview"]
            after = draw_quality(
                found["after"], drawn | {round_.number: found["tables"]}, round_.number, names
            )
            preview = swap_effect(found) | {
                "after_quality": after,
                "a": bound["swap"].cleaned_data["a"],
                "b": bound["swap"].cleaned_data["b"],
            }
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
            "quality": quality,
            "timer": timer_of(round_, timezone.now())
            if round_.status == RoundStatus.PUBLISHED
            else None,
            "preview": preview,
            "rotation": competition.format == Format.ROTATION,
            "planned_together": round_.method in ("rotation", "round_robin"),
            "details_form": details,
            "checkin_form": checkin,
            "present_count": len(present),
            "carried_from": carried_from,
            "generate_form": bound.get("generate")
            or GenerateForm(
                initial={
                    "seed": None,
                    "method": round_.method or "rotation",
                    "objective": competition.repeat_objective,
                }
            ),
            "swap_form": swap,
            "errors": errors,
            "drawing": drawing,
            "draw_notice": draw_notice(round_),
            "self_url": url,
            "club_night": competition.format == Format.CLUB_NIGHT,
            "task_threshold": TASK_THRESHOLD,
            "unseated": unseated_rows,
            "late_tables": selectors.late_seat_tables(round_) if unseated_rows else [],
            "next_round": _next_round(competition, round_),
        },
        status=status,
    )


def _next_round(competition: Competition, round_: Round) -> dict[str, object] | None:
    """After a round is closed: the round that follows it, or what adding it would fill in
    (the competition page's add-round form, prefilled from the calendar)."""
    if round_.status != RoundStatus.CLOSED:
        return None
    following = competition.rounds.filter(number__gt=round_.number).order_by("number").first()
    if following is not None:
        return {"number": following.number}
    last = competition.rounds.order_by("-number").first()
    return {"add": next_round_initial(competition, last)}


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
    objective = form.cleaned_data.get("objective") or None
    objective = objective if competition.format == Format.ROTATION else None
    if round_.status == RoundStatus.DRAFT and _participant_count(round_) > TASK_THRESHOLD:
        since = _last_event_id(competition)
        tasks.generate_round.delay_on_commit(round_.pk, request.user.pk, seed, method, objective)
        messages.info(request, _("Drawing the tables…"))
        return _back(round_, drawing=since, at=int(timezone.now().timestamp()))
    try:
        call_service(
            services.generate_round,
            round_=round_,
            by=access.actor_for(request),
            seed=seed,
            method=method,
            objective=objective,
        )
    except RuleViolation as violation:
        errors["generate"] = [message(p) for p in violation.problems]
        return None
    messages.success(request, _("The tables of round %(n)s are drawn.") % {"n": round_.number})
    return _back(round_)


def _swap_choices(tables, byes) -> list[tuple[int, str]]:
    """Everyone in the round, with the table they sit at (or their bye)."""
    return [
        (seat.entry.pk, _("%(name)s (table %(n)s)") % {"name": seat.entry.name, "n": t.number})
        for t in tables
        for seat in t.seats.all()
    ] + [(e.pk, _("%(name)s (bye)") % {"name": e.name}) for e in byes]


def _swap_form(request, round_, bound) -> SwapForm:
    tables, byes = round_tables(round_)
    form = SwapForm(request.POST, choices=_swap_choices(tables, byes))
    bound["swap"] = form
    return form


def _action_swap_preview(request, competition, round_, bound, errors):
    """What a swap would do, shown before it is saved (nothing written)."""
    form = _swap_form(request, round_, bound)
    if not form.is_valid():
        return None
    try:
        bound["preview"] = services.swap_preview(
            round_=round_, a=form.cleaned_data["a"], b=form.cleaned_data["b"]
        )
    except RuleViolation as violation:
        form.add_rule_errors(violation)
        return None
    bound["ok"] = True
    return None


def _action_swap(request, competition, round_, bound, errors):
    form = _swap_form(request, round_, bound)
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


def _action_delete(request, competition, round_, bound, errors):
    number = round_.number
    try:
        call_service(
            services.delete_round,
            round_=round_,
            by=access.actor_for(request),
            reason=request.POST.get("reason", ""),
        )
    except RuleViolation as violation:
        errors["delete"] = [message(p) for p in violation.problems]
        return None
    messages.success(request, _("Round %(n)s was deleted.") % {"n": number})
    return redirect("competition", club_slug=competition.club.slug, slug=competition.slug)


def _posted_entry(request, competition) -> Entry:
    """The entry of the competition the form names (404 for any other value)."""
    raw = request.POST.get("entry", "")
    return get_object_or_404(
        Entry.objects.select_related("player", "partner"),
        competition=competition,
        pk=int(raw) if raw.isdigit() and len(raw) < 19 else 0,
    )


def _action_bye(request, competition, round_, bound, errors):
    entry = _posted_entry(request, competition)
    try:
        call_service(services.give_bye, round_=round_, entry=entry, by=access.actor_for(request))
    except RuleViolation as violation:
        errors["bye"] = [message(p) for p in violation.problems]
        return None
    messages.success(
        request, _("%(name)s has a bye in round %(n)s.") % {"name": entry.name, "n": round_.number}
    )
    return _back(round_)


def _action_seat(request, competition, round_, bound, errors):
    """A late entrant joins a table of the published round whose game has not started."""
    entry = _posted_entry(request, competition)
    raw_table = request.POST.get("table", "")
    try:
        table = call_service(
            services.seat_late_entrant,
            round_=round_,
            entry=entry,
            table=int(raw_table) if raw_table.isdigit() and len(raw_table) < 19 else 0,
            by=access.actor_for(request),
        )
    except RuleViolation as violation:
        errors["bye"] = [message(p) for p in violation.problems]
        return None
    messages.success(
        request,
        _("%(name)s now plays at table %(table)s: print its card again (its game is new).")
        % {"name": entry.name, "table": table.number},
    )
    return _back(round_)


def _action_timer(request, competition, round_, bound, errors):
    """Start, pause or reset the round timer shown on the projector."""
    try:
        call_service(
            services.set_round_timer,
            round_=round_,
            by=access.actor_for(request),
            action=request.POST.get("timer", ""),
        )
    except RuleViolation as violation:
        errors["timer"] = [message(p) for p in violation.problems]
        return None
    return _back(round_)


ROUND_ACTIONS = {
    "details": _action_details,
    "checkin": _action_checkin,
    "generate": _action_generate,
    "swap": _action_swap,
    "swap_preview": _action_swap_preview,
    "timer": _action_timer,
    "publish": _action_publish,
    "close": _action_close,
    "forfeit": _action_forfeit,
    "delete": _action_delete,
    "bye": _action_bye,
    "seat": _action_seat,
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


#: Minutes a hand takes at a club table, roughly: the score sheets get a row per hand expected
#: in the round's duration, rounded up so that every player deals as often.
MINUTES_PER_HAND = 6


def expected_hands(duration_minutes: int, seats: int) -> int:
    """Rows of a score sheet: the hands expected in ``duration_minutes`` at ``seats`` players,
    a whole number of deals round the table, at least two."""
    hands = max(2 * seats, -(-duration_minutes // MINUTES_PER_HAND))
    return -(-hands // seats) * seats


@login_required
def round_sheets(request, club_slug: str, slug: str, number: int):
    """Printable score sheets, one per table of a published round: the game, the players in
    dealing order, the dealer of every hand filled in, the game's columns (what the hand form
    asks) and a points column per player, with a row per hand expected."""
    competition, role = organizer_or_404(request, club_slug, slug, manage=True)
    round_ = round_or_404(competition, number)
    tables, _byes = round_tables(round_)
    sheets = []
    for table in tables:
        game = table.game
        if game is None:
            continue
        names = [s.player.display_name for s in game.seats.all()]
        form = hand_form(game, names)
        columns = [str(field.label) for key, field in form.fields.items() if key != "dealer"]
        rows = expected_hands(round_.duration_minutes, len(names))
        sheets.append(
            {
                "table": table,
                "game": game,
                "names": names,
                "columns": columns,
                "hands": [{"number": i + 1, "dealer": names[i % len(names)]} for i in range(rows)],
                "sits_out": bool(game.rules.dealer_sits_out_with & {len(names)}),
            }
        )
    return render(
        request,
        "tournaments/sheets.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "round": round_,
            "when": schedule_row(round_, club_zone(competition.club)),
            "sheets": sheets,
        },
    )
