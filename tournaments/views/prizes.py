"""The prize list (organizers) and the final results sheet with the prizes (to print).

``/c/<club>/k/<competition>/prizes/``: the club's rules, the prizes by category and rank, and
who wins them on the standings as they are (provisional until the results are final).
``…/prizes/results/``: the overall standings with each entry's prizes and the category
winners, laid out for paper. The public page shows the prizes once the results are final
(``views.public``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from scoring import access
from scoring.views.access import submit
from tournaments import selectors, services
from tournaments.forms.prizes import PrizeForm, PrizeRulesForm
from tournaments.models import Prize
from tournaments.presenters import standings_tables
from tournaments.views.access import attempt_into, organizer_or_404


def _forms(competition):
    rules = selectors.prize_rules(competition)
    return {
        "rules_form": PrizeRulesForm(initial={"ties": rules.ties, "both": rules.both}),
        "prize_form": PrizeForm(
            categories=selectors.categories(competition), currency=competition.club.currency
        ),
        "errors": {},
    }


@login_required
def prizes_page(request, club_slug: str, slug: str):
    competition, role = organizer_or_404(request, club_slug, slug, manage=request.method == "POST")
    page = _forms(competition)
    status = 200
    if request.method == "POST":
        handler = ACTIONS.get(request.POST.get("action", ""))
        answer = handler(request, competition, page) if handler else None
        if answer is not None:
            return answer
        status = 400
    listed = selectors.prize_list(competition)
    return render(
        request,
        "tournaments/prizes.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "manager": access.is_manager(role),
            "prizes": [row | {"errors": page["errors"].get(row["prize"].pk)} for row in listed],
            "awards": selectors.awarded(competition),
            **page,
        },
        status=status,
    )


def _back(competition):
    return redirect("competition-prizes", club_slug=competition.club.slug, slug=competition.slug)


def _rules(request, competition, page):
    form = page["rules_form"] = PrizeRulesForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        by = access.actor_for(request)
        arguments = {"ties": data["ties"], "both": data["both"]}
        if submit(form, services.set_prize_rules, competition=competition, by=by, **arguments):
            messages.success(request, _("The prize rules are saved."))
            return _back(competition)
    return None


def _add(request, competition, page):
    form = page["prize_form"] = PrizeForm(
        request.POST,
        categories=selectors.categories(competition),
        currency=competition.club.currency,
    )
    if form.is_valid():
        data = form.cleaned_data
        by = access.actor_for(request)
        if submit(form, services.add_prize, competition=competition, by=by, **data):
            messages.success(request, _("The prize is on the list."))
            return _back(competition)
    return None


def _remove(request, competition, page):
    raw = request.POST.get("prize", "")
    prize = get_object_or_404(Prize, competition=competition, pk=int(raw) if raw.isdigit() else 0)
    prize.competition = competition
    by = access.actor_for(request)
    attempt_into(page["errors"], prize.pk, services.remove_prize, prize=prize, by=by)
    return None if prize.pk in page["errors"] else _back(competition)


ACTIONS = {"rules": _rules, "add": _add, "remove": _remove}


@login_required
def results_sheet(request, club_slug: str, slug: str):
    """The final results with the prizes, to print (members read it; before the results are
    final it says it is provisional)."""
    competition, role = organizer_or_404(request, club_slug, slug)
    awards = selectors.awarded(competition)
    won: dict[int, list[str]] = {}
    for award in awards:
        label = award["prize"]
        if award["category"] != "overall":
            label = f"{award['prize']} ({award['category_label']})"
        won.setdefault(award["entry"], []).append(label)
    tables = standings_tables(selectors.labelled(selectors.standings_of(competition)))
    overall = tables[0] if tables else None
    rows = []
    if overall is not None:
        rows = [
            row | {"prize": " · ".join(won.get(row["entry"], []))}
            for row in overall["ranked"] + overall["unranked"]
        ]
    return render(
        request,
        "tournaments/results_sheet.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "rows": rows,
            "awards": [a for a in awards if a["category"] != "overall"],
        },
    )
