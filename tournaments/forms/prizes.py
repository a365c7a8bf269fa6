"""The prize list's forms: the club's rules for ties and double prizes, and one prize (a rank of
a category: money typed as the club writes it, or an object)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.validators import plain_text
from tournaments.forms.fees import MoneyField
from tournaments.models import Prize, Ties


class PrizeRulesForm(RuleErrorsMixin, forms.Form):
    ties = forms.ChoiceField(
        label=_("Entries tied on points"), choices=Ties.choices, widget=forms.RadioSelect
    )
    both = forms.BooleanField(
        label=_("An entry may win an overall prize and a category prize"),
        required=False,
        help_text=_("Unticked: it keeps the better prize, and the other passes down."),
    )


class PrizeForm(RuleErrorsMixin, forms.Form):
    category = forms.ChoiceField(label=_("Category"))
    rank = forms.IntegerField(
        label=_("Rank"), widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 1})
    )
    amount_cents = MoneyField(label=_("Money"), required=False)
    object = forms.CharField(
        label=_("or an object"),
        required=False,
        max_length=Prize.OBJECT_MAX,
        validators=[plain_text],
    )

    def __init__(self, *args: Any, categories: list[tuple[str, str]], currency: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = categories
        self.fields["amount_cents"].label = _("Money (%(currency)s)") % {"currency": currency}
