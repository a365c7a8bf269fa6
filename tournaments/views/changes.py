"""The round page's changes of its tables (``services.changes``): two players swapped (a
draft's draw edited, or a published round's two tables seated again), an absent player
replaced by a late entrant or a bye, the tables not started drawn again, and the round taken
back to a draft after a confirmation step (``?unpublish=ask``, no script needed); a closed
round reopened with a reason (``services.reopen_round``) to correct its games.

Each handler calls one service and redirects back to the round, whose page then says which
table cards to print again (``selectors.tables_to_reprint``); or it leaves its bound form, the
service's refusal next to the field it names, for the page to show again (400).
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import access
from scoring.views.access import submit
from tournaments import selectors, services
from tournaments.forms import (
    MoveForm,
    RedrawForm,
    ReopenForm,
    ReplaceForm,
    SwapForm,
    UnpublishForm,
)
from tournaments.models import Round, RoundStatus
from tournaments.presenters import draw_quality, table_done


def _back(round_: Round):
    competition = round_.competition
    return redirect(reverse("round", args=[competition.club.slug, competition.slug, round_.number]))


def _replace_choices(round_: Round, tables) -> dict[str, list[tuple[int, str]]]:
    """The players of the tables still open to a change (no hand, not settled), and the active
    entries with no seat in the round."""
    seated_ids = {s.entry_id for t in tables for s in t.seats.all()}
    seated = [
        (s.entry.pk, _("%(name)s (table %(n)s)") % {"name": s.entry.name, "n": t.number})
        for t in tables
        if not t.forfeited and (t.game is None or t.game.hand_count == 0) and not table_done(t)
        for s in t.seats.all()
    ]
    waiting = [
        (e.pk, e.name)
        for e in selectors.entries_of(round_.competition, active_only=True)
        if e.pk not in seated_ids
    ]
    return {"seated": seated, "waiting": waiting}


def change_forms(request, round_: Round, tables, bound) -> dict[str, object]:
    """The forms of a published round's changes, bound as posted or empty, and the table cards
    to print again."""
    if round_.status == RoundStatus.CLOSED:
        return {
            "replace_form": None,
            "reprint": [],
            "reopen_form": bound.get("reopen") or ReopenForm(),
        }
    if round_.status != RoundStatus.PUBLISHED:
        return {"replace_form": None, "reprint": [], "seat_warnings": []} | _move_form(
            round_, tables, bound
        )
    choices = _replace_choices(round_, tables)
    # ``?absent=<entry>``: the replacement a warning (or a withdrawal) links to, prefilled.
    asked = request.GET.get("absent", "")
    initial = {"absent": int(asked)} if asked.isdigit() and len(asked) < 19 else {}
    warnings = selectors.seat_warnings(round_, tables)
    return {
        "seat_warnings": warnings,
        # Whether "Draw the tables again" fixes one of them (partials/seat_warnings.html).
        "seat_redraw": any(w["redraw"] for w in warnings),
        "replace_form": bound.get("replace") or ReplaceForm(initial=initial, **choices),
        "redraw_form": bound.get("redraw") or RedrawForm(),
        "unpublish_form": bound.get("unpublish") or UnpublishForm(),
        "ask_unpublish": "unpublish" in bound or request.GET.get("unpublish") == "ask",
        "reprint": selectors.tables_to_reprint(round_),
        # The published round's figures as its moves left them (a draft's: ``_draw_quality``).
        "quality": draw_quality(
            round_.metrics or {},
            selectors.drawn_tables(round_.competition),
            round_.number,
            {e.pk: e.name for e in selectors.entries_of(round_.competition)},
            selectors.draw_groups(round_.competition),
        ),
    } | _move_form(round_, tables, bound)


def _move_form(round_: Round, tables, bound) -> dict[str, object]:
    """The manual pairing editor's form (``services.move_entry``) of a round not started: any
    entry of the round to any table with no hand yet (a draft: a bye too)."""
    if round_.status == RoundStatus.CLOSED or not tables:
        return {"move_form": None}
    draft = round_.status == RoundStatus.DRAFT
    _tables, byes = selectors.round_tables(round_) if draft else (tables, [])
    open_tables = [
        t.number
        for t in tables
        if draft or (not t.forfeited and (t.game is None or t.game.hand_count == 0))
    ]
    entries = swap_choices(tables, byes, round_.status)
    return {
        "move_form": bound.get("move") or MoveForm(entries=entries, tables=open_tables, bye=draft)
    }


def swap_choices(tables, byes, status: str) -> list[tuple[int, str]]:
    """Everyone in the round, with the table they sit at (or their bye, in a draft: a published
    round swaps between tables)."""
    byes = byes if status == RoundStatus.DRAFT else []
    return [
        (seat.entry.pk, _("%(name)s (table %(n)s)") % {"name": seat.entry.name, "n": t.number})
        for t in tables
        for seat in t.seats.all()
    ] + [(e.pk, _("%(name)s (bye)") % {"name": e.name}) for e in byes]


def _swap_form(request, round_, bound) -> SwapForm | None:
    """The posted swap, kept for the page; None unless it is valid."""
    tables, byes = selectors.round_tables(round_)
    form = SwapForm(request.POST, choices=swap_choices(tables, byes, round_.status))
    bound["swap"] = form
    return form if form.is_valid() else None


def _action_swap_preview(request, competition, round_, bound, errors):
    """What a swap would do, shown before it is saved (nothing written)."""
    form = _swap_form(request, round_, bound)
    if form is None:
        return None
    data = form.cleaned_data
    preview = submit(form, services.swap_preview, round_=round_, a=data["a"], b=data["b"])
    if preview is not None:
        bound["preview"] = preview
        bound["ok"] = True
    return None


def _action_swap(request, competition, round_, bound, errors):
    form = _swap_form(request, round_, bound)
    if form is None:
        return None
    data = form.cleaned_data
    by = access.actor_for(request)
    # A draft's draw is edited; a published round's two tables are seated again.
    draft = round_.status == RoundStatus.DRAFT
    service = services.swap_in_round if draft else services.swap_published
    if submit(form, service, round_=round_, a=data["a"], b=data["b"], by=by):
        messages.success(
            request, _("Swapped.") if draft else _("Swapped: print the two tables' cards again.")
        )
        return _back(round_)
    return None


def _action_replace(request, competition, round_, bound, errors):
    tables, _byes = selectors.round_tables(round_)
    form = ReplaceForm(request.POST, **_replace_choices(round_, tables))
    bound["replace"] = form
    if not form.is_valid():
        return None
    data = form.cleaned_data
    submit(
        form,
        services.replace_entry,
        round_=round_,
        absent=data["absent"],
        late=data.get("late"),
        by=access.actor_for(request),
    )
    if form.errors:
        return None
    messages.success(request, _("The absent player is replaced: print the table's card again."))
    return _back(round_)


def _action_redraw(request, competition, round_, bound, errors):
    form = RedrawForm(request.POST)
    bound["redraw"] = form
    if not form.is_valid():
        return None
    by = access.actor_for(request)
    submit(form, services.redraw_tables, round_=round_, seed=form.cleaned_data["seed"], by=by)
    if form.errors:
        return None
    messages.success(
        request, _("The tables with no hand yet are drawn again: print their cards again.")
    )
    return _back(round_)


def _action_unpublish(request, competition, round_, bound, errors):
    form = UnpublishForm(request.POST)
    bound["unpublish"] = form
    if not form.is_valid():
        return None
    by = access.actor_for(request)
    submit(form, services.unpublish_round, round_=round_, reason=form.cleaned_data["reason"], by=by)
    if form.errors:
        return None
    messages.success(
        request,
        _("Round %(n)s is a draft again: its games are abandoned, its tables kept as drawn.")
        % {"n": round_.number},
    )
    return _back(round_)


def _action_move(request, competition, round_, bound, errors):
    tables, byes = selectors.round_tables(round_)
    draft = round_.status == RoundStatus.DRAFT
    form = MoveForm(
        request.POST,
        entries=swap_choices(tables, byes, round_.status),
        tables=[t.number for t in tables],
        bye=draft,
    )
    bound["move"] = form
    if not form.is_valid():
        return None
    data = form.cleaned_data
    by = access.actor_for(request)
    submit(
        form,
        services.move_entry,
        round_=round_,
        entry=data["entry"],
        table=data["table"],
        seat=data["seat"],
        by=by,
    )
    if form.errors:
        return None
    messages.success(
        request,
        _("Moved: the quality of the draw is measured again.")
        if draft
        else _("Moved: print the changed tables' cards again."),
    )
    return redirect(_back(round_).url + "#pairing")


def _action_reopen(request, competition, round_, bound, errors):
    form = ReopenForm(request.POST)
    bound["reopen"] = form
    if not form.is_valid():
        return None
    by = access.actor_for(request)
    submit(form, services.reopen_round, round_=round_, reason=form.cleaned_data["reason"], by=by)
    if form.errors:
        return None
    messages.success(
        request,
        _(
            "Round %(n)s is open again: correct its games, then close it; the players get "
            "their corrected results."
        )
        % {"n": round_.number},
    )
    return _back(round_)


CHANGE_ACTIONS = {
    "move": _action_move,
    "swap": _action_swap,
    "swap_preview": _action_swap_preview,
    "replace": _action_replace,
    "redraw": _action_redraw,
    "unpublish": _action_unpublish,
    "reopen": _action_reopen,
}
