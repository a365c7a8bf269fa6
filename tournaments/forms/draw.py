"""The forms of a draw: how to draw a draft round's tables (the objective for unavoidable
repeats, how a club night seats or a Swiss round 1 is drawn, the seed) and swapping two of the
seated."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.forms.options import number_input
from tournaments.models import RepeatObjective, Round


class GenerateForm(forms.Form):
    objective = forms.ChoiceField(
        label=_("When some repeats cannot be avoided"),
        required=False,
        choices=RepeatObjective.choices,
        widget=forms.RadioSelect,
    )
    method = forms.ChoiceField(
        label=_("Seat players"),
        required=False,
        choices=[
            ("rotation", _("to meet new opponents")),
            ("standing", _("with players of similar standing")),
        ],
        widget=forms.RadioSelect,
    )
    #: A Swiss round 1 (``swiss=True``): the same field, other choices.
    SWISS_FIRST = [
        ("drawn", _("drawn (by rating, else at random)")),
        ("entered", _("in the order entered")),
    ]
    seed = forms.IntegerField(
        label=_("Seed (optional)"),
        required=False,
        min_value=0,
        max_value=Round.SEED_MAX,
        help_text=_("The same seed draws the same tables; empty: a new draw."),
        widget=number_input(min=0, placeholder=_("random")),
    )

    def __init__(self, *args: Any, swiss: bool = False, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if swiss:
            self.fields["method"].label = _("Round 1")
            self.fields["method"].choices = self.SWISS_FIRST


class SwapForm(RuleErrorsMixin, forms.Form):
    a = forms.TypedChoiceField(label=_("Swap"), coerce=int)
    b = forms.TypedChoiceField(label=_("with"), coerce=int)

    def __init__(self, *args: Any, choices, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["a"].choices = [("", "—"), *choices]
        self.fields["b"].choices = [("", "—"), *choices]

    def clean(self):
        data = super().clean()
        if data.get("a") is not None and data.get("a") == data.get("b"):
            self.add_error("b", _("Choose two different players."))
        return data
