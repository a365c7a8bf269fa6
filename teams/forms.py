"""The forms of a competition between teams: its team rules, a new team with its roster, a
player added to a roster, a side's lineup at every board of a match, a match's result
confirmed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.models import Player
from scoring.validators import plain_text
from teams.models import ResultBy, RosterPlayer, TeamKind, TeamRules

NAME_MAX = 80


def _free_players(competition) -> list[tuple[int, str]]:
    """Active players of the host club on no team of the competition."""
    taken = set(
        RosterPlayer.objects.filter(competition=competition).values_list("player_id", flat=True)
    )
    return [
        (p.pk, p.display_name)
        for p in Player.objects.filter(club=competition.club, active=True).order_by("display_name")
        if p.pk not in taken
    ]


class TeamRulesForm(RuleErrorsMixin, forms.Form):
    kind = forms.ChoiceField(
        label=_("The teams meet"),
        choices=TeamKind.choices,
        initial=TeamKind.MATCHES,
        required=False,
        help_text=_(
            "Mixed tables: for games of three players or more, each round seats the members of "
            "every team at the competition's tables, team-mates apart, and their results add "
            "up (the boards and match settings below are then not used)."
        ),
    )
    boards = forms.IntegerField(
        label=_("Boards per match"), min_value=1, max_value=TeamRules.BOARDS_MAX, initial=3
    )

    def clean_kind(self) -> str:
        # Not given (a form from before the choice existed): team matches, as it was.
        return self.cleaned_data["kind"] or TeamKind.MATCHES

    players_per_board = forms.TypedChoiceField(
        label=_("At each board"),
        coerce=int,
        choices=[(2, _("a pair against a pair")), (1, _("a player against a player"))],
        initial=2,
    )
    result_by = forms.ChoiceField(
        label=_("A match is won by"), choices=ResultBy.choices, initial=ResultBy.BOARDS
    )
    win_points = forms.IntegerField(
        label=_("Points for a win"), min_value=0, max_value=100, initial=1
    )
    draw_points = forms.IntegerField(
        label=_("Points for a draw"), min_value=0, max_value=100, initial=0
    )
    loss_points = forms.IntegerField(
        label=_("Points for a loss"), min_value=0, max_value=100, initial=0
    )
    lineup_may_change = forms.BooleanField(
        label=_("The lineup may change between games of a match"), required=False
    )
    lots_seed = forms.CharField(
        label=_("Seed of the drawing of lots"),
        required=False,
        max_length=40,
        validators=[plain_text],
    )


class TeamForm(RuleErrorsMixin, forms.Form):
    field_map = {"players": "players"}

    name = forms.CharField(label=_("Team name"), max_length=NAME_MAX, validators=[plain_text])
    players = forms.TypedMultipleChoiceField(
        label=_("Roster"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    captain = forms.TypedChoiceField(
        label=_("Captain"), coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args: Any, competition, **kwargs: Any):
        super().__init__(*args, **kwargs)
        free = _free_players(competition)
        self.fields["players"].choices = free
        self.fields["captain"].choices = [("", _("none")), *free]


class RosterForm(RuleErrorsMixin, forms.Form):
    player = forms.TypedChoiceField(label=_("Add a player"), coerce=int)

    def __init__(self, *args: Any, competition, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = _free_players(competition)


class LineupForm(RuleErrorsMixin, forms.Form):
    """One side's players at every board: ``board_<n>_<i>`` is the i-th player at board n."""

    def __init__(self, *args: Any, side: str, rules: TeamRules, roster, current, **kwargs: Any):
        super().__init__(*args, prefix=side, **kwargs)
        self.side, self.rules = side, rules
        choices = [("", "—"), *((r.player_id, r.player.display_name) for r in roster)]
        self.field_map = {"lineup": None}
        for board in range(1, rules.boards + 1):
            given = current.get((board, side), [])
            for index in range(rules.players_per_board):
                name = f"board_{board}_{index}"
                self.fields[name] = forms.TypedChoiceField(
                    label=_("Board %(board)s, player %(n)s") % {"board": board, "n": index + 1},
                    coerce=int,
                    choices=choices,
                    initial=given[index] if index < len(given) else None,
                )
                self.field_map[f"lineup.{board}.{index}"] = name
            self.field_map[f"lineup.{board}"] = f"board_{board}_0"

    def form_field(self, problem):
        if problem.field in self.field_map:
            return self.field_map[problem.field]
        return super().form_field(problem)

    def lineup(self) -> dict[int, list[int]]:
        return {
            board: [
                self.cleaned_data[f"board_{board}_{index}"]
                for index in range(self.rules.players_per_board)
            ]
            for board in range(1, self.rules.boards + 1)
        }

    def boards(self) -> list[list[Any]]:
        """The bound fields, board by board (for the template)."""
        return [
            [self[f"board_{board}_{index}"] for index in range(self.rules.players_per_board)]
            for board in range(1, self.rules.boards + 1)
        ]


class ConfirmForm(RuleErrorsMixin, forms.Form):
    home_score = forms.IntegerField(label=_("Home"), min_value=0)
    away_score = forms.IntegerField(label=_("Away"), min_value=0)


class ScheduleForm(RuleErrorsMixin, forms.Form):
    """When a round of matches is played: a date and a start time (the club's wall-clock
    time). One per round on the teams page, prefixed ``round<n>``."""

    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    start_time = forms.TimeField(
        label=_("Start time"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
