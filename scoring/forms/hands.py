"""The hand-entry forms, one per ruleset. They only translate: fields in, a document out, and
the rule problems that come back placed next to the field they name. No game rule is decided here.

``HAND_FORMS`` is the edge's registry of games: ruleset key -> form class. Each form names the
template of its own fields (``entry_template``, included by ``partials/hand_form.html``):
templates are the edge's business, so the pure rules package does not name them, and this one
mapping ties ruleset, form and template together. Menus (contracts, seats, sides) and the numbers
a form shows or works out (total card points, default target, who sits out) come from the rules
and the ruleset's ``facts``, which the form also hands to the page's script as JSON.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.forms.options import number_input
from scoring.labels import CONTRACT_LABELS
from scoring.rules import RULESETS, Problem
from scoring.rules.terziglio import CONTRACTS
from scoring.rules.turkish import CATEGORIES as TURKISH_CATEGORIES
from scoring.validators import plain_text

OUTCOME_CHOICES = [("played", _("Played")), ("passed_out", _("Everybody passed"))]
SWEEP_CHOICES = [
    ("none", _("No")),
    ("soloist", _("Soloist took every trick")),
    ("opponents", _("Opponents took every trick")),
]
CARD_CATEGORY_LABELS = {"court": _("Court cards"), "tens": _("Tens"), "other": _("Other cards")}


class HandForm(RuleErrorsMixin, forms.Form):
    """A hand-entry form. ``game`` fixes the seats; ``names`` label them in seat order."""

    #: rule field path (or its first part) → form field name
    field_map: dict[str, str] = {}
    #: The template of this form's own fields, included by ``partials/hand_form.html``.
    entry_template: str

    dealer = forms.TypedChoiceField(label=_("Dealer"), coerce=int, widget=forms.RadioSelect)
    idempotency_key = forms.CharField(
        required=False, widget=forms.HiddenInput, max_length=128, validators=[plain_text]
    )

    def __init__(self, *args: Any, game, names: list[str], entering: bool = False, **kwargs: Any):
        self.game = game
        self.names = names
        self.n = len(names)
        super().__init__(*args, **kwargs)
        self.seat_choices = [(i, name) for i, name in enumerate(names)]
        self.fields["dealer"].choices = self.seat_choices
        if entering and game.hands_need_acceptance:
            # Who enters the hand: a player of another side accepts it (services.confirmations).
            self.fields["seat"] = self.seat_field(_("Who is entering this hand?"), required=True)
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
        decided = self.game.last_dealer is not None or self.game.first_dealer is not None
        return decided and not self.game.options.get("free_dealer")

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
        # A correction shows the stored hand's points: typing one side's fills in the other's on
        # the page (hand_form.js, data-auto: a value not typed here) and, without the script,
        # here (``document``).
        stored = [self.initial.get(f"points_{i}") for i in range(len(self.sides))]
        self.stored = stored if len(stored) == 2 and None not in stored else None
        if self.stored:
            for index in range(2):
                self.fields[f"points_{index}"].widget.attrs["data-auto"] = "1"

    def side_fields(self):
        return [self[f"points_{i}"] for i in range(len(self.sides))]

    def document(self) -> dict[str, Any]:
        data = self.cleaned_data
        points = [data.get(f"points_{i}") for i in range(len(self.sides))]
        if len(points) == 2 and points.count(None) == 1:
            known = next(p for p in points if p is not None)
            total = self.facts["total_points"]
            points = [total - known if p is None else p for p in points]
        elif self.stored and None not in points and sum(points) != self.facts["total_points"]:
            # A correction that changed one side only: the other is what that side leaves.
            changed = [i for i in range(2) if points[i] != self.stored[i]]
            if len(changed) == 1:
                points[1 - changed[0]] = self.facts["total_points"] - points[changed[0]]
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
