"""A player's answer to a hand waiting to be accepted (confirmation by the table)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.models import Hand
from scoring.validators import any_text


class AnswerForm(RuleErrorsMixin, forms.Form):
    """Who answers (any player but the one who entered the hand), accept or reject, and why
    when rejecting."""

    seat = forms.TypedChoiceField(label=_("Who is checking?"), coerce=int, widget=forms.RadioSelect)
    reason = forms.CharField(
        label=_("What is wrong (to reject)"),
        required=False,
        max_length=500,
        validators=[any_text],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    action = forms.ChoiceField(choices=[("accept", "accept"), ("reject", "reject")])
    etag = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args: Any, hand: Hand, names: list[str], **kwargs: Any):
        self.names = names
        kwargs.setdefault("auto_id", f"id_check{hand.number}_%s")
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [
            (i, name) for i, name in enumerate(names) if i != hand.entered_seat
        ]
