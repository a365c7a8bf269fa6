"""The desk's forms: the competition's fee (an amount typed as the club writes it, "7,50"), and
the reason an organizer gives when undoing a mark."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.validators import any_text
from tournaments.models import FeeBasis
from tournaments.money import format_plain, parse_money


class MoneyField(forms.CharField):
    """An amount of money typed in the club's currency ("7", "7,50", "7.5"), cleaned to cents;
    a negative or malformed amount is refused here, next to the field."""

    default_error_messages = {
        "money": _("Enter an amount such as 5 or 7,50 (no sign, at most two decimals)."),
    }

    def __init__(self, **kwargs: Any):
        kwargs.setdefault(
            "widget",
            forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "maxlength": 16}),
        )
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        cents = parse_money(text)
        if cents is None:
            raise forms.ValidationError(self.error_messages["money"], code="money")
        return cents

    def prepare_value(self, value: Any) -> Any:
        return format_plain(value) if isinstance(value, int) else value


class FeeForm(RuleErrorsMixin, forms.Form):
    amount_cents = MoneyField(label=_("Fee"))
    basis = forms.ChoiceField(
        label=_("Charged"),
        choices=FeeBasis.choices,
        initial=FeeBasis.ENTRY,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, currency: str, pairs: bool, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["amount_cents"].label = _("Fee (%(currency)s)") % {"currency": currency}
        if not pairs:
            self.fields["basis"].widget = forms.HiddenInput()


class UndoForm(RuleErrorsMixin, forms.Form):
    entry = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Why"), required=False, max_length=200, validators=[any_text])
    field_map = {"entry": None}
