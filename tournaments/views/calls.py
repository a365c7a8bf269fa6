"""Calling the director from a table, and the director's answer.

The table's side is a section of the game page and of the scoreboard
(``scoring.extensions.GAME_PAGE_SECTIONS``: ``table_section``), a region that follows the game's
stream (``call`` and ``clock`` events, stream.js) and polls while it cannot: the round's clock
(``tournaments.views.clock``) and the call panel (``table_call``), which says "the director is
coming" once acknowledged. The organizer's side is the panel of open calls on the round page and
the desk (``calls_panel``, following the competition's stream: every call, answer and
resolution is a recorded change), with Acknowledge and Resolve (``answer_call``); a new call
beeps (static/js/calls.js).

A table phone's calls are counted (``services.calls.CALL_BACKOFF``, per table and address)
before the service is even asked, as PIN tries are.
"""

from __future__ import annotations

import time

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import access
from scoring.rules import RuleViolation
from scoring.selectors import role_of
from scoring.services import violation
from scoring.throttles import client_address
from scoring.views.access import attempt, game_or_404, submit
from tournaments import services
from tournaments.forms.calls import CallForm
from tournaments.models import DirectorCall, RoundStatus
from tournaments.presenters.clock import clock_of
from tournaments.selectors.calls import call_shown, open_calls, table_of_game
from tournaments.services import GAME_CONTEXT
from tournaments.services.calls import CALL_ACTIONS, CALL_BACKOFF, REPEAT_MINUTES, caller_name
from tournaments.views.access import organizer_or_404


def playing_table(game_id: int):
    table = table_of_game(game_id)
    if table is None or table.round.status != RoundStatus.PUBLISHED:
        return None
    return table


def _call_context(request, game, table, form=None) -> dict:
    by = access.actor_for(request, game)
    now_ms = int(time.time() * 1000)
    call = call_shown(table, timezone.now())
    if call is not None:
        _timing(call, now_ms)
    return {
        "game": game,
        "table": table,
        "may_call": caller_name(table, by) is not None,
        "call": call,
        "form": form or CallForm(),
        "now_ms": now_ms,
    }


def table_section(request, game, role) -> str:
    """The round's clock and the call panel of a competition's table (a round being played)."""
    if game.context != GAME_CONTEXT:
        return ""  # no query for the other games
    table = playing_table(game.pk)
    if table is None:
        return ""
    context = _call_context(request, game, table) | {"clock": clock_of(table, timezone.now())}
    return render_to_string("tournaments/partials/table_section.html", context, request=request)


def guard_call(request, table, by) -> None:
    """A table phone's call (no account) counted before it is made, per table and address, as
    PIN tries are; refused while it must wait."""
    if by.user is not None:
        return
    key = f"{table.pk}:{client_address(request)}"
    wait = CALL_BACKOFF.wait(key)
    if wait:
        raise violation("call", "not_allowed", reason="call_throttled", wait=wait)
    CALL_BACKOFF.attempt(key)


def table_call(request, game_id: int):
    """The table's call panel (GET: for the stream and the poll); POST: call the director."""
    game, _role = game_or_404(request, game_id)
    table = playing_table(game.pk)
    if table is None:
        if request.method == "POST":
            raise Http404
        # No round being played at this game's table (any more): nothing to call, nothing shown.
        return HttpResponse('<div class="director-call" id="director-call" hidden></div>')
    form = None
    status = 200
    if request.method == "POST":
        by = access.actor_for(request, game)
        if caller_name(table, by) is None:
            raise PermissionDenied
        form = CallForm(request.POST)
        if form.is_valid():
            try:
                guard_call(request, table, by)
            except RuleViolation as refused:
                form.add_rule_errors(refused)
            else:
                if submit(form, services.call_director, table=table, by=by, **form.call_kwargs()):
                    form = None
        status = 400 if form is not None else 200
        if not request.htmx and form is None:
            return redirect("game", game_id=game.pk)
    return render(
        request,
        "tournaments/partials/table_call.html",
        _call_context(request, game, table, form),
        status=status,
    )


def calls_block(request, competition, round_, where: str) -> str:
    """The open calls panel of the round page (``where`` "round": its round's calls, following
    the competition's stream) or of the desk ("desk": every round's, the desk's stream)."""
    context = _calls_context(request, competition, round_, where) | {"block": True}
    return render_to_string("tournaments/partials/calls.html", context, request=request)


def _calls_context(request, competition, round_=None, where: str = "round") -> dict:
    now_ms = int(time.time() * 1000)
    calls = open_calls(competition.pk, round_.pk if round_ is not None else None)
    for call in calls:
        _timing(call, now_ms)
    slugs = [competition.club.slug, competition.slug]
    stream = "competition-desk-stream" if where == "desk" else "competition-stream"
    query = f"?where={where}" + (f"&round={round_.number}" if round_ is not None else "")
    return {
        "competition": competition,
        "club": competition.club,
        "calls": calls,
        "manager": access.is_manager(role_of(request.user, competition.club)),
        "round_number": round_.number if round_ is not None else "",
        "stream_url": reverse(stream, args=slugs),
        "panel_url": reverse("director-calls", args=slugs) + query,
        "query": query,
        "now_ms": now_ms,
    }


def _timing(call, now_ms: int) -> None:
    """What a call's screens count from: when it was made, how long it has waited."""
    call.called_ms = int(call.called_at.timestamp() * 1000)
    call.waited_minutes = max(0, (now_ms - call.called_ms) // 60000)
    call.can_repeat = call.resolved_at is None and call.waited_minutes >= REPEAT_MINUTES


def calls_panel(request, club_slug: str, slug: str):
    """The open calls (members read them; the stream and the poll ask for them again)."""
    competition, _role = organizer_or_404(request, club_slug, slug)
    number = request.GET.get("round", "")
    round_ = None
    if number.isdigit() and len(number) < 6:
        round_ = competition.rounds.filter(number=int(number)).first()
    where = "desk" if request.GET.get("where") == "desk" else "round"
    return render(
        request,
        "tournaments/partials/calls.html",
        _calls_context(request, competition, round_, where),
    )


@require_POST
def answer_call(request, club_slug: str, slug: str, call_id: int):
    """Acknowledge ("the director is coming") or resolve a table's call."""
    competition, _role = organizer_or_404(request, club_slug, slug, manage=True)
    call = get_object_or_404(
        DirectorCall.objects.select_related("table__round__competition__club"),
        pk=call_id,
        table__round__competition=competition,
    )
    service = CALL_ACTIONS.get(request.POST.get("action", ""))
    if service is None:
        return HttpResponseBadRequest(_("Acknowledge or resolve: choose what to do with the call."))
    attempt(request, service, call=call, by=access.actor_for(request))
    if request.htmx:
        return calls_panel(request, club_slug, slug)
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect(reverse("competition", args=[club_slug, slug]))
