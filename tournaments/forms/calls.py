"""The table's call of the director: a reason (one tap) and, optionally, a few words."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from tournaments.models import CallReason
from tournaments.services.calls import TEXT_MAX


class CallForm(RuleErrorsMixin, forms.Form):
    reason = forms.ChoiceField(
        label=_("Why?"), choices=CallReason.choices, widget=forms.RadioSelect
    )
    text = forms.CharField(label=_("A few words (optional)"), required=False, max_length=TEXT_MAX)

    def call_kwargs(self) -> dict:
        return {"reason": self.cleaned_data["reason"], "text": self.cleaned_data["text"]}
