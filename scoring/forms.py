"""Forms of the scoring pages. They only translate: fields in, a document out, and the rule
problems that come back placed next to the field they name. No game rule is decided here.

``HAND_FORMS`` has one hand-entry form per ruleset (derived menus: contracts, seats, sides come
from the rules registry and the game). Each form names the template of its fields
(``entry_template``): templates are the edge's business, so the pure rules package does not name
them, and the registry below ties ruleset key, form and template together in one place. The
numbers a form shows or works out (total card points, default target, who sits out) are the
ruleset's ``facts``, which the form also hands to the page for its script. ``StartGameForm``
builds its option fields from each ruleset's described options.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.messages import message
from scoring.models import Player
from scoring.rules import RULESETS, Problem, RuleViolation
from scoring.rules.terziglio import CONTRACTS
from scoring.rules.turkish import CATEGORIES as TURKISH_CATEGORIES

OUTCOME_CHOICES = [("played", _("Played")), ("passed_out", _("Everybody passed"))]
SWEEP_CHOICES = [
    ("none", _("No")),
    ("soloist", _("Soloist took every trick")),
    ("opponents", _("Opponents took every trick")),
]
CONTRACT_LABELS = {
    "chiamo": _("Chiamo"),
    "solo": _("Solo"),
    "solissimo": _("Solissimo"),
    "dividete": _("Solissimo dividete"),
    "scegliete": _("Solissimo scegliete"),
}
CARD_CATEGORY_LABELS = {"court": _("Court cards"), "tens": _("Tens"), "other": _("Other cards")}
NUMBER = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}


def number_input(**attrs: Any) -> forms.NumberInput:
    return forms.NumberInput(attrs=NUMBER | attrs)


class HandForm(forms.Form):
    """A hand-entry form. ``game`` fixes the seats; ``names`` label them in seat order."""

    #: rule field path (or its first part) → form field name
    field_map: dict[str, str] = {}
    #: The template of this form's own fields, included by ``partials/hand_form.html``.
    entry_template: str

    dealer = forms.TypedChoiceField(label=_("Dealer"), coerce=int, widget=forms.RadioSelect)
    idempotency_key = forms.CharField(required=False, widget=forms.HiddenInput, max_length=128)

    def __init__(self, *args: Any, game, names: list[str], **kwargs: Any):
        self.game = game
        self.names = names
        self.n = len(names)
        super().__init__(*args, **kwargs)
        self.seat_choices = [(i, name) for i, name in enumerate(names)]
        self.fields["dealer"].choices = self.seat_choices
        if not self.is_bound and "dealer" not in self.initial and game.next_dealer is not None:
            self.initial["dealer"] = game.next_dealer

    @cached_property
    def facts(self) -> dict[str, Any]:
        """The ruleset's facts for this table (``Ruleset.facts``), for the template and the
        page's script."""
        return self.game.rules.facts(self.game.options, self.n)

    @property
    def dealer_fixed(self) -> bool:
        """The dealer follows the rotation: shown, not asked (unless free or the first hand)."""
        return self.game.last_dealer is not None and not self.game.options.get("free_dealer")

    def seat_field(self, label, required: bool = False) -> forms.TypedChoiceField:
        return forms.TypedChoiceField(
            label=label,
            coerce=int,
            choices=self.seat_choices,
            required=required,
            widget=forms.RadioSelect,
            empty_value=None,
        )

    def document(self) -> dict[str, Any]:  # pragma: no cover - every form defines it
        raise NotImplementedError

    def add_rule_errors(self, violation: RuleViolation) -> None:
        """Each rule problem next to the field it names (in words: the field's label, the
        players' names); the rest above the form."""
        for problem in violation.problems:
            self.add_error(self.form_field(problem), self.problem_text(problem))

    def problem_text(self, problem: Problem) -> str:
        name = self.form_field(problem)
        label = self.fields[name].label if name in self.fields else None
        return message(problem, label=label, names=self.names)

    def form_field(self, problem: Problem) -> str | None:
        path = problem.field
        if path in self.field_map:
            return self.field_map[path]
        head = path.split(".")[0].split("[")[0]
        return self.field_map.get(head)

    @classmethod
    def initial_from(cls, document: dict[str, Any]) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError


