"""Forms of the competition pages. Like the scoring forms they only translate: fields in, the
keyword arguments of a ``tournaments.services`` call out, and the rule problems that come back
placed next to the field they name (``scoring.forms.errors.RuleErrorsMixin``, with the sentences
of ``scoring.messages``). No competition rule is decided here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.forms.options import NUMBER, RulesetOptionsMixin, number_input
from scoring.labels import game_choices
from scoring.models import Player
from scoring.rules import Problem
from scoring.validators import any_text, plain_text
from tournaments import standings as pure_standings
from tournaments.labels import SCHEME_LABELS, TIE_BREAK_LABELS
from tournaments.models import Format, Kind, RepeatObjective, Round
from tournaments.standings import DEFAULT_PLACEMENT_POINTS, SCHEMES, TIE_BREAKS

DEFAULT_TIE_BREAKS = pure_standings.DEFAULT_TIE_BREAKS
PLACEMENT_SIZES = tuple(sorted(DEFAULT_PLACEMENT_POINTS))


# ---------------------------------------------------------------------------------------------
# A new competition


class CompetitionForm(RuleErrorsMixin, RulesetOptionsMixin, forms.Form):
    """Everything ``services.create_competition`` takes; house rules per game are the option
    fields of ``scoring.forms.options`` (``<ruleset>__<option>``), as on the new-game form."""

    name = forms.CharField(label=_("Name"), max_length=120, validators=[plain_text])
    slug = forms.SlugField(
        label=_("Short name in addresses (optional)"),
        max_length=60,
        required=False,
        help_text=_("Made from the name when empty."),
    )
    kind = forms.ChoiceField(
        label=_("Kind"), choices=Kind.choices, widget=forms.RadioSelect, initial=Kind.TOURNAMENT
    )
    rulesets = forms.MultipleChoiceField(
        label=_("Games"),
        choices=game_choices,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Several games only in a league (one standings table per game)."),
        error_messages={"required": _("Choose at least one game.")},
    )
    format = forms.ChoiceField(label=_("Format"), choices=Format.choices, initial=Format.ROTATION)
    table_size = forms.IntegerField(
        label=_("Preferred table size"),
        required=False,
        widget=number_input(min=2, max=8, placeholder=_("the game's usual size")),
    )
    planned_rounds = forms.IntegerField(
        label=_("Number of rounds"), required=False, widget=number_input(min=1, max=60)
    )
    double_round = forms.BooleanField(label=_("Double round robin (home and away)"), required=False)
    third_place = forms.BooleanField(label=_("Third-place match"), required=False)
    cut_to = forms.IntegerField(
        label=_("Then a knockout of the top"),
        required=False,
        widget=number_input(min=2, max=256),
        help_text=_(
            "After the Swiss rounds, the best of the standings play a seeded knockout (byes to "
            "the top seeds if they are not 2, 4, 8…). Empty: the Swiss standings are final."
        ),
    )
    bracket_reset = forms.BooleanField(
        label=_("Bracket reset"),
        required=False,
        initial=True,
        help_text=_(
            "If the losers' bracket champion wins the grand final, both finalists have lost "
            "once: a second grand final decides."
        ),
    )
    scheme = forms.ChoiceField(
        label=_("Points"),
        choices=[(k, SCHEME_LABELS[k]) for k in SCHEMES],
        initial=pure_standings.DEFAULT_SCHEME,
    )
    best_of = forms.IntegerField(
        label=_("Count only the best N nights"),
        required=False,
        widget=number_input(min=1, max=100, placeholder=_("all")),
    )
    min_rounds = forms.IntegerField(
        label=_("Nights needed to be ranked"),
        required=False,
        initial=0,
        widget=number_input(min=0, max=100),
    )
    start_date = forms.DateField(
        label=_("First day"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(
        label=_("Last day"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    public = forms.BooleanField(
        label=_("Public: anyone may follow the schedule and the standings online"),
        required=False,
        initial=True,
    )
    notify_entrants = forms.BooleanField(
        label=_("E-mail the entrants their table when a round is published"), required=False
    )
    hands_must_be_accepted = forms.BooleanField(
        label=_("Each hand must be accepted by a player of another side before it counts"),
        required=False,
    )
    description = forms.CharField(
        label=_("Description"),
        required=False,
        validators=[any_text],
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    field_map = {
        "end_date": "end_date",
        "tie_breaks": "tie_break_1",
    }

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(k, TIE_BREAK_LABELS[k]) for k in TIE_BREAKS]
        for index in range(len(TIE_BREAKS)):
            name = f"tie_break_{index + 1}"
            self.fields[name] = forms.ChoiceField(
                label=_("%(n)s.") % {"n": index + 1},
                choices=choices,
                required=False,
                initial=DEFAULT_TIE_BREAKS[index] if index < len(DEFAULT_TIE_BREAKS) else "",
            )
        for size in PLACEMENT_SIZES:
            default = " ".join(str(p) for p in DEFAULT_PLACEMENT_POINTS[size])
            self.fields[f"placement_{size}"] = forms.CharField(
                label=_("Tables of %(n)s") % {"n": size},
                required=False,
                max_length=80,
                validators=[any_text],
                widget=forms.TextInput(attrs={"placeholder": default, "autocomplete": "off"}),
            )
        self.add_option_fields()
        self._tie_rows: list[str] = []

    # -- groups of fields for the template ----------------------------------------------------

    def tie_break_fields(self):
        return [self[f"tie_break_{i + 1}"] for i in range(len(TIE_BREAKS))]

    def placement_fields(self):
        return [self[f"placement_{size}"] for size in PLACEMENT_SIZES]

    # -- cleaning -----------------------------------------------------------------------------

    def clean(self):
        data = super().clean()
        seen: dict[str, str] = {}
        self._tie_rows = []
        for index in range(len(TIE_BREAKS)):
            name = f"tie_break_{index + 1}"
            value = data.get(name)
            if not value:
                continue
            if value in seen:
                self.add_error(name, _("Each tie-break may be listed only once."))
            seen[value] = name
            self._tie_rows.append(name)
        for size in PLACEMENT_SIZES:
            name = f"placement_{size}"
            text = (data.get(name) or "").replace(";", " ").replace(",", " ")
            if not text.strip():
                data[name] = None
                continue
            try:
                data[name] = [Decimal(part) for part in text.split()]
            except ArithmeticError:
                self.add_error(
                    name,
                    _("Write %(n)s numbers separated by spaces, best place first.") % {"n": size},
                )
        return data

    def tie_breaks(self) -> list[str]:
        return [self.cleaned_data[name] for name in self._tie_rows]

    def placement_points(self) -> dict[str, list[Any]] | None:
        table = {}
        for size in PLACEMENT_SIZES:
            values = self.cleaned_data.get(f"placement_{size}")
            if values:
                table[str(size)] = [
                    int(v) if v == v.to_integral_value() else float(v) for v in values
                ]
        return table or None

    def options(self) -> dict[str, dict[str, Any]]:
        """Per chosen game: its preset and the house rules that differ from the defaults."""
        chosen = {key: self.options_for(key) for key in self.cleaned_data.get("rulesets") or []}
        return {key: options for key, options in chosen.items() if options}

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        league = data.get("kind") == Kind.LEAGUE
        return {
            "name": data["name"],
            "slug": data.get("slug") or "",
            "kind": data["kind"],
            "rulesets": list(data["rulesets"]),
            "format": data["format"],
            "options": self.options(),
            "table_size": data.get("table_size"),
            "planned_rounds": data.get("planned_rounds"),
            "double_round": bool(data.get("double_round")) and data["format"] == Format.ROUND_ROBIN,
            "third_place": bool(data.get("third_place")) and data["format"] == Format.KNOCKOUT,
            "bracket_reset": bool(data.get("bracket_reset")) or data["format"] != Format.DOUBLE,
            "cut_to": data.get("cut_to") if data["format"] == Format.SWISS else None,
            "scheme": data["scheme"],
            "placement_points": self.placement_points(),
            "tie_breaks": self.tie_breaks(),
            "best_of": data.get("best_of") if league else None,
            "min_rounds": (data.get("min_rounds") or 0) if league else 0,
            "start_date": data.get("start_date"),
            "end_date": data.get("end_date"),
            "public": bool(data.get("public")),
            "notify_entrants": bool(data.get("notify_entrants")),
            "hands_must_be_accepted": bool(data.get("hands_must_be_accepted")),
            "description": data.get("description") or "",
        }

    def form_field(self, problem: Problem) -> str | None:
        path = problem.field
        if path.startswith("tie_breaks["):
            index = int(path[len("tie_breaks[") : path.index("]")])
            return self._tie_rows[index] if index < len(self._tie_rows) else "tie_break_1"
        if path.startswith("rulesets"):
            return "rulesets"
        if path.startswith("placement_points."):
            name = f"placement_{path.split('.')[1]}"
            return name if name in self.fields else None
        if path.startswith("options."):
            # options.<game>.<option>[.<part>]: the game's own fields
            parts = path.split(".")
            if len(parts) < 3:
                return None
            if parts[2] == "preset":
                return f"{parts[1]}__preset" if f"{parts[1]}__preset" in self.fields else None
            return self.option_field(parts[1], ".".join(["options", *parts[2:]]))
        return super().form_field(problem)


# ---------------------------------------------------------------------------------------------
# Entries


class EntriesForm(RuleErrorsMixin, forms.Form):
    """Players of the club (checkboxes) and new names, one per line."""

    players = forms.TypedMultipleChoiceField(
        label=_("Players of the club"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    new_names = forms.CharField(
        label=_("New players, one name per line"),
        required=False,
        validators=[any_text],
        widget=forms.Textarea(attrs={"rows": 3, "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, competition, **kwargs: Any):
        super().__init__(*args, **kwargs)
        taken = set(competition.entries.values_list("player_id", flat=True)) | set(
            competition.entries.exclude(partner=None).values_list("partner_id", flat=True)
        )
        self.fields["players"].choices = [
            (p.pk, p.display_name)
            for p in Player.objects.filter(club=competition.club, active=True).order_by(
                "display_name"
            )
            if p.pk not in taken
        ]

    def names(self) -> list[str]:
        lines = (self.cleaned_data.get("new_names") or "").splitlines()
        return [" ".join(line.split()) for line in lines if line.strip()]

    def clean(self):
        data = super().clean()
        if not data.get("players") and not self.names():
            raise forms.ValidationError(_("Choose players of the club or write new names."))
        return data


class PairForm(RuleErrorsMixin, forms.Form):
    """A fixed pair (Briscola pairs): each player chosen from the club or a new name."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int, required=False, empty_value=None)
    player_new = forms.CharField(
        label=_("or a new player"), required=False, max_length=80, validators=[plain_text]
    )
    partner = forms.TypedChoiceField(
        label=_("Partner"), coerce=int, required=False, empty_value=None
    )
    partner_new = forms.CharField(
        label=_("or a new player"), required=False, max_length=80, validators=[plain_text]
    )

    def __init__(self, *args: Any, competition, **kwargs: Any):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [
            (p.pk, p.display_name)
            for p in Player.objects.filter(club=competition.club, active=True).order_by(
                "display_name"
            )
        ]
        self.fields["player"].choices = choices
        self.fields["partner"].choices = choices

    def _side(self, key: str) -> Any:
        new = (self.cleaned_data.get(f"{key}_new") or "").strip()
        return new or self.cleaned_data.get(key)

    def clean(self):
        data = super().clean()
        for key in ("player", "partner"):
            if not self._side(key):
                self.add_error(key, _("Choose a player or write a new name."))
        return data

    def service_arguments(self) -> dict[str, Any]:
        return {"player": self._side("player"), "partner": self._side("partner")}

    def form_field(self, problem: Problem) -> str | None:
        if problem.field in ("player", "partner"):
            key = problem.field
            return f"{key}_new" if self.cleaned_data.get(f"{key}_new") else key
        return super().form_field(problem)


