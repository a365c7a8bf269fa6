"""A player's tags as an organizer types them: names separated by commas ("Women, Under 18")."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin


class PlayerTagsForm(RuleErrorsMixin, forms.Form):
    tags = forms.CharField(
        label=_("Tags"),
        required=False,
        max_length=400,
        help_text=_(
            "Separated by commas, e.g. Women, Under 18: the categories of a competition's "
            "prizes. A new name becomes a new tag of the club."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def names(self) -> list[str]:
        return [part.strip() for part in self.cleaned_data.get("tags", "").split(",")]
