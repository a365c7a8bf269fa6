"""Forms of the scoring pages other than hand entry (``scoring.hand_forms``), and the labels of
the games' options, choices and contracts. They only translate: fields in, values out, and the
rule problems that come back placed next to the field they name. No game rule is decided here.

``StartGameForm`` builds its option fields from each ruleset's described options.
"""

from __future__ import annotations

import json
import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.utils.translation import gettext_lazy as _

from scoring.form_errors import RuleErrorsMixin
from scoring.models import GAME_NAMES, Player
from scoring.rules import RULESETS, Problem
from scoring.validators import any_text, plain_text

CONTRACT_LABELS = {
    "chiamo": _("Chiamo"),
    "solo": _("Solo"),
    "solissimo": _("Solissimo"),
    "dividete": _("Solissimo dividete"),
    "scegliete": _("Solissimo scegliete"),
}
NUMBER = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}


def number_input(**attrs: Any) -> forms.NumberInput:
    return forms.NumberInput(attrs=NUMBER | attrs)


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
#: The rules presets (``Ruleset.presets``) in words.
PRESET_LABELS = {
    "standard": _("Standard stakes"),
    "traditional": _("Traditional stakes"),
}


class StartGameForm(RuleErrorsMixin, forms.Form):
    """Ruleset, house rules (derived from each ruleset's options) and the players seat by seat."""

    ruleset = forms.ChoiceField(
        label=_("Game"),
        choices=[(k, GAME_NAMES.get(k, r.name)) for k, r in RULESETS.items()],
        widget=forms.RadioSelect,
    )
    preset = forms.ChoiceField(label=_("Rules preset"), required=False)
    title = forms.CharField(
        label=_("Title (optional)"), required=False, max_length=120, validators=[plain_text]
    )
    hands_need_acceptance = forms.BooleanField(
        label=_("Each hand must be accepted by a player of another side before it counts"),
        required=False,
    )

    def __init__(self, *args: Any, club, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.club = club
        self.player_choices = [("", "—")] + [
            (p.pk, p.display_name)
            for p in Player.objects.filter(club=club, active=True).order_by("display_name")
        ]
        presets = sorted({name for rules in RULESETS.values() for name in rules.presets})
        self.fields["preset"].choices = [("", _("Defaults"))] + [
            (p, PRESET_LABELS.get(p, p.capitalize())) for p in presets
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
                validators=[plain_text],
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
                    "name": GAME_NAMES.get(key, RULESETS[key].name),
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
                        label=_("%(option)s: %(part)s")
                        % {"option": label, "part": CHOICE_LABELS.get(sub, sub.replace("_", " "))},
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

    def form_field(self, problem: Problem) -> str | None:
        """House rules are ``<ruleset>__<option>`` fields, players the seat rows."""
        path = problem.field
        if path.startswith("options."):
            parts = path.split(".")
            ruleset = self.cleaned_data.get("ruleset")
            candidate = f"{ruleset}__{parts[1]}" + (f"__{parts[2]}" if len(parts) > 2 else "")
            if candidate in self.fields:
                return candidate
            return "preset" if parts[1] == "preset" else None
        if path.startswith("players["):
            index = int(path[8:-1])
            row = self._rows[index] if index < len(self._rows) else 0
            return f"new_{row}" if self.cleaned_data.get(f"new_{row}") else f"seat_{row}"
        return "ruleset" if path == "ruleset" else None


class ReasonForm(RuleErrorsMixin, forms.Form):
    """Why a hand is removed or a game abandoned; a refusal of the service goes above it."""

    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        validators=[any_text],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class PinForm(forms.Form):
    pin = forms.CharField(
        label=_("PIN"),
        max_length=8,
        widget=forms.TextInput(attrs=NUMBER | {"autofocus": True, "autocomplete": "one-time-code"}),
    )


class PlayerForm(RuleErrorsMixin, forms.Form):
    display_name = forms.CharField(label=_("Name"), max_length=80, validators=[plain_text])


# ---------------------------------------------------------------------------------------------
# A club and its people (scoring.member_views)


def time_zone_choices() -> list[tuple[str, str]]:
    return [(zone, zone.replace("_", " ")) for zone in sorted(zoneinfo.available_timezones())]


class ClubForm(RuleErrorsMixin, forms.Form):
    """A new club: its name, address, time zone, language and whether its results are public."""

    name = forms.CharField(label=_("Name of the club"), max_length=120, validators=[plain_text])
    slug = forms.SlugField(
        label=_("Address"),
        max_length=60,
        help_text=_("Lower-case letters, digits and hyphens, e.g. circolo-roma."),
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )
    time_zone = forms.ChoiceField(label=_("Time zone"))
    language = forms.ChoiceField(label=_("Language of the club's e-mails"))
    results_public = forms.BooleanField(
        label=_("Anyone may read the finished games, the schedules and the standings."),
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = time_zone_choices()
        self.fields["time_zone"].initial = settings.TIME_ZONE
        self.fields["language"].choices = settings.LANGUAGES

    def clean_slug(self) -> str:
        return self.cleaned_data["slug"].lower()


class InviteForm(RuleErrorsMixin, forms.Form):
    """Whom to invite (an e-mail address, or nobody: a link to hand over), with which role, and
    optionally which of the club's players they are."""

    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Leave it empty to get a one-time link to hand over yourself."),
    )
    role = forms.ChoiceField(label=_("Role"))
    player = forms.TypedChoiceField(
        label=_("This person is the player"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args: Any, club, roles, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["role"].choices = roles
        self.fields["role"].initial = "member"
        self.fields["player"].choices = [("", "—")] + [
            (p.pk, p.display_name)
            for p in Player.objects.filter(club=club, user__isnull=True, active=True)
        ]


class SignupForm(forms.Form):
    """A new account: user name, e-mail address and password (twice), checked by the password
    validators of the settings."""

    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "username"}),
    )
    email = forms.EmailField(label=_("E-mail"), widget=forms.EmailInput({"autocomplete": "email"}))
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput({"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=_("Password (again)"),
        strip=False,
        widget=forms.PasswordInput({"autocomplete": "new-password"}),
    )

    def clean_username(self) -> str:
        users = get_user_model()
        name = self.cleaned_data["username"]
        users.username_validator(name)
        if users.objects.filter(username__iexact=name).exists():
            raise forms.ValidationError(_("This user name is taken: choose another one."))
        return name

    def clean_email(self) -> str:
        email = get_user_model().objects.normalize_email(self.cleaned_data["email"])
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                _("An account already uses this address: log in, or reset its password.")
            )
        return email

    def clean(self):
        data = super().clean()
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ."))
        elif first:
            user = get_user_model()(username=data.get("username", ""), email=data.get("email", ""))
            try:
                password_validation.validate_password(first, user)
            except forms.ValidationError as problems:
                self.add_error("password1", problems)
        return data
