"""The forms of settling what play did not: a table forfeited (with points given to its
entries) and an adjustment of an entry's points."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.forms.games import ReasonForm
from scoring.forms.options import NUMBER
from scoring.rules import Problem
from scoring.validators import any_text


class ForfeitForm(ReasonForm):
    """Why a table is settled by forfeit, and the points given to its entries instead."""

    table = forms.IntegerField(widget=forms.HiddenInput)

    field_order = ["table", "reason"]

    def __init__(self, *args: Any, seats=(), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.entries = []
        for entry in seats:
            name = f"points_{entry.pk}"
            self.fields[name] = forms.DecimalField(
                label=_("Points for %(name)s") % {"name": entry.name},
                required=False,
                max_digits=8,
                decimal_places=2,
                widget=forms.NumberInput(attrs=NUMBER | {"step": "0.5", "inputmode": "decimal"}),
            )
            self.entries.append(entry)

    def point_fields(self):
        return [self[f"points_{e.pk}"] for e in self.entries]

    def points(self) -> dict[int, Decimal]:
        return {
            e.pk: self.cleaned_data[f"points_{e.pk}"]
            for e in self.entries
            if self.cleaned_data.get(f"points_{e.pk}") is not None
        }

    def form_field(self, problem: Problem) -> str | None:
        if problem.field.startswith("points."):
            name = f"points_{problem.field.split('.', 1)[1]}"
            return name if name in self.fields else None
        return super().form_field(problem)


class AdjustForm(RuleErrorsMixin, forms.Form):
    entry = forms.TypedChoiceField(label=_("Player"), coerce=int)
    points = forms.DecimalField(
        label=_("Points (negative to take)"),
        max_digits=8,
        decimal_places=2,
        widget=forms.NumberInput(attrs={"step": "0.5", "inputmode": "decimal"}),
    )
    round = forms.TypedChoiceField(label=_("Round"), coerce=int, required=False, empty_value=None)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        validators=[any_text],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args: Any, entries, rounds, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [("", "—")] + [(e.pk, e.name) for e in entries]
        self.fields["round"].choices = [("", _("the whole competition"))] + [
            (r.number, _("Round %(n)s") % {"n": r.number}) for r in rounds
        ]
