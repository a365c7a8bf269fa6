"""Pages of ratings: a player's page and the club's leaderboard. Readable by whoever may read
the club (its members; anyone when the club's results are public: ``scoring.access``)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from scoring import access, services
from scoring.extensions import PLAYER_PAGE_SECTIONS
from scoring.forms.ratings import LeaderboardForm
from scoring.forms.tags import PlayerTagsForm
from scoring.labels import game_name
from scoring.models import Player
from scoring.rules import RULESETS
from scoring.selectors import ratings as rating_selectors
from scoring.stats import charts
from scoring.views.access import club_or_404, submit


def leaderboard_page(request, slug: str):
    club, role = club_or_404(request, slug)
    form = LeaderboardForm(request.GET or None)
    filters = form.cleaned_data if form.is_bound and form.is_valid() else {}
    ruleset = filters.get("game") or None
    board = rating_selectors.leaderboard(
        club,
        ruleset=ruleset,
        active_days=filters.get("days"),
        hide_provisional=bool(filters.get("established")),
    )
    return render(
        request,
        "scoring/leaderboard.html",
        {
            "club": club,
            "role": role,
            "form": form,
            "board": board,
            "ruleset": RULESETS[ruleset] if ruleset else None,
            "game_name": game_name(ruleset) if ruleset else None,
            "provisional_games": rating_selectors.provisional_games(),
        },
    )


def _tags_form(request, player: Player, role: str | None):
    """The player's tags form for the club's owners and organizers (None for anyone else); a
    POST sets the tags (``services.set_player_tags``)."""
    if request.method == "POST" and not access.is_manager(role):
        raise PermissionDenied
    if not access.is_manager(role):
        return None
    if request.method != "POST":
        names = ", ".join(player.tags.values_list("name", flat=True))
        return PlayerTagsForm(initial={"tags": names})
    form = PlayerTagsForm(request.POST)
    if form.is_valid():
        by = access.actor_for(request)
        submit(form, services.set_player_tags, player=player, tags=form.names(), by=by)
    return form


def player_page(request, slug: str, player_id: int):
    club, role = club_or_404(request, slug)
    player = get_object_or_404(Player.objects.select_related("club"), club=club, pk=player_id)
    tags_form = _tags_form(request, player, role)
    if request.method == "POST" and not tags_form.errors:
        messages.success(request, _("The player's tags are saved."))
        return redirect("player", slug=club.slug, player_id=player.pk)
    profile = rating_selectors.player_profile(player, public_only=role is None)
    history = profile["history"]
    series = [
        charts.Series("club", _("All games"), [(h["at"], h["club_ordinal"]) for h in history])
    ]
    for key in RULESETS:
        points = [(h["at"], h["ordinal"]) for h in history if h["ruleset"] == key]
        if points:
            series.append(charts.Series(key, game_name(key), points))
    per_game = [
        {"key": key, "name": game_name(key), **figures}
        for key, figures in profile["per_game"].items()
    ]
    for row in profile["ratings"]:
        row["label"] = game_name(row["ruleset"]) if row["ruleset"] else ""
    busiest = max((m["games"] for m in profile["activity"]), default=1)
    activity = [m | {"share": round(100 * m["games"] / busiest)} for m in profile["activity"]]
    return render(
        request,
        "scoring/player.html",
        {
            "club": club,
            "role": role,
            "player": player,
            "profile": profile,
            "chart": charts.line_chart(series),
            "per_game": per_game,
            "activity": activity,
            "provisional_games": rating_selectors.provisional_games(),
            "sections": [section(request, player, role) for section in PLAYER_PAGE_SECTIONS],
            "tags_form": tags_form,
        },
        status=400 if request.method == "POST" else 200,
    )
