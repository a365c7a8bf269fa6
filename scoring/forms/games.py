"""Starting a game (the game, its house rules, the players seat by seat) and the reason asked
before a hand is removed or a game abandoned.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.forms.once import OnceMixin
from scoring.forms.options import RulesetOptionsMixin
from scoring.labels import game_choices
from scoring.models import Player
from scoring.rules import RULESETS, Problem
from scoring.validators import any_text, plain_text

MAX_SEATS = max(rules.max_seats for rules in RULESETS.values())


class StartGameForm(OnceMixin, RuleErrorsMixin, RulesetOptionsMixin, forms.Form):
    """Ruleset, house rules (``scoring.forms.options``) and the players seat by seat; sent
    once (``scoring.forms.once``: a double tap starts one game)."""

    ruleset = forms.ChoiceField(label=_("Game"), choices=game_choices, widget=forms.RadioSelect)
    title = forms.CharField(
        label=_("Title (optional)"), required=False, max_length=120, validators=[plain_text]
    )
    hands_need_acceptance = forms.BooleanField(
        label=_("Each hand must be accepted by a player of another side before it counts"),
        required=False,
    )

    def __init__(self, *args: Any, club, user=None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.club = club
        if user is not None:
            self.add_once(user=user, purpose="start_game")
        self.player_choices = [("", "—")] + [
            (p.pk, p.display_name)
            for p in Player.objects.filter(club=club, active=True).order_by("display_name")
        ]
        for seat in range(MAX_SEATS):
            self.fields[f"seat_{seat}"] = forms.TypedChoiceField(
                label=_("Seat %(n)s") % {"n": seat + 1},
                choices=self.player_choices,
                coerce=int,
                required=False,
                empty_value=None,
            )
            self.fields[f"new_{seat}"] = forms.CharField(
                label=_("or a new player"),
                required=False,
                max_length=80,
                validators=[plain_text],
                widget=forms.TextInput(attrs={"autocomplete": "off"}),
            )
        self.add_option_fields()

    def seat_rows(self):
        return [(self[f"seat_{seat}"], self[f"new_{seat}"]) for seat in range(MAX_SEATS)]

    def max_seats_json(self) -> str:
        return json.dumps({key: rules.max_seats for key, rules in RULESETS.items()})

    def ruleset_options(self) -> dict[str, Any]:
        """The chosen game's preset and the options that differ from the defaults."""
        return self.options_for(self.cleaned_data["ruleset"])

    def players(self) -> list[Any]:
        """Seats in order: a chosen player's id or a new name; empty rows are skipped."""
        self._rows: list[int] = []
        seats: list[Any] = []
        for seat in range(MAX_SEATS):
            new = (self.cleaned_data.get(f"new_{seat}") or "").strip()
            chosen = self.cleaned_data.get(f"seat_{seat}")
            if new:
                seats.append(new)
            elif chosen is not None:
                seats.append(chosen)
            else:
                continue
            self._rows.append(seat)
        return seats

    def form_field(self, problem: Problem) -> str | None:
        """House rules are ``<ruleset>__<option>`` fields, players the seat rows."""
        path = problem.field
        if path.startswith("options."):
            ruleset = self.cleaned_data.get("ruleset")
            if path == "options.preset":
                name = f"{ruleset}__preset"
                return name if name in self.fields else None
            return self.option_field(ruleset, path)
        if path.startswith("players["):
            index = int(path[8:-1])
            row = self._rows[index] if index < len(self._rows) else 0
            return f"new_{row}" if self.cleaned_data.get(f"new_{row}") else f"seat_{row}"
        return "ruleset" if path == "ruleset" else None


class ReasonForm(RuleErrorsMixin, forms.Form):
    """Why a hand is removed or a game abandoned; a refusal of the service goes above it."""

    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        validators=[any_text],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
