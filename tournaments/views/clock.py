"""The round's clock on a table's phone (``clock``: JSON, as the game may be read) and the
director's settings of it on the round page: the "last hand" warning, a table's extra time."""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from scoring import access
from scoring.views.access import attempt, game_or_404
from tournaments import services
from tournaments.models import RoundStatus, Table
from tournaments.presenters.clock import clock_of
from tournaments.selectors.calls import table_of_game
from tournaments.views.access import organizer_or_404, round_or_404


@never_cache
@require_GET
def table_clock(request, game_id: int):
    """The clock of the game's table: ``state`` "none" once no round is being played there."""
    game, _role = game_or_404(request, game_id)
    table = table_of_game(game.pk)
    if table is None or table.round.status != RoundStatus.PUBLISHED:
        return JsonResponse({"state": "none"})
    return JsonResponse(clock_of(table, timezone.now()))


def _number(value: str):
    """Minutes typed in a form: an int, or the text itself for the service to refuse."""
    value = (value or "").strip()
    return int(value) if value.isdigit() and len(value) < 6 else value


@require_POST
def round_clock(request, club_slug: str, slug: str, number: int):
    """The round page's clock settings: ``last_hand_minutes``, or ``table`` and
    ``extra_minutes``."""
    competition, _role = organizer_or_404(request, club_slug, slug, manage=True)
    round_ = round_or_404(competition, number)
    by = access.actor_for(request)
    if "table" in request.POST:
        table_id = request.POST.get("table", "")
        if not table_id.isdigit():
            raise Http404
        table = get_object_or_404(Table, pk=int(table_id), round=round_)
        table.round = round_
        minutes = _number(request.POST.get("extra_minutes", ""))
        attempt(request, services.give_extra_time, table=table, by=by, minutes=minutes)
    else:
        minutes = _number(request.POST.get("last_hand_minutes", ""))
        attempt(request, services.set_last_hand, round_=round_, by=by, minutes=minutes)
    return redirect(f"{round_path(round_)}#timer")


def round_path(round_) -> str:
    competition = round_.competition
    return reverse("round", args=[competition.club.slug, competition.slug, round_.number])
