"""The organizer's pages of a competition: a new competition, its dashboard (rounds, schedule,
adjustments) and its entries.

They live under ``/c/<club>/k/<competition>/``; every write is a ``tournaments.services`` call
whose refusals are shown next to the field they name. A round's own page is ``views.rounds``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import access
from scoring.forms.games import ReasonForm
from scoring.messages import message
from scoring.models import Club
from scoring.rules import RuleViolation
from scoring.selectors import role_of
from scoring.views.access import call_service
from tournaments import selectors, services
from tournaments.forms import (
    AdjustForm,
    CompetitionForm,
    CompetitionSettingsForm,
    EntriesForm,
    PairForm,
    RoundForm,
    SeasonForm,
    WithdrawForm,
    next_round_initial,
)
from tournaments.models import Adjustment, Entry, RoundStatus, Table
from tournaments.presenters import club_zone, format_figure, game_names, schedule_row, table_done
from tournaments.views.access import organizer_or_404


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
            competition = call_service(
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
    round_form = RoundForm(competition=competition, initial=next_round_initial(competition, last))
    adjust_form = AdjustForm(entries=entries, rounds=rounds)
    season_form = SeasonForm(
        competition=competition,
        initial={
            "first_date": round_form.initial.get("date"),
            "start_time": round_form.initial.get("start_time"),
        },
    )
    final_form = _final_form(competition)
    status = 200
    if request.method == "POST":
        by = access.actor_for(request)
        action = request.POST.get("action")
        if action == "add_round":
            round_form = RoundForm(request.POST, competition=competition)
            if round_form.is_valid():
                data = round_form.cleaned_data
                try:
                    round_ = call_service(
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
        elif action == "add_season":
            season_form = SeasonForm(request.POST, competition=competition)
            if season_form.is_valid():
                data = season_form.cleaned_data
                try:
                    added = call_service(
                        services.add_season,
                        competition=competition,
                        by=by,
                        first_date=data["first_date"],
                        nights=data["nights"],
                        start_time=data.get("start_time"),
                        weekday=data.get("weekday"),
                        rulesets=data.get("rulesets") or None,
                        duration_minutes=data["duration_minutes"],
                    )
                except RuleViolation as violation:
                    season_form.add_rule_errors(violation)
                else:
                    messages.success(
                        request,
                        ngettext("%(count)s night added.", "%(count)s nights added.", len(added))
                        % {"count": len(added)},
                    )
                    return redirect("competition", club_slug=club_slug, slug=slug)
        elif action == "adjust":
            adjust_form = AdjustForm(request.POST, entries=entries, rounds=rounds)
            if adjust_form.is_valid():
                data = adjust_form.cleaned_data
                entry = next((e for e in entries if e.pk == data["entry"]), None)
                round_ = next((r for r in rounds if r.number == data.get("round")), None)
                try:
                    call_service(
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
                        % {"points": format_figure(data["points"]), "name": entry.name},
                    )
                    return redirect("competition", club_slug=club_slug, slug=slug)
        elif action in ("finalize", "reopen"):
            final_form = _final_form(competition, request.POST)
            if final_form.is_valid():
                service = (
                    services.finalize_competition
                    if action == "finalize"
                    else services.reopen_competition
                )
                try:
                    call_service(
                        service,
                        competition=competition,
                        by=by,
                        reason=final_form.cleaned_data["reason"],
                    )
                except RuleViolation as violation:
                    final_form.add_rule_errors(violation)
                else:
                    messages.success(
                        request,
                        _("The results are final.")
                        if action == "finalize"
                        else _("The competition is open again."),
                    )
                    return redirect("competition", club_slug=club_slug, slug=slug)
        else:
            return HttpResponseBadRequest(_("Unknown action."))
        status = 400
    zone = club_zone(competition.club)
    schedule = []
    for round_ in rounds:
        tables = list(round_.tables.all())
        schedule.append(
            schedule_row(round_, zone)
            | {"tables": len(tables), "done": sum(1 for t in tables if table_done(t))}
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
            # Rounds the competition plans that are not added yet: shown from the start.
            "planned": [
                {"number": n, "label": competition.round_label(n)}
                for n in range(len(rounds) + 1, competition.planned_total + 1)
            ],
            "round_form": round_form,
            "season_form": season_form,
            "adjust_form": adjust_form,
            "final_form": final_form,
            "adjustments": adjustments,
            "games": game_names(competition),
            "zone": competition.club.time_zone,
        },
        status=status,
    )


@login_required
def competition_settings(request, club_slug: str, slug: str):
    """The competition's settings, prefilled; a change of how the standings are counted, once a
    round is played, is saved only after the organizer confirms the warning."""
    competition, role = organizer_or_404(request, club_slug, slug, manage=True)
    played = competition.rounds.exclude(status=RoundStatus.DRAFT).exists()
    form = CompetitionSettingsForm(request.POST or None, competition=competition)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                changed = call_service(
                    services.update_competition,
                    competition=competition,
                    by=access.actor_for(request),
                    confirm=bool(form.cleaned_data.get("confirm")),
                    **form.changes(),
                )
            except RuleViolation as violation:
                form.add_rule_errors(violation)
            else:
                if not changed:
                    messages.info(request, _("Nothing changed."))
                elif played and set(changed) & set(services.COUNTED):
                    messages.success(
                        request, _("Settings saved: the standings are computed again.")
                    )
                else:
                    messages.success(request, _("Settings saved."))
                return redirect("competition", club_slug=club_slug, slug=slug)
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


@login_required
def entries_page(request, club_slug: str, slug: str):
    competition, role = organizer_or_404(request, club_slug, slug, manage=request.method == "POST")
    pairs = competition.pairs
    form_class = PairForm if pairs else EntriesForm
    form = form_class(competition=competition)
    withdraw_forms: dict[int, WithdrawForm] = {}
    reinstate_errors: dict[int, list[str]] = {}
    status = 200
    if request.method == "POST":
        by = access.actor_for(request)
        if request.POST.get("action") == "reinstate":
            raw = request.POST.get("entry", "")
            entry = get_object_or_404(
                Entry.objects.select_related("player", "partner"),
                competition=competition,
                pk=int(raw) if raw.isdigit() else 0,
            )
            entry.competition = competition
            try:
                call_service(services.reinstate_entry, entry=entry, by=by)
            except RuleViolation as violation:
                reinstate_errors[entry.pk] = [message(p) for p in violation.problems]
            else:
                messages.success(request, _("%(name)s is back in.") % {"name": entry.name})
                return redirect("competition-entries", club_slug=club_slug, slug=slug)
        elif request.POST.get("action") == "withdraw":
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
                    call_service(
                        services.withdraw_entry,
                        entry=entry,
                        by=by,
                        reason=withdraw.cleaned_data["reason"],
                    )
                except RuleViolation as violation:
                    for problem in violation.problems:
                        withdraw.add_error(None, message(problem))
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
                    "reinstate_errors": reinstate_errors.get(e.pk),
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
                call_service(
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
            added.append(
                call_service(services.add_entry, competition=competition, by=by, player=player)
            )
        except RuleViolation as violation:
            for problem in violation.problems:
                form.add_error(field, message(problem, label=form.fields[field].label))
    return added
