"""A club: starting one (name, address, time zone, language, public results), changing its
settings, and adding a player to it."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.models.clubs import CURRENCIES
from scoring.validators import plain_text


def time_zone_choices() -> list[tuple[str, str]]:
    return [(zone, zone.replace("_", " ")) for zone in sorted(zoneinfo.available_timezones())]


class ClubSettingsForm(RuleErrorsMixin, forms.Form):
    """A club's own settings, as its owners change them: name, time zone, language and whether
    its results are public (the address stays: links and QR codes carry it)."""

    name = forms.CharField(label=_("Name of the club"), max_length=120, validators=[plain_text])
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        help_text=_("Rounds, calendars and the times on the club's pages are in this zone."),
    )
    language = forms.ChoiceField(
        label=_("Language of the club"),
        help_text=_(
            "The club's e-mails are in this language, and so are its pages for visitors whose "
            "browser asks for none the site speaks."
        ),
    )
    results_public = forms.BooleanField(
        label=_("Anyone may read the finished games, the schedules and the standings."),
        required=False,
    )
    currency = forms.ChoiceField(
        label=_("Currency"),
        choices=CURRENCIES,
        initial="EUR",
        required=False,
        help_text=_("Of the competitions' fees and money prizes."),
    )

    def clean_currency(self) -> str | None:
        """Left out (a form of an older page): the currency stays as it is."""
        return self.cleaned_data.get("currency") or None

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = time_zone_choices()
        self.fields["time_zone"].initial = settings.TIME_ZONE
        self.fields["language"].choices = settings.LANGUAGES


class ClubForm(ClubSettingsForm):
    """A new club: its name, address, time zone, language and whether its results are public."""

    slug = forms.SlugField(
        label=_("Address"),
        max_length=60,
        help_text=_("Lower-case letters, digits and hyphens, e.g. circolo-roma."),
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )
    field_order = ["name", "slug", "time_zone", "language", "results_public", "currency"]

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["language"].label = _("Language of the club's e-mails")
        self.fields["language"].help_text = ""
        self.fields["time_zone"].help_text = ""

    def clean_slug(self) -> str:
        return self.cleaned_data["slug"].lower()


class PlayerForm(RuleErrorsMixin, forms.Form):
    display_name = forms.CharField(label=_("Name"), max_length=80, validators=[plain_text])
