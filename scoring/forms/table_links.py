"""The PIN a phone types to open a table's game."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.options import NUMBER


class PinForm(forms.Form):
    pin = forms.CharField(
        label=_("PIN"),
        max_length=8,
        widget=forms.TextInput(attrs=NUMBER | {"autofocus": True, "autocomplete": "one-time-code"}),
    )