class SoloistHandForm(HandForm):
    """Terziglio and Calabrasella: soloist, (contract), points or card count, sweep."""

    entry_template = "scoring/hand_forms/soloist.html"
    count_keys: tuple[str, ...] = ()
    outcome = forms.ChoiceField(
        label=_("Outcome"), choices=OUTCOME_CHOICES, widget=forms.RadioSelect, initial="played"
    )
    entry = forms.ChoiceField(
        label=_("Enter"),
        choices=[("points", _("Points")), ("cards", _("Count the cards"))],
        widget=forms.RadioSelect,
        initial="points",
        required=False,
    )
    aces = forms.IntegerField(
        label=_("Aces"), required=False, min_value=0, widget=number_input(min=0, max=4)
    )
    last_trick = forms.BooleanField(label=_("Last trick"), required=False)
    sweep = forms.ChoiceField(
        label=_("Every trick?"),
        choices=SWEEP_CHOICES,
        widget=forms.RadioSelect,
        initial="none",
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["soloist"] = self.seat_field(_("Soloist"))
        top = self.facts["total_points"]
        self.fields["soloist_points"] = forms.IntegerField(
            label=_("Soloist's points"), required=False, widget=number_input(min=0, max=top)
        )
        self.order_fields(
            [
                "dealer",
                "outcome",
                "soloist",
                "contract",
                "entry",
                "soloist_points",
                "aces",
                *self.count_keys,
                "last_trick",
                "sweep",
            ]
        )

    def document(self) -> dict[str, Any]:
        data = self.cleaned_data
        document: dict[str, Any] = {"dealer": data.get("dealer"), "outcome": data.get("outcome")}
        if data.get("outcome") == "passed_out":
            return document
        document["soloist"] = data.get("soloist")
        if "contract" in self.fields:
            document["contract"] = data.get("contract") or None
        if data.get("entry") == "cards":
            cards = {"aces": data.get("aces")}
            cards |= {key: data.get(key) for key in self.count_keys}
            cards["last_trick"] = bool(data.get("last_trick"))
            document["soloist_cards"] = cards
        else:
            document["soloist_points"] = data.get("soloist_points")
        document["sweep"] = data.get("sweep") or "none"
        return {k: v for k, v in document.items() if v is not None}

    @classmethod
    def initial_from(cls, document: dict[str, Any]) -> dict[str, Any]:
        initial = {
            k: document[k]
            for k in ("dealer", "outcome", "soloist", "contract", "soloist_points", "sweep")
            if k in document
        }
        if "soloist_cards" in document:
            initial["entry"] = "cards"
            initial.update(document["soloist_cards"])
        return initial


class TerziglioHandForm(SoloistHandForm):
    count_keys = ("thirds",)
    field_map = {
        "dealer": "dealer",
        "outcome": "outcome",
        "soloist": "soloist",
        "contract": "contract",
        "soloist_points": "soloist_points",
        "soloist_cards": "aces",
        "soloist_cards.aces": "aces",
        "soloist_cards.thirds": "thirds",
        "soloist_cards.last_trick": "last_trick",
        "sweep": "sweep",
    }
    contract = forms.ChoiceField(
        label=_("Contract"),
        choices=[(key, CONTRACT_LABELS[key]) for key in CONTRACTS],
        widget=forms.RadioSelect,
        required=False,
    )
    thirds = forms.IntegerField(
        label=_("Thirds (3, 2, figures)"),
        required=False,
        min_value=0,
        widget=number_input(min=0, max=20),
    )


class CalabrasellaHandForm(SoloistHandForm):
    count_keys = ("counters",)
    field_map = {**TerziglioHandForm.field_map, "soloist_cards.counters": "counters"}
    counters = forms.IntegerField(
        label=_("Counters (3, 2, figures)"),
        required=False,
        min_value=0,
        widget=number_input(min=0, max=20),
    )


class TurkishHandForm(HandForm):
    """The player who went out, then per other player the cards left (or a quick total)."""

    entry_template = "scoring/hand_forms/turkish.html"

    entry = forms.ChoiceField(
        label=_("Enter"),
        choices=[("cards", _("Cards left")), ("quick", _("Quick total"))],
        widget=forms.RadioSelect,
        initial="cards",
        required=False,
    )
    field_map = {
        "dealer": "dealer",
        "went_out": "went_out",
        "cards_left": "__all__",
        "penalties": "__all__",
    }
    #: The categories of ``cards_left`` (the rules' keys), with their labels.
    CATEGORIES = tuple((key, CARD_CATEGORY_LABELS[key]) for key in TURKISH_CATEGORIES)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["went_out"] = self.seat_field(_("Went out"))
        for seat in range(self.n):
            for key, label in self.CATEGORIES:
                self.fields[f"{key}_{seat}"] = forms.IntegerField(
                    label=label, required=False, min_value=0, widget=number_input(min=0, value=0)
                )
            self.fields[f"points_{seat}"] = forms.IntegerField(
                label=_("Penalty"), required=False, min_value=0, widget=number_input(min=0, step=5)
            )
        self._order: list[int] = []

    def seat_rows(self):
        """Per seat: its name and its bound fields, for the template."""
        return [
            {
                "seat": seat,
                "name": name,
                "counts": [self[f"{key}_{seat}"] for key, _label in self.CATEGORIES],
                "points": self[f"points_{seat}"],
            }
            for seat, name in enumerate(self.names)
        ]

    def document(self) -> dict[str, Any]:
        data = self.cleaned_data
        went_out = data.get("went_out")
        document: dict[str, Any] = {"dealer": data.get("dealer"), "went_out": went_out}
        self._order = [seat for seat in range(self.n) if seat != went_out]
        if data.get("entry") == "quick":
            document["penalties"] = [
                {"seat": s, "points": data.get(f"points_{s}")} for s in self._order
            ]
        else:
            document["cards_left"] = [
                {"seat": s} | {key: data.get(f"{key}_{s}") or 0 for key, _label in self.CATEGORIES}
                for s in self._order
            ]
        return {k: v for k, v in document.items() if v is not None}

    def form_field(self, problem: Problem) -> str | None:
        path = problem.field
        for form in ("cards_left", "penalties"):
            if path.startswith(form + "["):
                index = int(path[len(form) + 1 : path.index("]")])
                key = (
                    path.rsplit(".", 1)[-1]
                    if "." in path
                    else ("points" if form == "penalties" else "other")
                )
                if index < len(self._order) and key in {*TURKISH_CATEGORIES, "points"}:
                    return f"{key}_{self._order[index]}"
        return super().form_field(problem)

    @classmethod
    def initial_from(cls, document: dict[str, Any]) -> dict[str, Any]:
        initial = {"dealer": document.get("dealer"), "went_out": document.get("went_out")}
        if "penalties" in document:
            initial["entry"] = "quick"
            for entry in document["penalties"]:
                initial[f"points_{entry['seat']}"] = entry["points"]
        for entry in document.get("cards_left", []):
            for key in TURKISH_CATEGORIES:
                initial[f"{key}_{entry['seat']}"] = entry[key]
        return initial


class BriscolaHandForm(HandForm):
    """Card points per side; with two sides the other side's points are worked out."""

    entry_template = "scoring/hand_forms/briscola.html"

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.sides = self.facts["sides"]
        for index, side in enumerate(self.sides):
            self.fields[f"points_{index}"] = forms.IntegerField(
                label=" + ".join(self.names[s] for s in side),
                required=False,
                widget=number_input(min=0, max=self.facts["total_points"]),
            )
        self.field_map = {"dealer": "dealer", "points": "__all__"}

    def side_fields(self):
        return [self[f"points_{i}"] for i in range(len(self.sides))]

    def document(self) -> dict[str, Any]:
        data = self.cleaned_data
        points = [data.get(f"points_{i}") for i in range(len(self.sides))]
        if len(points) == 2 and points.count(None) == 1:
            known = next(p for p in points if p is not None)
            total = self.facts["total_points"]
            points = [total - known if p is None else p for p in points]
        return {"dealer": data.get("dealer"), "points": points}

    def form_field(self, problem: Problem) -> str | None:
        if problem.field.startswith("points["):
            return f"points_{problem.field[7:-1]}"
        return super().form_field(problem)

    @classmethod
    def initial_from(cls, document: dict[str, Any]) -> dict[str, Any]:
        initial = {"dealer": document.get("dealer")}
        initial |= {f"points_{i}": p for i, p in enumerate(document.get("points", []))}
        return initial


class ChiamataHandForm(HandForm):
    """Caller, partner (the caller himself if alone), target and the caller's side's points."""

    entry_template = "scoring/hand_forms/briscola_chiamata.html"
    outcome = forms.ChoiceField(
        label=_("Outcome"),
        choices=[("played", _("Played")), ("passed_out", _("Passed or thrown in"))],
        widget=forms.RadioSelect,
        initial="played",
    )
    field_map = {
        "dealer": "dealer",
        "outcome": "outcome",
        "caller": "caller",
        "partner": "partner",
        "target": "target",
        "caller_points": "caller_points",
    }

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["caller"] = self.seat_field(_("Caller"))
        self.fields["partner"] = self.seat_field(_("Partner (the caller himself if alone)"))
        target, total = self.facts["default_target"], self.facts["total_points"]
        self.fields["target"] = forms.IntegerField(
            label=_("Target"),
            required=False,
            initial=target,
            widget=number_input(min=target, max=total),
        )
        self.fields["caller_points"] = forms.IntegerField(
            label=_("Caller's side points"), required=False, widget=number_input(min=0, max=total)
        )
        self.order_fields(["dealer", "outcome", "caller", "partner", "target", "caller_points"])

    def document(self) -> dict[str, Any]:
        data = self.cleaned_data
        document: dict[str, Any] = {"dealer": data.get("dealer"), "outcome": data.get("outcome")}
        if data.get("outcome") == "passed_out":
            return document
        target = self.facts["default_target"]
        document |= {
            "caller": data.get("caller"),
            "partner": data.get("partner"),
            "target": data["target"] if data.get("target") is not None else target,
            "caller_points": data.get("caller_points"),
        }
        return {k: v for k, v in document.items() if v is not None}

    @classmethod
    def initial_from(cls, document: dict[str, Any]) -> dict[str, Any]:
        return {
            k: document[k]
            for k in ("dealer", "outcome", "caller", "partner", "target", "caller_points")
            if k in document
        }


HAND_FORMS: dict[str, type[HandForm]] = {
    "terziglio": TerziglioHandForm,
    "calabrasella": CalabrasellaHandForm,
    "turkish": TurkishHandForm,
    "briscola": BriscolaHandForm,
    "briscola_chiamata": ChiamataHandForm,
}
assert set(HAND_FORMS) == set(RULESETS), "every ruleset needs a hand-entry form"


def hand_form(game, names: list[str], *args: Any, **kwargs: Any) -> HandForm:
    return HAND_FORMS[game.ruleset](*args, game=game, names=names, **kwargs)


# ---------------------------------------------------------------------------------------------
# Starting a game

MAX_SEATS = max(rules.max_seats for rules in RULESETS.values())

OPTION_LABELS = {
    "target_score": _("Target score"),
    "contract_values": _("Stake of each contract"),
    "all_points_multiplier": _("Multiplier when one side has all the points"),
    "all_tricks_multiplier": _("Multiplier when one side takes every trick"),
    "stack_multipliers": _("Both multipliers together when every trick is taken"),
    "sitting_out_dealer_pays": _("The idle dealer pays too (4 players)"),
    "tie_at_target": _("A tie at the target"),
    "max_hands": _("Maximum number of hands"),
    "free_dealer": _("Any player may deal any hand"),
    "deals": _("Number of hands"),
    "sweep_payment": _("Payment for every trick"),
    "values": _("Penalty per card"),
    "packs": _("Packs of cards"),
    "format": _("Sides"),
    "hands_to_win": _("Hands to win the match"),
    "individual_win_rule": _("Who wins a hand with 3 or more sides"),
    "variant": _("Variant"),
    "alone_caller_units": _("Units of a caller playing alone"),
    "cappotto_multiplier": _("Cappotto multiplier"),
    "bid_level_multiplier": _("Multiply by the level of the bid"),
    "sixty_is_draw": _("60 against a target of 61 is a draw"),
}
CHOICE_LABELS = {
    "play_on": _("play on"),
    "shared": _("shared win"),
    "singles": _("every player alone"),
    "pairs": _("two pairs"),
    "highest": _("the highest score"),
    "over_60": _("only over 60"),
    "classic": _("classic"),
    "famiglia_prini": _("famiglia Prini"),
    "court": _("court card"),
    "ten": _("ten"),
    "other": _("other card"),
    **CONTRACT_LABELS,
}


class StartGameForm(forms.Form):
    """Ruleset, house rules (derived from each ruleset's options) and the players seat by seat."""

    ruleset = forms.ChoiceField(
        label=_("Game"),
        choices=[(k, r.name) for k, r in RULESETS.items()],
        widget=forms.RadioSelect,
    )
    preset = forms.ChoiceField(label=_("Rules preset"), required=False)
    title = forms.CharField(label=_("Title (optional)"), required=False, max_length=120)

    def __init__(self, *args: Any, club, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.club = club
        self.player_choices = [("", "—")] + [
            (p.pk, p.display_name)
            for p in Player.objects.filter(club=club, active=True).order_by("display_name")
        ]
        presets = sorted({name for rules in RULESETS.values() for name in rules.presets})
        self.fields["preset"].choices = [("", _("Defaults"))] + [
            (p, p.capitalize()) for p in presets
        ]
        for seat in range(MAX_SEATS):
            self.fields[f"seat_{seat}"] = forms.TypedChoiceField(
                label=_("Seat %(n)s") % {"n": seat + 1},
                choices=self.player_choices,
                coerce=int,
                required=False,
                empty_value=None,
            )
            self.fields[f"new_{seat}"] = forms.CharField(
                label=_("or a new player"),
                required=False,
                max_length=80,
                widget=forms.TextInput(attrs={"autocomplete": "off"}),
            )
        self.option_fields: dict[str, list[tuple[str, str]]] = {}
        for key, rules in RULESETS.items():
            names = []
            for option in rules.describe_options():
                for name, field in self.fields_for_option(key, option):
                    self.fields[name] = field
                    names.append((name, option["key"]))
            self.option_fields[key] = names

    def seat_rows(self):
        return [(self[f"seat_{seat}"], self[f"new_{seat}"]) for seat in range(MAX_SEATS)]

    def max_seats_json(self) -> str:
        return json.dumps({key: rules.max_seats for key, rules in RULESETS.items()})

    def option_groups(self):
        return [
            (
                key,
                {
                    "name": RULESETS[key].name,
                    "presets": bool(RULESETS[key].presets),
                    "fields": [self[name] for name, _option in names],
                },
            )
            for key, names in self.option_fields.items()
        ]

    @staticmethod
    def fields_for_option(ruleset: str, option: dict[str, Any]):
        name = f"{ruleset}__{option['key']}"
        label = OPTION_LABELS.get(option["key"], option["key"].replace("_", " ").capitalize())
        kind = option["type"]
        auto = _("automatic") if option["nullable"] else None
        if kind == "boolean":
            yield name, forms.BooleanField(label=label, required=False, initial=option["default"])
        elif kind == "integer":
            yield (
                name,
                forms.IntegerField(
                    label=label,
                    required=False,
                    initial=option["default"],
                    widget=number_input(
                        min=option["min"], max=option["max"], placeholder=auto or ""
                    ),
                ),
            )
        elif kind == "choice":
            choices = [(c, CHOICE_LABELS.get(c, c.replace("_", " "))) for c in option["choices"]]
            if option["nullable"]:
                choices = [("", auto), *choices]
            yield (
                name,
                forms.ChoiceField(
                    label=label, choices=choices, required=False, initial=option["default"] or ""
                ),
            )
        else:  # an object of integers, given whole
            for sub in option["keys"]:
                yield (
                    f"{name}__{sub}",
                    forms.IntegerField(
                        label=f"{label}: {sub.replace('_', ' ')}",
                        required=False,
                        initial=option["default"][sub],
                        widget=number_input(min=option["min"], max=option["max"]),
                    ),
                )

    def ruleset_options(self) -> dict[str, Any]:
        """The preset, and the options that differ from the defaults the form showed (so an
        untouched field never undoes the preset)."""
        key = self.cleaned_data["ruleset"]
        rules = RULESETS[key]
        options: dict[str, Any] = {}
        preset = self.cleaned_data.get("preset")
        if preset and preset in rules.presets:
            options["preset"] = preset
        defaults = {o["key"]: o for o in rules.describe_options()}
        for name, option_key in self.option_fields[key]:
            option = defaults[option_key]
            if option["type"] == "object":
                sub = name.rsplit("__", 1)[1]
                value = self.cleaned_data.get(name)
                if value is not None and value != option["default"][sub]:
                    whole = options.setdefault(option_key, dict(option["default"]))
                    whole[sub] = value
                continue
            value = self.cleaned_data.get(name)
            if option["type"] == "choice" and value == "":
                value = None
            if value is None and not option["nullable"] and option["type"] != "boolean":
                continue
            if option["type"] == "boolean":
                value = bool(value)
            if value != option["default"]:
                options[option_key] = value
        return options

    def players(self) -> list[Any]:
        """Seats in order: a chosen player's id or a new name; empty rows are skipped."""
        self._rows: list[int] = []
        seats: list[Any] = []
        for seat in range(MAX_SEATS):
            new = (self.cleaned_data.get(f"new_{seat}") or "").strip()
            chosen = self.cleaned_data.get(f"seat_{seat}")
            if new:
                seats.append(new)
            elif chosen is not None:
                seats.append(chosen)
            else:
                continue
            self._rows.append(seat)
        return seats

    def add_rule_errors(self, violation: RuleViolation) -> None:
        ruleset = self.cleaned_data.get("ruleset")
        for problem in violation.problems:
            field = None
            if problem.field.startswith("options."):
                parts = problem.field.split(".")
                candidate = f"{ruleset}__{parts[1]}" + (f"__{parts[2]}" if len(parts) > 2 else "")
                field = candidate if candidate in self.fields else None
                if field is None and parts[1] == "preset":
                    field = "preset"
            elif problem.field.startswith("players["):
                index = int(problem.field[8:-1])
                row = self._rows[index] if index < len(self._rows) else 0
                field = f"new_{row}" if self.cleaned_data.get(f"new_{row}") else f"seat_{row}"
            elif problem.field == "ruleset":
                field = "ruleset"
            label = self.fields[field].label if field in self.fields else None
            self.add_error(field, message(problem, label=label))


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=500, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )


class PinForm(forms.Form):
    pin = forms.CharField(
        label=_("PIN"),
        max_length=8,
        widget=forms.TextInput(attrs=NUMBER | {"autofocus": True, "autocomplete": "one-time-code"}),
    )


class PlayerForm(forms.Form):
    display_name = forms.CharField(label=_("Name"), max_length=80)
