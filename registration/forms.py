"""The forms of registration (issue 24): the organizer's settings, the public registration
form (a pair's partner too), a merge with an existing player, and the self check-in window."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from registration.models import CapacityUnit, Eligibility
from registration.services.checkin import WINDOW_MAX
from registration.services.registration import EMAIL_MAX, NAME_MAX, NOTE_MAX
from scoring.forms.errors import RuleErrorsMixin
from scoring.validators import any_text, plain_text

LOCAL = "%Y-%m-%dT%H:%M"


class LocalDateTime(forms.DateTimeField):
    """A date and time in the club's zone (the view activates it), typed in one box."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL)
    input_formats = [LOCAL, "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"]


class RegistrationSettingsForm(RuleErrorsMixin, forms.Form):
    opens_at = LocalDateTime(label=_("Registration opens"))
    closes_at = LocalDateTime(label=_("Registration closes (deadline)"))
    capacity = forms.IntegerField(label=_("Capacity"), min_value=1, max_value=10_000)
    unit = forms.ChoiceField(label=_("Counted in"), choices=CapacityUnit.choices)
    waiting_list = forms.BooleanField(label=_("Waiting list beyond capacity"), required=False)
    eligibility = forms.ChoiceField(label=_("Who may register"), choices=Eligibility.choices)
    note = forms.CharField(
        label=_("Note shown on the form"),
        required=False,
        max_length=NOTE_MAX,
        validators=[any_text],
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class RegisterForm(RuleErrorsMixin, forms.Form):
    """A person's registration; a pair's partner too (``pairs``)."""

    name = forms.CharField(label=_("Your name"), max_length=NAME_MAX, validators=[plain_text])
    email = forms.EmailField(
        label=_("Your e-mail address"),
        max_length=EMAIL_MAX,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    partner_name = forms.CharField(
        label=_("Your partner's name"), max_length=NAME_MAX, validators=[plain_text]
    )
    partner_email = forms.EmailField(
        label=_("Your partner's e-mail address"),
        max_length=EMAIL_MAX,
        help_text=_("Your partner confirms by a link sent to this address."),
    )

    def __init__(self, *args: Any, pairs: bool, account: bool = False, players=None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["autocomplete"] = "name"
        if not pairs:
            del self.fields["partner_name"]
            del self.fields["partner_email"]
        if account:
            self.fields["email"].required = False
        if players is not None:  # an organizer of the club: may register an existing player
            self.fields["player"] = forms.TypedChoiceField(
                label=_("An existing player of the club"),
                help_text=_("The entry names this player; its name and address when left empty."),
                choices=[("", "—")] + [(p.pk, p.display_name) for p in players],
                coerce=int,
                empty_value=None,
                required=False,
            )
            self.order_fields(["player"])
            self.fields["name"].required = self.fields["email"].required = False


class MergeForm(RuleErrorsMixin, forms.Form):
    """The player made for a registrant is an existing player of the club."""

    player = forms.TypedChoiceField(label=_("Same person as"), coerce=int)

    def __init__(self, *args: Any, players, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—")] + [(p.pk, p.display_name) for p in players]


class CheckInWindowForm(RuleErrorsMixin, forms.Form):
    """Open self check-in on a draft round for some minutes."""

    round = forms.TypedChoiceField(label=_("Round"), coerce=int)
    minutes = forms.IntegerField(
        label=_("Open for (minutes)"), min_value=1, max_value=WINDOW_MAX, initial=120
    )
    field_map = {"round_": "round"}

    def __init__(self, *args: Any, rounds, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["round"].choices = [(r.number, r.label) for r in rounds]
