"""The organizer's pages of a competition: a new competition, its dashboard (rounds, schedule,
adjustments, final results) and its settings.

They live under ``/c/<club>/k/<competition>/``; every write is a ``tournaments.services`` call
whose refusals are shown next to the field they name. The dashboard's posted forms name their
action (``COMPETITION_ACTIONS``). A round's own page is ``views.rounds``, the entries' page
``views.entries``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from scoring import access
from scoring.forms.games import ReasonForm
from scoring.models import Club
from scoring.selectors import role_of
from scoring.services import submissions
from scoring.views.access import submit
from tournaments import selectors, services
from tournaments.extensions import COMPETITION_BUTTONS
from tournaments.forms import (
    AdjustForm,
    CompetitionForm,
    CompetitionSettingsForm,
    RoundForm,
    SeasonForm,
    next_round_initial,
)
from tournaments.presenters import club_zone, format_figure, game_names, schedule_progress
from tournaments.views.access import organizer_or_404


@login_required
def competition_new(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    role = role_of(request.user, club)
    if role is None and not access.can_read_club(request, club, role):
        raise Http404
    if not access.is_manager(role):
        raise PermissionDenied
    form = CompetitionForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        by = access.actor_for(request)
        try:
            # Sent once: the same form again shows the competition it made.
            with submissions.once(
                token=form.once_token(), by=by, purpose="new_competition"
            ) as made:
                competition = submit(
                    form, services.create_competition, club=club, by=by, **form.service_arguments()
                )
                if competition is not None:
                    made(reverse("competition", args=[club.slug, competition.slug]))
        except submissions.AlreadySubmitted as sent:
            return redirect(sent.answer or reverse("club", args=[club.slug]))
        if competition is not None:
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


@login_required
def competition_page(request, club_slug: str, slug: str):
    competition, role = organizer_or_404(request, club_slug, slug, manage=request.method == "POST")
    entries = selectors.entries_of(competition)
    rounds = selectors.schedule_of(competition)
    forms = _dashboard_forms(competition, entries, rounds, request.user)
    status = 200
    if request.method == "POST":
        handler = COMPETITION_ACTIONS.get(request.POST.get("action"))
        if handler is None:
            return HttpResponseBadRequest(_("Unknown action."))
        answer = handler(request, competition, forms, entries, rounds)
        if answer is not None:
            return answer
        status = 400
    zone = club_zone(competition.club)
    return render(
        request,
        "tournaments/competition.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "manager": access.is_manager(role),
            "app_buttons": [
                button
                for hook in COMPETITION_BUTTONS
                for button in hook(competition, access.is_manager(role))
            ],
            "entries": entries,
            "active_count": sum(1 for e in entries if e.active),
            "schedule": [schedule_progress(round_, zone) for round_ in rounds],
            # Rounds the competition plans that are not added yet: shown from the start.
            "planned": [
                {"number": n, "label": competition.round_label(n)}
                for n in range(len(rounds) + 1, competition.planned_total + 1)
            ],
            **forms,
            "adjustments": selectors.adjustments_shown(competition),
            "games": game_names(competition),
            "zone": competition.club.time_zone,
        },
        status=status,
    )


def _dashboard_forms(competition, entries, rounds, user) -> dict[str, object]:
    """The dashboard's forms, unbound: the next round (prefilled from the calendar), a season
    of nights from that date, an adjustment, and declaring the results final (or reopening)."""
    last = rounds[-1] if rounds else None
    round_form = RoundForm(
        competition=competition, user=user, initial=next_round_initial(competition, last)
    )
    season = {
        "first_date": round_form.initial.get("date"),
        "start_time": round_form.initial.get("start_time"),
    }
    return {
        "round_form": round_form,
        "season_form": SeasonForm(competition=competition, initial=season),
        "adjust_form": AdjustForm(entries=entries, rounds=rounds),
        "final_form": _final_form(competition),
    }


def _back(competition):
    return redirect("competition", club_slug=competition.club.slug, slug=competition.slug)


def _add_round(request, competition, forms, entries, rounds):
    form = RoundForm(request.POST, competition=competition, user=request.user)
    forms["round_form"] = form
    if not form.is_valid():
        return None
    data = form.cleaned_data
    by = access.actor_for(request)
    try:
        # Sent once: the same form again (a double tap) shows the round it added.
        with submissions.once(token=form.once_token(), by=by, purpose="add_round") as made:
            round_ = submit(
                form,
                services.add_round,
                competition=competition,
                by=by,
                ruleset=data.get("ruleset") or None,
                date=data.get("date"),
                start_time=data.get("start_time"),
                duration_minutes=data["duration_minutes"],
            )
            if round_ is not None:
                made(
                    reverse("round", args=[competition.club.slug, competition.slug, round_.number])
                )
    except submissions.AlreadySubmitted as sent:
        return redirect(
            sent.answer or reverse("competition", args=[competition.club.slug, competition.slug])
        )
    if round_ is None:
        return None
    messages.success(request, _("Round %(n)s added.") % {"n": round_.number})
    return redirect(
        "round", club_slug=competition.club.slug, slug=competition.slug, number=round_.number
    )


def _add_season(request, competition, forms, entries, rounds):
    form = forms["season_form"] = SeasonForm(request.POST, competition=competition)
    if not form.is_valid():
        return None
    data = form.cleaned_data
    added = submit(
        form,
        services.add_season,
        competition=competition,
        by=access.actor_for(request),
        first_date=data["first_date"],
        nights=data["nights"],
        start_time=data.get("start_time"),
        weekday=data.get("weekday"),
        rulesets=data.get("rulesets") or None,
        duration_minutes=data["duration_minutes"],
    )
    if added is None:
        return None
    messages.success(
        request,
        ngettext("%(count)s night added.", "%(count)s nights added.", len(added))
        % {"count": len(added)},
    )
    return _back(competition)


def _adjust(request, competition, forms, entries, rounds):
    form = forms["adjust_form"] = AdjustForm(request.POST, entries=entries, rounds=rounds)
    if not form.is_valid():
        return None
    data = form.cleaned_data
    entry = next((e for e in entries if e.pk == data["entry"]), None)
    adjusted = submit(
        form,
        services.adjust,
        competition=competition,
        entry=entry,
        points=data["points"],
        reason=data["reason"],
        by=access.actor_for(request),
        round_=next((r for r in rounds if r.number == data.get("round")), None),
    )
    if adjusted is None:
        return None
    messages.success(
        request,
        _("%(points)s points for %(name)s.")
        % {"points": format_figure(data["points"]), "name": entry.name},
    )
    return _back(competition)


def _final(service, done: str):
    """The handler declaring the results final, or reopening them (``service``), with its
    reason; ``done`` says it worked."""

    def handler(request, competition, forms, entries, rounds):
        form = forms["final_form"] = _final_form(competition, request.POST)
        if not form.is_valid():
            return None
        by, reason = access.actor_for(request), form.cleaned_data["reason"]
        if submit(form, service, competition=competition, by=by, reason=reason) is None:
            return None
        messages.success(request, _(done))
        return _back(competition)

    return handler


COMPETITION_ACTIONS = {
    "add_round": _add_round,
    "add_season": _add_season,
    "adjust": _adjust,
    # Translated when the message is shown (``gettext_noop`` marks them for the catalog).
    "finalize": _final(services.finalize_competition, gettext_noop("The results are final.")),
    "reopen": _final(services.reopen_competition, gettext_noop("The competition is open again.")),
}


@login_required
def competition_settings(request, club_slug: str, slug: str):
    """The competition's settings, prefilled; a change of how the standings are counted, once a
    round is played, is saved only after the organizer confirms the warning."""
    competition, role = organizer_or_404(request, club_slug, slug, manage=True)
    played = selectors.started(competition)
    form = CompetitionSettingsForm(request.POST or None, competition=competition)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            changed = submit(
                form,
                services.update_competition,
                competition=competition,
                by=access.actor_for(request),
                confirm=bool(form.cleaned_data.get("confirm")),
                **form.changes(),
            )
            if changed is not None:
                if not changed:
                    messages.info(request, _("Nothing changed."))
                elif played and set(changed) & set(services.COUNTED):
                    messages.success(
                        request, _("Settings saved: the standings are computed again.")
                    )
                else:
                    messages.success(request, _("Settings saved."))
                return _back(competition)
    return render(
        request,
        "tournaments/competition_settings.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "form": form,
            "played": played,
            "ask_confirm": "confirm" in form.errors,
        },
        status=status,
    )


def _final_form(competition, data=None) -> ReasonForm:
    """The reason to declare the results final (optional) or to reopen them (required)."""
    form = ReasonForm(data, auto_id="id_final_%s")
    form.fields["reason"].required = competition.finalized_at is not None
    return form
