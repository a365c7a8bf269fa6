"""The circuit pages' forms: a new circuit and its settings, inviting a club, adding a
competition, linking two players. They only translate; ``services.circuits`` decides, and its
refusals come back next to the field they name."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.forms.once import OnceMixin
from scoring.forms.options import NUMBER
from scoring.validators import any_text, plain_text


class CircuitForm(OnceMixin, RuleErrorsMixin, forms.Form):
    """A new circuit (sent once, given the ``user``), or its settings."""

    name = forms.CharField(label=_("Name"), max_length=120, validators=[plain_text])
    season = forms.CharField(
        label=_("Season"), max_length=40, required=False, validators=[plain_text]
    )
    points_table = forms.CharField(
        label=_("Points by place"),
        required=False,
        max_length=1000,
        help_text=_(
            "Points for 1st, 2nd, 3rd… separated by commas (e.g. 25, 18, 15, 12); places beyond "
            "the list earn 0. Empty: the field rule, one point per entrant finished ahead of "
            "plus one."
        ),
    )
    best_of = forms.IntegerField(
        label=_("Count the best N results"),
        required=False,
        widget=forms.NumberInput(attrs=NUMBER),
        help_text=_("Empty: every result counts."),
    )
    min_events = forms.IntegerField(
        label=_("Minimum attendance to be ranked"),
        required=False,
        initial=0,
        widget=forms.NumberInput(attrs=NUMBER),
    )
    public = forms.BooleanField(label=_("Public"), required=False, initial=True)
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=2000,
        validators=[any_text],
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args: Any, user=None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if user is not None:
            self.add_once(user=user, purpose="new_circuit")

    def clean_points_table(self) -> list[int] | None:
        text = self.cleaned_data["points_table"].strip()
        if not text:
            return None
        parts = [p for p in re.split(r"[\s,;]+", text) if p]
        if not all(re.fullmatch(r"-?\d{1,5}", p) for p in parts):
            raise forms.ValidationError(
                _("Enter whole numbers separated by commas, e.g. 25, 18, 15.")
            )
        return [int(p) for p in parts]

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "season": data["season"],
            "points_table": data["points_table"],
            "best_of": data["best_of"],
            "min_events": data["min_events"] if data["min_events"] is not None else 0,
            "public": data["public"],
            "description": data["description"],
        }

    @staticmethod
    def initial_of(circuit) -> dict[str, Any]:
        return {
            "name": circuit.name,
            "season": circuit.season,
            "points_table": ", ".join(str(p) for p in circuit.points_table or []),
            "best_of": circuit.best_of,
            "min_events": circuit.min_events,
            "public": circuit.public,
            "description": circuit.description,
        }


class InviteForm(RuleErrorsMixin, forms.Form):
    club = forms.CharField(
        label=_("Club's address"),
        max_length=60,
        help_text=_("The short name in the club's address, as in /c/<address>/."),
    )


class AddCompetitionForm(RuleErrorsMixin, forms.Form):
    competition = forms.TypedChoiceField(label=_("Competition"), coerce=int)

    def __init__(self, *args: Any, choices=(), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["competition"].choices = [("", "—"), *choices]


class LinkForm(RuleErrorsMixin, forms.Form):
    """Two players of two clubs who are one person."""

    a = forms.TypedChoiceField(label=_("Player"), coerce=int)
    b = forms.TypedChoiceField(label=_("is the same person as"), coerce=int)

    def __init__(self, *args: Any, players=(), **kwargs: Any):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, f"{p.display_name} ({p.club.name})") for p in players]
        self.fields["a"].choices = choices
        self.fields["b"].choices = choices
