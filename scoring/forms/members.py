"""Inviting someone to a club."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.forms.once import OnceMixin
from scoring.models import Player


class InviteForm(OnceMixin, RuleErrorsMixin, forms.Form):
    """Whom to invite (an e-mail address, or nobody: a link to hand over), with which role, and
    optionally which of the club's players they are. Given the ``user`` who sends it, it is
    sent once (``scoring.forms.once``): a double tap sends one invitation."""

    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        max_length=254,
        help_text=_("Leave it empty to get a one-time link to hand over yourself."),
    )
    role = forms.ChoiceField(label=_("Role"))
    player = forms.TypedChoiceField(
        label=_("This person is the player"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args: Any, club, roles, user=None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if user is not None:
            self.add_once(user=user, purpose="invite")
        self.fields["role"].choices = roles
        self.fields["role"].initial = "member"
        self.fields["player"].choices = [("", "—")] + [
            (p.pk, p.display_name)
            for p in Player.objects.filter(club=club, user__isnull=True, active=True)
        ]
