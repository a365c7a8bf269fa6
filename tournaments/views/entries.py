"""The organizer's page of a competition's entries: players (or pairs) entered, withdrawn and
reinstated.

It lives under ``/c/<club>/k/<competition>/entries/``; a posted form names its action
(``ENTRY_ACTIONS``; none: new entries), calls one service and redirects back, or leaves the form
with its refusals for the page to show again (400).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import access
from scoring.messages import message
from scoring.rules import RuleViolation
from scoring.views.access import call_service, submit
from tournaments import selectors, services
from tournaments.forms import EntriesForm, PairForm, WithdrawForm
from tournaments.models import Competition, Entry
from tournaments.views.access import attempt_into, organizer_or_404


@login_required
def entries_page(request, club_slug: str, slug: str):
    competition, role = organizer_or_404(request, club_slug, slug, manage=request.method == "POST")
    pairs = competition.pairs
    page = {
        "form": (PairForm if pairs else EntriesForm)(competition=competition),
        "withdraw": {},
        "reinstate": {},
    }
    status = 200
    if request.method == "POST":
        handler = ENTRY_ACTIONS.get(request.POST.get("action"), _add)
        answer = handler(request, competition, page)
        if answer is not None:
            return answer
        status = 400
    return render(
        request,
        "tournaments/entries.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "manager": access.is_manager(role),
            "form": page["form"],
            "pairs": pairs,
            "entries": [
                {
                    "entry": e,
                    "withdraw": page["withdraw"].get(e.pk)
                    or WithdrawForm(initial={"entry": e.pk}, auto_id=f"id_withdraw_{e.pk}_%s"),
                    "reinstate_errors": page["reinstate"].get(e.pk),
                }
                for e in selectors.entries_of(competition)
            ],
            "started": selectors.started(competition),
            "to_fix": _to_fix(request, competition),
        },
        status=status,
    )


def _to_fix(request, competition: Competition) -> dict | None:
    """After a withdrawal (``?withdrawn=<entry>``): the tables of published rounds where the
    entry is still seated, each with the round page's change that fixes it (None: none)."""
    raw = request.GET.get("withdrawn", "")
    if not raw.isdigit() or len(raw) > 18:
        return None
    entry = competition.entries.filter(pk=int(raw)).select_related("player", "partner").first()
    seats = selectors.open_seats_of(entry) if entry is not None else []
    if not seats:
        return None
    slugs = (competition.club.slug, competition.slug)
    for seat in seats:
        url = reverse("round", args=[*slugs, seat["round"]])
        seat["replace_url"] = f"{url}?absent={entry.pk}#change-replace"
        seat["redraw_url"] = f"{url}#change-redraw"
    return {"entry": entry, "seats": seats}


def _back(competition: Competition):
    return redirect("competition-entries", club_slug=competition.club.slug, slug=competition.slug)


def _entry(competition: Competition, pk: int) -> Entry:
    """The entry ``pk`` of the competition (404 for any other)."""
    entry = get_object_or_404(
        Entry.objects.select_related("player", "partner"), competition=competition, pk=pk
    )
    entry.competition = competition
    return entry


def _reinstate(request, competition, page):
    raw = request.POST.get("entry", "")
    entry = _entry(competition, int(raw) if raw.isdigit() else 0)
    by = access.actor_for(request)
    if attempt_into(page["reinstate"], entry.pk, services.reinstate_entry, entry=entry, by=by):
        messages.success(request, _("%(name)s is back in.") % {"name": entry.name})
        return _back(competition)
    return None


def _withdraw(request, competition, page):
    raw = request.POST.get("entry", "")
    form = WithdrawForm(request.POST, auto_id=f"id_withdraw_{raw if raw.isdigit() else 0}_%s")
    if form.is_valid():
        entry = _entry(competition, form.cleaned_data["entry"])
        by, reason = access.actor_for(request), form.cleaned_data["reason"]
        if submit(form, services.withdraw_entry, entry=entry, by=by, reason=reason):
            messages.success(request, _("%(name)s withdrew.") % {"name": entry.name})
            if selectors.open_seats_of(entry):  # the page offers the change of that table
                return redirect(f"{_back(competition).url}?withdrawn={entry.pk}#to-fix")
            return _back(competition)
    entry_id = form.data.get("entry")
    if str(entry_id).isdigit():
        page["withdraw"][int(entry_id)] = form
    return None


def _add(request, competition, page):
    """New entries: players of the club ticked and new names (or one pair)."""
    pairs = competition.pairs
    form = page["form"] = (PairForm if pairs else EntriesForm)(
        request.POST, competition=competition
    )
    if not form.is_valid():
        return None
    added = _add_entries(form, competition, access.actor_for(request), pairs)
    if added:
        messages.success(
            request,
            ngettext("%(count)s entry added.", "%(count)s entries added.", len(added))
            % {"count": len(added)},
        )
    if not form.errors:
        return _back(competition)
    if added and not pairs:  # the choices no longer list those just entered
        form.fields["players"].choices = (
            EntriesForm(competition=competition).fields["players"].choices
        )
    return None


def _add_entries(form, competition, by, pairs) -> list[Entry]:
    if pairs:
        entry = submit(
            form, services.add_entry, competition=competition, by=by, **form.service_arguments()
        )
        return [entry] if entry is not None else []
    added = []
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


ENTRY_ACTIONS = {"reinstate": _reinstate, "withdraw": _withdraw}
