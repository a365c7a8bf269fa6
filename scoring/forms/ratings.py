"""The leaderboard's filters, read from the query string."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.labels import game_choices
from scoring.selectors.ratings import MAX_DAYS


def _games() -> list[tuple[str, str]]:
    return [("", str(_("All games (club-wide)"))), *game_choices()]


class LeaderboardForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), required=False, choices=_games)
    days = forms.IntegerField(
        label=_("Played in the last … days"),
        required=False,
        min_value=1,
        max_value=MAX_DAYS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    established = forms.BooleanField(label=_("Hide provisional ratings"), required=False)
