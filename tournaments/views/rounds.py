"""The organizer's page of a round.

The round page shows the draw and acts on it through ``ROUND_ACTIONS`` (one handler per form:
details, check-in, draw, swap, timer, publish, close, forfeit, delete, bye, late seat; and a
published round's changes, ``views.changes``). Each
handler calls one service and redirects back, or leaves its bound form (or its refusal, in
``errors``) for the page to show again (400). A large draw goes to a Celery task and the page
waits for it (``?drawing=``); if the task's draw was refused, the page says why and what to do
until a draw succeeds (``presenters.draw_notice``). The printable cards and score sheets are
``views.printouts``.
"""

from __future__ import annotations

import datetime as dt
import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import access
from scoring.forms.once import EXPIRED
from scoring.services import queue, submissions
from scoring.views.access import submit
from tournaments import selectors, services, tasks
from tournaments.extensions import ROUND_PAGE_SECTIONS
from tournaments.forms import (
    CheckInForm,
    ForfeitForm,
    GenerateForm,
    RoundForm,
    SwapForm,
    next_round_initial,
)
from tournaments.models import Competition, Entry, Format, Round, RoundStatus
from tournaments.presenters import (
    club_zone,
    draw_notice,
    draw_quality,
    public_table,
    schedule_row,
    swap_words,
    swiss_method,
    table_done,
    timer_of,
    unseated_rows,
)
from tournaments.views.access import attempt_into, organizer_or_404, round_or_404
from tournaments.views.changes import CHANGE_ACTIONS, change_forms, swap_choices

#: Rounds with more participants than this are drawn by a Celery task.
TASK_THRESHOLD = 60

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
    if selectors.draw_ended_since(round_, int(since)):
        return None
    asked = dt.datetime.fromtimestamp(int(at), tz=dt.UTC) if at else timezone.now()
    return "late" if timezone.now() - asked > DRAW_PATIENCE else "waiting"


@login_required
def round_page(request, club_slug: str, slug: str, number: int):
    competition, role = organizer_or_404(request, club_slug, slug, manage=request.method == "POST")
    round_ = round_or_404(competition, number)
    bound: dict[str, object] = {}
    errors: dict[str, list[str]] = {}
    status = 200
    if request.method == "POST":
        handler = ROUND_ACTIONS.get(request.POST.get("action", ""))
        if handler is None:
            return HttpResponseBadRequest(_("Unknown action."))
        answer = handler(request, competition, round_, bound, errors)
        if answer is not None:
            return answer
        status = 200 if bound.pop("ok", False) else 400
        round_.refresh_from_db()
    tables, byes = selectors.round_tables(round_)
    zone = club_zone(competition.club)
    context = {
        "club": competition.club,
        "competition": competition,
        "role": role,
        "manager": access.is_manager(role),
        "round": round_,
        "when": schedule_row(round_, zone),
        "zone": competition.club.time_zone,
        "byes": byes,
        "timer": timer_of(round_, timezone.now())
        if round_.status == RoundStatus.PUBLISHED
        else None,
        "rotation": competition.format == Format.ROTATION,
        "planned_together": round_.method in ("rotation", "round_robin"),
        "errors": errors,
        "drawing": _drawing(request, round_),
        "draw_notice": draw_notice(selectors.draw_refusal(round_)),
        "self_url": reverse("round", args=[club_slug, slug, number]),
        "club_night": competition.format == Format.CLUB_NIGHT,
        "swiss_first": _swiss_first(competition, round_),
        "swiss_method": swiss_method(round_.method, _swiss_first(competition, round_))
        if _swiss(competition, round_)
        else None,
        "task_threshold": TASK_THRESHOLD,
        "next_round": _next_round(competition, round_),
        # The publish button is sent once: a double tap publishes once, the second is shown it.
        "publish_once": submissions.issue_token(request.user, "publish_round"),
        "confirm_close": bound.get("confirm_close", False),
        # What the apps add (``ROUND_PAGE_SECTIONS``: self check-in, who is here and missing).
        "app_sections": mark_safe("".join(hook(request, round_) for hook in ROUND_PAGE_SECTIONS)),
    }
    context |= _table_rows(tables, bound)
    context |= _round_forms(competition, round_, tables, byes, bound)
    context |= _draw_quality(competition, round_, tables, bound)
    context |= _unseated(round_)
    context |= change_forms(request, round_, tables, bound)
    return render(request, "tournaments/round.html", context, status=status)


