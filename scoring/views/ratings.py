"""Pages of ratings: a player's page and the club's leaderboard. Readable by whoever may read
the club (its members; anyone when the club's results are public: ``scoring.access``)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from scoring.extensions import PLAYER_PAGE_SECTIONS
from scoring.forms.ratings import LeaderboardForm
from scoring.labels import game_name
from scoring.models import Player
from scoring.rules import RULESETS
from scoring.selectors import ratings as rating_selectors
from scoring.stats import charts
from scoring.views.access import club_or_404


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


def player_page(request, slug: str, player_id: int):
    club, role = club_or_404(request, slug)
    player = get_object_or_404(Player.objects.select_related("club"), club=club, pk=player_id)
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
        },
    )
