"""The forms of a round's life: its slot and game, a season of weekly nights at once, who is
present; and the next round's slot as the calendar suggests it (``next_round_initial``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.forms.once import OnceMixin
from scoring.forms.options import number_input
from scoring.labels import game_choices
from tournaments.models import Competition, Round
from tournaments.services import next_slot


class RoundForm(OnceMixin, RuleErrorsMixin, forms.Form):
    """A round's slot and game: a new round (sent once, given the ``user``: a double tap adds
    one round) or a round's details."""

    ruleset = forms.ChoiceField(label=_("Game"), required=False)
    date = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    start_time = forms.TimeField(
        label=_("Start time"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
    duration_minutes = forms.IntegerField(
        label=_("Expected duration (minutes)"),
        initial=90,
        widget=number_input(min=10, max=1440, step=5),
    )

    def __init__(self, *args: Any, competition, user=None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if user is not None:
            self.add_once(user=user, purpose="add_round")
        self.fields["ruleset"].choices = game_choices(competition.rulesets)
        self.fields["ruleset"].initial = competition.rulesets[0] if competition.rulesets else ""
        self.several_games = len(competition.rulesets) > 1


class SeasonForm(RuleErrorsMixin, forms.Form):
    """A season of weekly nights in one step (``services.add_season``)."""

    first_date = forms.DateField(
        label=_("First night"), widget=forms.DateInput(attrs={"type": "date"})
    )
    weekday = forms.TypedChoiceField(
        label=_("Weekday"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", _("the first night's"))] + [(k, v) for k, v in WEEKDAYS.items()],
    )
    start_time = forms.TimeField(
        label=_("Start time"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
    nights = forms.IntegerField(
        label=_("Number of nights"), min_value=1, max_value=60, widget=number_input(min=1, max=60)
    )
    rulesets = forms.MultipleChoiceField(
        label=_("Games, in turn"), widget=forms.CheckboxSelectMultiple, required=False
    )
    duration_minutes = forms.IntegerField(
        label=_("Expected duration (minutes)"),
        initial=180,
        widget=number_input(min=10, max=1440, step=5),
    )

    def __init__(self, *args: Any, competition, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["rulesets"].choices = game_choices(competition.rulesets)
        self.fields["rulesets"].initial = list(competition.rulesets)
        self.several_games = len(competition.rulesets) > 1


class CheckInForm(forms.Form):
    present = forms.TypedMultipleChoiceField(
        label=_("Present"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    #: Who was checked in when the page was shown: a player checking in from a phone meanwhile
    #: is not unticked by a page that never showed them (``services.set_check_ins``).
    shown = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, entries, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["present"].choices = [
            (e.pk, e.name + (f" ({_('late')})" if e.late else "")) for e in entries
        ]

    def clean_shown(self) -> list[int] | None:
        """The ids the page showed as checked in; None from a form without them (sent by an
        older page): then the ticks are the whole list, as before."""
        if "shown" not in self.data:
            return None
        text = self.cleaned_data.get("shown") or ""
        return [int(part) for part in text.split(",") if part.strip().isdigit()]


def next_round_initial(competition: Competition, last: Round | None) -> dict[str, Any]:
    """The next round's form, filled from the competition's calendar: the next date and time
    after the last round (a league: a week later; a tournament: when the last one ends), else
    the competition's first day; the game after the last round's in the competition's list (a
    league rotating its games), else the first."""
    date, start_time = next_slot(competition, last)
    if last is None:
        date = competition.start_date
    games = competition.rulesets
    ruleset = games[0] if games else ""
    if last is not None and last.ruleset in games:
        ruleset = games[(games.index(last.ruleset) + 1) % len(games)]
    return {
        "date": date,
        "start_time": start_time if start_time is not None else (last.start_time if last else None),
        "duration_minutes": last.duration_minutes if last else 90,
        "ruleset": ruleset,
    }