def _swiss(competition: Competition, round_: Round) -> bool:
    """A Swiss round (not a round of the knockout that follows the cut)."""
    return competition.format == Format.SWISS and not competition.bracket_round(round_.number)


def _swiss_first(competition: Competition, round_: Round) -> bool:
    """A Swiss round 1: nothing published before it, so it is drawn by rating or at random (or
    in the order entered, as the organizer chooses)."""
    return _swiss(competition, round_) and not selectors.played_before(round_)


def _table_rows(tables, bound) -> dict[str, object]:
    """Each table with its entries, game, scores, whether it is done and its forfeit form (the
    one posted, for the table it names)."""
    posted = bound.get("forfeit")
    rows = []
    for table in tables:
        seated = [s.entry for s in table.seats.all()]
        forfeit = (
            posted
            if posted is not None and posted.data.get("table") == str(table.number)
            else ForfeitForm(seats=seated, initial={"table": table.number})
        )
        game = table.game
        shown = public_table(table)
        rows.append(
            {
                "table": table,
                "entries": seated,
                "game": game,
                "shown": shown,  # its seats or pairs with their totals, a match's score
                "done": table_done(table),
                "forfeit": forfeit,
            }
        )
    return {"tables": rows, "open_tables": [r["table"].number for r in rows if not r["done"]]}


def _round_forms(competition, round_, tables, byes, bound) -> dict[str, object]:
    """The round's forms, bound as posted or prefilled: its details, who is present (nobody
    checked in yet: those present at the last round that took a check-in, so that one tap
    confirms a regular crowd; withdrawn entries are not offered anyway), the draw and the swap."""
    entries = _who_may_check_in(competition, round_)
    present = selectors.present_at(round_)
    carried_from, ticked = None, present
    if not present and round_.status == RoundStatus.DRAFT:
        earlier = selectors.last_check_in(competition, before=round_.number)
        if earlier is not None:
            carried_from = earlier[0]
            ticked = earlier[1] & {e.pk for e in entries}
    details = {
        "ruleset": round_.ruleset,
        "date": round_.date,
        "start_time": round_.start_time,
        "duration_minutes": round_.duration_minutes,
    }
    swiss_first = _swiss_first(competition, round_)
    generate = {
        "seed": None,
        "method": round_.method or "rotation",
        "objective": competition.repeat_objective,
    }
    if swiss_first:
        generate["method"] = "entered" if round_.method == "entered" else "drawn"
    return {
        "details_form": bound.get("details") or RoundForm(competition=competition, initial=details),
        "checkin_form": bound.get("checkin")
        or CheckInForm(
            entries=entries,
            initial={"present": sorted(ticked), "shown": ",".join(map(str, sorted(present)))},
        ),
        "present_count": len(present),
        "ticked_count": len(ticked),
        "carried_from": carried_from,
        "generate_form": bound.get("generate") or GenerateForm(initial=generate, swiss=swiss_first),
        "swap_form": bound.get("swap")
        or SwapForm(choices=swap_choices(tables, byes, round_.status)),
    }


def _who_may_check_in(competition, round_):
    """The active entries, or those still in the bracket for a round of one."""
    entries = selectors.entries_of(competition, active_only=True)
    field = selectors.still_in_bracket(competition, round_)
    return entries if field is None else [e for e in entries if e.pk in field]


