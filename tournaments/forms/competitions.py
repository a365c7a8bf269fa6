"""The forms of a competition's settings: a new competition (everything
``services.create_competition`` takes, the house rules per game included) and the settings page
of an existing one (``services.update_competition``), which share their fields."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.forms.once import OnceMixin
from scoring.forms.options import RulesetOptionsMixin, number_input
from scoring.labels import game_choices, match_label
from scoring.rules import Problem
from scoring.validators import any_text, plain_text
from tournaments import standings as pure_standings
from tournaments.labels import SCHEME_LABELS, TIE_BREAK_LABELS
from tournaments.models import STAGE_LENGTH_MAX, STAGE_LENGTHS, Competition, Format, Kind
from tournaments.services.competitions import EDITABLE
from tournaments.standings import DEFAULT_PLACEMENT_POINTS, SCHEMES, TIE_BREAKS

DEFAULT_TIE_BREAKS = pure_standings.DEFAULT_TIE_BREAKS

PLACEMENT_SIZES = tuple(sorted(DEFAULT_PLACEMENT_POINTS))
#: The columns' lengths: longer input is refused next to its field, never cut.
NAME_MAX = Competition._meta.get_field("name").max_length
SLUG_MAX = Competition._meta.get_field("slug").max_length
#: A knockout stage's length as the club room says it ("best of 3"); empty: the house rule.
LENGTH_CHOICES = [("", _("as the house rules say"))] + [
    (wins, lazy(match_label, str)(wins)) for wins in range(1, STAGE_LENGTH_MAX + 1)
]


def length_field(label):
    return forms.TypedChoiceField(
        label=label, choices=LENGTH_CHOICES, coerce=int, empty_value=None, required=False
    )


#: Settings the form shows in fields of their own (one per tie-break, one per table size).
SPELLED_OUT = ("tie_breaks", "placement_points")


class CompetitionForm(OnceMixin, RuleErrorsMixin, RulesetOptionsMixin, forms.Form):
    """Everything ``services.create_competition`` takes; house rules per game are the option
    fields of ``scoring.forms.options`` (``<ruleset>__<option>``), as on the new-game form.
    Given the ``user`` who fills it in, it is sent once (``scoring.forms.once``)."""

    name = forms.CharField(label=_("Name"), max_length=NAME_MAX, validators=[plain_text])
    slug = forms.SlugField(
        label=_("Short name in addresses (optional)"),
        max_length=SLUG_MAX,
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
    min_table_size = forms.IntegerField(
        label=_("Smallest table"),
        required=False,
        widget=number_input(min=2, max=8, placeholder=_("the game's smallest")),
    )
    max_table_size = forms.IntegerField(
        label=_("Largest table"),
        required=False,
        widget=number_input(min=2, max=8, placeholder=_("the game's largest")),
        help_text=_("Every draw seats tables of these sizes only, nearest the preferred size."),
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
    early_rounds_hands_to_win = length_field(_("Knockout rounds before the semi-finals"))
    semi_final_hands_to_win = length_field(_("Semi-finals and third-place match"))
    final_hands_to_win = length_field(_("Final"))
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

    def __init__(self, *args: Any, user=None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if user is not None:
            self.add_once(user=user, purpose="new_competition")
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

    def settings(self, format: str, kind: str) -> dict[str, Any]:
        """The settings a competition is created with and may change later, as filled in; those
        its ``format`` or ``kind`` does not use are off (a double round outside a round robin,
        best nights outside a league)."""
        data = self.cleaned_data
        league = kind == Kind.LEAGUE
        # A single-elimination stage: a knockout, or the knockout a Swiss cuts to.
        knockout = format == Format.KNOCKOUT or (format == Format.SWISS and data.get("cut_to"))
        return {
            "name": data["name"],
            "description": data.get("description") or "",
            "table_size": data.get("table_size"),
            "min_table_size": data.get("min_table_size"),
            "max_table_size": data.get("max_table_size"),
            "planned_rounds": data.get("planned_rounds"),
            "double_round": bool(data.get("double_round")) and format == Format.ROUND_ROBIN,
            "third_place": bool(data.get("third_place") and knockout),
            **{field: data.get(field) if knockout else None for field in STAGE_LENGTHS},
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

    def service_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``services.create_competition``."""
        data = self.cleaned_data
        format = data["format"]
        return self.settings(format, data["kind"]) | {
            "slug": data.get("slug") or "",
            "kind": data["kind"],
            "rulesets": list(data["rulesets"]),
            "format": format,
            "options": self.options(),
            "bracket_reset": bool(data.get("bracket_reset")) or format != Format.DOUBLE,
            "cut_to": data.get("cut_to") if format == Format.SWISS else None,
            "hands_must_be_accepted": bool(data.get("hands_must_be_accepted")),
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
        initial = {key: getattr(competition, key) for key in EDITABLE if key not in SPELLED_OUT}
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
        """The keyword arguments of ``services.update_competition``: a setting the format does
        not use keeps its value."""
        data = self.cleaned_data
        competition = self.competition
        format = competition.format
        return self.settings(format, competition.kind) | {
            "bracket_reset": bool(data.get("bracket_reset"))
            if format == Format.DOUBLE
            else competition.bracket_reset,
            "cut_to": data.get("cut_to") if format == Format.SWISS else competition.cut_to,
        }
