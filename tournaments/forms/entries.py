"""The forms of who plays: players of the club or new names entered at once, a fixed pair, a
withdrawal with its reason, and "where do I sit?" (choose your name)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import players_list
from scoring.forms.errors import RuleErrorsMixin
from scoring.forms.games import ReasonForm
from scoring.models import Player
from scoring.rules import Problem
from scoring.validators import any_text, plain_text
from tournaments import selectors

#: A new player's name is stored in this column: a longer one is refused next to its field.
PLAYER_NAME_MAX = Player._meta.get_field("display_name").max_length


class EntriesForm(RuleErrorsMixin, forms.Form):
    """Players of the club (checkboxes) and new names, one per line."""

    players = forms.TypedMultipleChoiceField(
        label=_("Players of the club"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    new_names = forms.CharField(
        label=_("New players, one name per line"),
        required=False,
        validators=[any_text],
        widget=forms.Textarea(attrs={"rows": 3, "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, competition, **kwargs: Any):
        super().__init__(*args, **kwargs)
        taken = selectors.entered_players(competition)
        self.fields["players"].choices = [
            (p.pk, p.display_name)
            for p in selectors.active_players(competition.club)
            if p.pk not in taken
        ]

    def names(self) -> list[str]:
        # The Players page's parser (a "name, e-mail" line gives its name).
        return players_list.names(self.cleaned_data.get("new_names") or "")

    def clean(self):
        data = super().clean()
        if not data.get("players") and not self.names():
            raise forms.ValidationError(_("Choose players of the club or write new names."))
        return data


class PairForm(RuleErrorsMixin, forms.Form):
    """A fixed pair (Briscola pairs): each player chosen from the club or a new name."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int, required=False, empty_value=None)
    player_new = forms.CharField(
        label=_("or a new player"),
        required=False,
        max_length=PLAYER_NAME_MAX,
        validators=[plain_text],
    )
    partner = forms.TypedChoiceField(
        label=_("Partner"), coerce=int, required=False, empty_value=None
    )
    partner_new = forms.CharField(
        label=_("or a new player"),
        required=False,
        max_length=PLAYER_NAME_MAX,
        validators=[plain_text],
    )

    def __init__(self, *args: Any, competition, **kwargs: Any):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [
            (p.pk, p.display_name) for p in selectors.active_players(competition.club)
        ]
        self.fields["player"].choices = choices
        self.fields["partner"].choices = choices

    def _side(self, key: str) -> Any:
        new = (self.cleaned_data.get(f"{key}_new") or "").strip()
        return new or self.cleaned_data.get(key)

    def clean(self):
        data = super().clean()
        for key in ("player", "partner"):
            if not self._side(key):
                self.add_error(key, _("Choose a player or write a new name."))
        return data

    def service_arguments(self) -> dict[str, Any]:
        return {"player": self._side("player"), "partner": self._side("partner")}

    def form_field(self, problem: Problem) -> str | None:
        if problem.field in ("player", "partner"):
            key = problem.field
            return f"{key}_new" if self.cleaned_data.get(f"{key}_new") else key
        return super().form_field(problem)


class WithdrawForm(ReasonForm):
    """Why an entry withdraws; a refusal of the service goes above the form."""

    entry = forms.IntegerField(widget=forms.HiddenInput)

    field_order = ["entry", "reason"]
    field_map = {"entry": None}


class WhereForm(forms.Form):
    entry = forms.TypedChoiceField(label=_("Your name"), coerce=int)

    def __init__(self, *args: Any, entries, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [("", "—")] + [(e.pk, e.name) for e in entries]
