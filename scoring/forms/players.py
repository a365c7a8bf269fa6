"""A club's players in bulk (a pasted list or a CSV file, read by ``scoring.players_list``) and
a player's e-mail settings, as the club's organizers fill them in."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from scoring import players_list
from scoring.forms.errors import RuleErrorsMixin
from scoring.players_list import Listed
from scoring.rules import Problem, RuleViolation


class PlayersBulkForm(RuleErrorsMixin, forms.Form):
    """Several players at once: pasted lines (``name`` or ``name, e-mail``) or a CSV file.
    ``rows`` and ``field_name`` (the field the list came in) once valid."""

    lines = forms.CharField(
        label=_('Paste a list: one player per line, a name or "name, e-mail"'),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 5, "autocomplete": "off", "spellcheck": "false"}),
    )
    file = forms.FileField(
        label=_("Or choose a CSV file"),
        required=False,
        help_text=_(
            "Columns name, email, language (a first row naming them is read as a header); "
            "cells separated by commas or semicolons, in UTF-8."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv,text/plain"}),
    )

    rows: list[Listed]
    field_name = "lines"

    def clean(self):
        data = super().clean()
        text, upload = data.get("lines") or "", data.get("file")
        if upload is not None and text.strip():
            raise forms.ValidationError(_("Paste a list or choose a file, not both."))
        try:
            if upload is not None:
                self.field_name = "file"
                # One byte more than the limit is enough to refuse a file too big.
                self.rows = players_list.from_csv(upload.read(players_list.FILE_MAX + 1))
            else:
                self.rows = players_list.from_lines(text)
        except RuleViolation as refusal:
            self.add_rule_errors(refusal)
        return data

    def form_field(self, problem: Problem) -> str | None:
        return problem.field if problem.field in self.fields else None


LANGUAGE_CHOICES = [("", _("The club's language")), *settings.LANGUAGES]


class PlayerEmailForm(RuleErrorsMixin, forms.Form):
    """A player's e-mail settings (``scoring.services.update_player``)."""

    email = forms.CharField(
        label=_("E-mail address"),
        required=False,
        max_length=254,
        help_text=_("Blank: the address of the player's account, if they have one."),
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )
    language = forms.ChoiceField(label=_("Language of the e-mails"), required=False)
    results_by_email = forms.BooleanField(
        label=_("Receives the results by e-mail after each round and at the end"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = LANGUAGE_CHOICES