class WithdrawForm(forms.Form):
    entry = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        validators=[any_text],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


# ---------------------------------------------------------------------------------------------
# Rounds


class RoundForm(RuleErrorsMixin, forms.Form):
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

    def __init__(self, *args: Any, competition, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = game_choices(competition.rulesets)
        self.fields["ruleset"].initial = competition.rulesets[0] if competition.rulesets else ""
        self.several_games = len(competition.rulesets) > 1


class GenerateForm(forms.Form):
    objective = forms.ChoiceField(
        label=_("When some repeats cannot be avoided"),
        required=False,
        choices=RepeatObjective.choices,
        widget=forms.RadioSelect,
    )
    method = forms.ChoiceField(
        label=_("Seat players"),
        required=False,
        choices=[
            ("rotation", _("to meet new opponents")),
            ("standing", _("with players of similar standing")),
        ],
        widget=forms.RadioSelect,
    )
    seed = forms.IntegerField(
        label=_("Seed (optional)"),
        required=False,
        min_value=0,
        max_value=Round.SEED_MAX,
        help_text=_("The same seed draws the same tables; empty: a new draw."),
        widget=number_input(min=0, placeholder=_("random")),
    )


class CheckInForm(forms.Form):
    present = forms.TypedMultipleChoiceField(
        label=_("Present"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, entries, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["present"].choices = [
            (e.pk, e.name + (f" ({_('late')})" if e.late else "")) for e in entries
        ]


class SwapForm(RuleErrorsMixin, forms.Form):
    a = forms.TypedChoiceField(label=_("Swap"), coerce=int)
    b = forms.TypedChoiceField(label=_("with"), coerce=int)

    def __init__(self, *args: Any, choices, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["a"].choices = [("", "—"), *choices]
        self.fields["b"].choices = [("", "—"), *choices]

    def clean(self):
        data = super().clean()
        if data.get("a") is not None and data.get("a") == data.get("b"):
            self.add_error("b", _("Choose two different players."))
        return data


class ForfeitForm(RuleErrorsMixin, forms.Form):
    table = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        validators=[any_text],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args: Any, seats=(), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.entries = []
        for entry in seats:
            name = f"points_{entry.pk}"
            self.fields[name] = forms.DecimalField(
                label=_("Points for %(name)s") % {"name": entry.name},
                required=False,
                max_digits=8,
                decimal_places=2,
                widget=forms.NumberInput(attrs=NUMBER | {"step": "0.5", "inputmode": "decimal"}),
            )
            self.entries.append(entry)

    def point_fields(self):
        return [self[f"points_{e.pk}"] for e in self.entries]

    def points(self) -> dict[int, Decimal]:
        return {
            e.pk: self.cleaned_data[f"points_{e.pk}"]
            for e in self.entries
            if self.cleaned_data.get(f"points_{e.pk}") is not None
        }

    def form_field(self, problem: Problem) -> str | None:
        if problem.field.startswith("points."):
            name = f"points_{problem.field.split('.', 1)[1]}"
            return name if name in self.fields else None
        return super().form_field(problem)


class AdjustForm(RuleErrorsMixin, forms.Form):
    entry = forms.TypedChoiceField(label=_("Player"), coerce=int)
    points = forms.DecimalField(
        label=_("Points (negative to take)"),
        max_digits=8,
        decimal_places=2,
        widget=forms.NumberInput(attrs={"step": "0.5", "inputmode": "decimal"}),
    )
    round = forms.TypedChoiceField(label=_("Round"), coerce=int, required=False, empty_value=None)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        validators=[any_text],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args: Any, entries, rounds, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [("", "—")] + [(e.pk, e.name) for e in entries]
        self.fields["round"].choices = [("", _("the whole competition"))] + [
            (r.number, _("Round %(n)s") % {"n": r.number}) for r in rounds
        ]


class WhereForm(forms.Form):
    entry = forms.TypedChoiceField(label=_("Your name"), coerce=int)

    def __init__(self, *args: Any, entries, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [("", "—")] + [(e.pk, e.name) for e in entries]


class CompetitionSettingsForm(CompetitionForm):
    """The settings of an existing competition (``services.update_competition``), prefilled.
    Its kind, format, games, address and house rules stay as created: the games already played
    were scored by them."""

    KEPT = ("slug", "kind", "rulesets", "format")

    confirm = forms.BooleanField(
        label=_("Yes, recompute the standings with these settings"), required=False
    )

    def __init__(self, *args: Any, competition, **kwargs: Any):
        self.competition = competition
        initial = {
            key: getattr(competition, key)
            for key in (
                "name",
                "description",
                "table_size",
                "planned_rounds",
                "double_round",
                "third_place",
                "bracket_reset",
                "cut_to",
                "scheme",
                "best_of",
                "min_rounds",
                "start_date",
                "end_date",
                "public",
                "notify_entrants",
            )
        }
        for index in range(len(TIE_BREAKS)):
            ties = competition.tie_breaks or []
            initial[f"tie_break_{index + 1}"] = ties[index] if index < len(ties) else ""
        for size in PLACEMENT_SIZES:
            points = (competition.placement_points or {}).get(str(size))
            initial[f"placement_{size}"] = " ".join(str(p) for p in points) if points else ""
        super().__init__(*args, initial=initial, **kwargs)
        for name in self.KEPT:
            del self.fields[name]
        for key, names in self.option_fields.items():
            for name, _option in names:
                del self.fields[name]
            self.fields.pop(f"{key}__preset", None)
        self.option_fields = {}

    def changes(self) -> dict[str, Any]:
        data = self.cleaned_data
        competition = self.competition
        league = competition.kind == Kind.LEAGUE
        return {
            "name": data["name"],
            "description": data.get("description") or "",
            "table_size": data.get("table_size"),
            "planned_rounds": data.get("planned_rounds"),
            "double_round": bool(data.get("double_round"))
            and competition.format == Format.ROUND_ROBIN,
            "third_place": bool(data.get("third_place")) and competition.format == Format.KNOCKOUT,
            "bracket_reset": bool(data.get("bracket_reset"))
            if competition.format == Format.DOUBLE
            else competition.bracket_reset,
            "cut_to": data.get("cut_to")
            if competition.format == Format.SWISS
            else competition.cut_to,
            "scheme": data["scheme"],
            "placement_points": self.placement_points(),
            "tie_breaks": self.tie_breaks(),
            "best_of": data.get("best_of") if league else None,
            "min_rounds": (data.get("min_rounds") or 0) if league else 0,
            "start_date": data.get("start_date"),
            "end_date": data.get("end_date"),
            "public": bool(data.get("public")),
            "notify_entrants": bool(data.get("notify_entrants")),
        }


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