def _draw_quality(competition, round_, tables, bound) -> dict[str, object]:
    """The quality of a draft round's draw in words, and what the swap asked for would change
    (``preview``)."""
    if round_.status != RoundStatus.DRAFT or not tables:
        return {"quality": None, "preview": None}
    names = {e.pk: e.name for e in selectors.entries_of(competition)}
    drawn = selectors.drawn_tables(competition)
    groups = selectors.draw_groups(competition)  # teams at mixed tables: team-mates counted
    quality = draw_quality(round_.metrics or {}, drawn, round_.number, names, groups)
    preview = None
    if "preview" in bound:
        preview = swap_words(bound["preview"], drawn, round_.number, names, groups) | {
            "a": bound["swap"].cleaned_data["a"],
            "b": bound["swap"].cleaned_data["b"],
        }
    return {"quality": quality, "preview": preview}


def _unseated(round_: Round) -> dict[str, object]:
    """Who a drawn round leaves out, each with why, and the tables they may still join."""
    missing = selectors.unseated(round_) if round_.status != RoundStatus.CLOSED else []
    rows = unseated_rows(round_, missing)
    return {"unseated": rows, "late_tables": selectors.late_seat_tables(round_) if rows else []}


def _next_round(competition: Competition, round_: Round) -> dict[str, object] | None:
    """After a round is closed: the round that follows it, or what adding it would fill in
    (the competition page's add-round form, prefilled from the calendar)."""
    if round_.status != RoundStatus.CLOSED:
        return None
    following = selectors.round_after(competition, round_.number)
    if following is not None:
        return {"number": following.number}
    return {"add": next_round_initial(competition, selectors.last_round(competition))}


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
    submit(
        form,
        services.update_round,
        round_=round_,
        by=access.actor_for(request),
        date=data.get("date"),
        start_time=data.get("start_time"),
        duration_minutes=data["duration_minutes"],
        ruleset=data.get("ruleset") or None,
    )
    if form.errors:
        return None
    messages.success(request, _("Round %(n)s saved.") % {"n": round_.number})
    return _back(round_)


def _action_checkin(request, competition, round_, bound, errors):
    entries = _who_may_check_in(competition, round_)
    form = CheckInForm(request.POST, entries=entries)
    bound["checkin"] = form
    if not form.is_valid():
        return None
    present = attempt_into(
        errors,
        "checkin",
        services.set_check_ins,
        round_=round_,
        entries=form.cleaned_data["present"],
        shown=form.cleaned_data["shown"],
        by=access.actor_for(request),
    )
    if present is None:
        return None
    messages.success(
        request,
        ngettext("%(count)s player present.", "%(count)s players present.", len(present))
        % {"count": len(present)},
    )
    return _back(round_)


def _action_generate(request, competition, round_, bound, errors):
    swiss_first = _swiss_first(competition, round_)
    form = GenerateForm(request.POST, swiss=swiss_first)
    bound["generate"] = form
    if not form.is_valid():
        return None
    seed = form.cleaned_data.get("seed")
    chooses = competition.format == Format.CLUB_NIGHT or swiss_first
    method = (form.cleaned_data.get("method") if chooses else None) or None
    objective = form.cleaned_data.get("objective") or None
    objective = objective if competition.format == Format.ROTATION else None
    if round_.status == RoundStatus.DRAFT and selectors.participant_count(round_) > TASK_THRESHOLD:
        since = selectors.last_event_id(competition)
        queue.enqueue_on_commit(
            tasks.generate_round, round_.pk, request.user.pk, seed, method, objective
        )
        messages.info(request, _("Drawing the tables…"))
        return _back(round_, drawing=since, at=int(timezone.now().timestamp()))
    drawn = attempt_into(
        errors,
        "generate",
        services.generate_round,
        round_=round_,
        by=access.actor_for(request),
        seed=seed,
        method=method,
        objective=objective,
    )
    if drawn is None:
        return None
    messages.success(request, _("The tables of round %(n)s are drawn.") % {"n": round_.number})
    return _back(round_)


