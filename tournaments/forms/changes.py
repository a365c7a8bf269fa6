"""The forms that change a published round (``services.changes``): an absent player replaced
by a late entrant or a bye, the tables not started drawn again, and the round taken back to a
draft after a confirmation; a closed round reopened, with a reason, to correct its games. Swapping two players is ``draw.SwapForm`` (its choices: the players
of the tables with no hand yet)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.forms.options import number_input
from tournaments.models import Round


class ReplaceForm(RuleErrorsMixin, forms.Form):
    absent = forms.TypedChoiceField(label=_("Absent player"), coerce=int)
    late = forms.TypedChoiceField(
        label=_("Replaced by"), coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args: Any, seated, waiting, **kwargs: Any):
        """``seated``: (entry id, label) of the players of the tables with no hand yet;
        ``waiting``: (entry id, name) of the active entries with no seat in the round."""
        kwargs.setdefault("auto_id", "replace_%s")
        super().__init__(*args, **kwargs)
        self.fields["absent"].choices = [("", "—"), *seated]
        self.fields["late"].choices = [
            ("", _("nobody (one player fewer)")),
            *waiting,
        ]


class RedrawForm(RuleErrorsMixin, forms.Form):
    seed = forms.IntegerField(
        label=_("Seed (optional)"),
        required=False,
        min_value=0,
        max_value=Round.SEED_MAX,
        widget=number_input(min=0, placeholder=_("random")),
    )

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("auto_id", "redraw_%s")
        super().__init__(*args, **kwargs)


class UnpublishForm(RuleErrorsMixin, forms.Form):
    confirm = forms.BooleanField(
        label=_("Yes: abandon the games of this round and take it back to a draft"),
        error_messages={"required": _("Tick the box to confirm.")},
    )
    reason = forms.CharField(label=_("Why (optional)"), required=False, max_length=500)

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("auto_id", "unpublish_%s")
        super().__init__(*args, **kwargs)


class MoveForm(RuleErrorsMixin, forms.Form):
    """The manual pairing editor (``services.move_entry``): an entry, the table it goes to (0:
    a bye) and its seat there (empty: it joins the table)."""

    entry = forms.TypedChoiceField(label=_("Move"), coerce=int)
    table = forms.TypedChoiceField(label=_("to"), coerce=int)
    seat = forms.IntegerField(
        label=_("Seat (optional)"),
        required=False,
        min_value=1,
        max_value=100,
        help_text=_("1 deals first; empty: a new seat at the end of the table."),
        widget=number_input(min=1, placeholder=_("at the end")),
    )

    def __init__(self, *args: Any, entries, tables, bye: bool, **kwargs: Any):
        """``entries``: (entry id, label) of everyone in the round; ``tables``: the table
        numbers open to a move; ``bye``: whether a bye may be given (a draft)."""
        kwargs.setdefault("auto_id", "move_%s")
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [("", "—"), *entries]
        self.fields["table"].choices = [
            ("", "—"),
            *((n, _("Table %(n)s") % {"n": n}) for n in tables),
            *([(0, _("a bye"))] if bye else []),
        ]


class ReopenForm(RuleErrorsMixin, forms.Form):
    # Not required here: the service refuses a blank reason, its message next to the field.
    reason = forms.CharField(
        label=_("Why reopen it"),
        required=False,
        max_length=500,
        help_text=_("Kept in the competition's history, e.g. “table 3's last hand was mistyped”."),
    )

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("auto_id", "reopen_%s")
        super().__init__(*args, **kwargs)