def _action_publish(request, competition, round_, bound, errors):
    by = access.actor_for(request)
    sent = request.POST.get("once") or ""
    token = submissions.read_token(sent, request.user, "publish_round") if sent else None
    if sent and token is None:
        errors["publish"] = [str(EXPIRED)]
        return None
    here = reverse("round", args=[competition.club.slug, competition.slug, round_.number])
    try:
        with submissions.once(token=token, by=by, purpose="publish_round") as made:
            published = attempt_into(
                errors, "publish", services.publish_round, round_=round_, by=by
            )
            if published is not None:
                made(here)
    except submissions.AlreadySubmitted:
        return redirect(here)
    if published is None:
        return None
    messages.success(
        request, _("Round %(n)s is published: its games are open.") % {"n": round_.number}
    )
    return _back(round_)


def _action_close(request, competition, round_, bound, errors):
    if request.POST.get("confirm") != "yes":
        # The first press only asks: closing ends the round's games for good.
        bound["confirm_close"] = bound["ok"] = True
        return None
    by = access.actor_for(request)
    if attempt_into(errors, "close", services.close_round, round_=round_, by=by) is None:
        return None
    messages.success(request, _("Round %(n)s is closed.") % {"n": round_.number})
    return _back(round_)


def _action_forfeit(request, competition, round_, bound, errors):
    number = request.POST.get("table", "")
    table = selectors.round_table(round_, int(number) if number.isdigit() else 0)
    if table is None:
        raise Http404
    table.round = round_
    form = ForfeitForm(request.POST, seats=[s.entry for s in table.seats.all()])
    bound["forfeit"] = form
    if not form.is_valid():
        return None
    submit(
        form,
        services.forfeit_table,
        table=table,
        by=access.actor_for(request),
        reason=form.cleaned_data["reason"],
        points=form.points(),
    )
    if form.errors:
        return None
    messages.success(request, _("Table %(n)s was settled by forfeit.") % {"n": table.number})
    return _back(round_)


def _action_delete(request, competition, round_, bound, errors):
    number = round_.number
    deleted = attempt_into(
        errors,
        "delete",
        services.delete_round,
        round_=round_,
        by=access.actor_for(request),
        reason=request.POST.get("reason", ""),
    )
    if deleted is None:
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
    by = access.actor_for(request)
    if attempt_into(errors, "bye", services.give_bye, round_=round_, entry=entry, by=by) is None:
        return None
    messages.success(
        request, _("%(name)s has a bye in round %(n)s.") % {"name": entry.name, "n": round_.number}
    )
    return _back(round_)


def _action_seat(request, competition, round_, bound, errors):
    """A late entrant joins a table of the published round whose game has not started."""
    entry = _posted_entry(request, competition)
    raw_table = request.POST.get("table", "")
    table = attempt_into(
        errors,
        "bye",
        services.seat_late_entrant,
        round_=round_,
        entry=entry,
        table=int(raw_table) if raw_table.isdigit() and len(raw_table) < 19 else 0,
        by=access.actor_for(request),
    )
    if table is None:
        return None
    messages.success(
        request,
        _("%(name)s now plays at table %(table)s: print its card again (its game is new).")
        % {"name": entry.name, "table": table.number},
    )
    return _back(round_)


def _action_timer(request, competition, round_, bound, errors):
    """Start, pause or reset the round timer shown on the projector."""
    attempt_into(
        errors,
        "timer",
        services.set_round_timer,
        round_=round_,
        by=access.actor_for(request),
        action=request.POST.get("timer", ""),
    )
    return None if "timer" in errors else _back(round_)


ROUND_ACTIONS = {
    "details": _action_details,
    "checkin": _action_checkin,
    "generate": _action_generate,
    "timer": _action_timer,
    "publish": _action_publish,
    "close": _action_close,
    "forfeit": _action_forfeit,
    "delete": _action_delete,
    "bye": _action_bye,
    "seat": _action_seat,
    **CHANGE_ACTIONS,
}
