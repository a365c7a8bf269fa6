"""The house rules of the games as form fields: one part that both the new-game form and the
competition form use, so that a game's options read, and are read back, the same in both.

Every registered game gets, from its own description (``Ruleset.describe_options``):

- ``<game>__preset``: a menu of its rules presets, where it has any;
- ``<game>__<option>``: a field per option (a tick box, a number, a menu with "automatic" for
  an option that may be left to the game);
- ``<game>__<option>__<part>``: one number per part of an option that is an object of numbers
  (the stake of each contract).

Read back, a game's options are its preset and the options that differ from the defaults the
form showed, so that an untouched field never undoes the preset. A problem the service reports
at ``options.<option>`` (or ``options.<option>.<part>``) goes next to its field.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.labels import choice_label, game_name, match_label, option_label, preset_label
from scoring.rules import RULESETS

NUMBER = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}


def number_input(**attrs: Any) -> forms.NumberInput:
    """A number field that opens the phone's numeric keypad."""
    return forms.NumberInput(attrs=NUMBER | attrs)


def option_fields(ruleset: str, option: dict[str, Any]):
    """``(name, field)`` for one described option of ``ruleset`` (several for an object)."""
    name = f"{ruleset}__{option['key']}"
    label = option_label(option["key"])
    kind = option["type"]
    auto = _("automatic") if option["nullable"] else None
    if option["key"] == "hands_to_win":
        # A match in the words of the club room ("best of 3"), not a number of wins.
        choices = [(w, match_label(w)) for w in range(option["min"], option["max"] + 1)]
        field = forms.TypedChoiceField(
            label=label,
            choices=choices,
            coerce=int,
            empty_value=None,
            required=False,
            initial=option["default"],
        )
        yield name, field
    elif kind == "boolean":
        yield name, forms.BooleanField(label=label, required=False, initial=option["default"])
    elif kind == "integer":
        widget = number_input(min=option["min"], max=option["max"], placeholder=auto or "")
        yield (
            name,
            forms.IntegerField(
                label=label, required=False, initial=option["default"], widget=widget
            ),
        )
    elif kind == "choice":
        choices = [(c, choice_label(c)) for c in option["choices"]]
        if option["nullable"]:
            choices = [("", auto), *choices]
        yield (
            name,
            forms.ChoiceField(
                label=label, choices=choices, required=False, initial=option["default"] or ""
            ),
        )
    else:  # an object of integers, given whole
        for part in option["keys"]:
            yield (
                f"{name}__{part}",
                forms.IntegerField(
                    label=_("%(option)s: %(part)s") % {"option": label, "part": choice_label(part)},
                    required=False,
                    initial=option["default"][part],
                    widget=number_input(min=option["min"], max=option["max"]),
                ),
            )


class RulesetOptionsMixin:
    """For a Django form offering the house rules of every game. Call ``add_option_fields()``
    in ``__init__``; read a game's options with ``options_for(key)`` once the form is valid."""

    def add_option_fields(self) -> None:
        self.option_fields: dict[str, list[tuple[str, str]]] = {}
        for key, rules in RULESETS.items():
            if rules.presets:
                self.fields[f"{key}__preset"] = forms.ChoiceField(
                    label=_("Rules preset"),
                    required=False,
                    choices=[("", _("Defaults"))] + [(p, preset_label(p)) for p in rules.presets],
                )
            names: list[tuple[str, str]] = []
            for option in rules.describe_options():
                for name, field in option_fields(key, option):
                    self.fields[name] = field
                    names.append((name, option["key"]))
            self.option_fields[key] = names

    def option_groups(self) -> list[dict[str, Any]]:
        """Per game, for the template: its key and name, its preset menu and its fields."""
        return [
            {
                "key": key,
                "name": game_name(key),
                "preset": self[f"{key}__preset"] if f"{key}__preset" in self.fields else None,
                "fields": [self[name] for name, _option in names],
            }
            for key, names in self.option_fields.items()
        ]

    def options_for(self, key: str) -> dict[str, Any]:
        """The preset of game ``key`` and the options that differ from their defaults."""
        options: dict[str, Any] = {}
        preset = self.cleaned_data.get(f"{key}__preset")
        if preset:
            options["preset"] = preset
        described = {o["key"]: o for o in RULESETS[key].describe_options()}
        for name, option_key in self.option_fields[key]:
            option = described[option_key]
            value = self.cleaned_data.get(name)
            if option["type"] == "object":
                part = name.rsplit("__", 1)[1]
                if value is not None and value != option["default"][part]:
                    whole = options.setdefault(option_key, dict(option["default"]))
                    whole[part] = value
                continue
            if option["type"] == "choice" and value == "":
                value = None
            if option["type"] == "boolean":
                value = bool(value)
            elif value is None and not option["nullable"]:
                continue
            if value != option["default"]:
                options[option_key] = value
        return options

    def option_field(self, ruleset: str | None, path: str) -> str | None:
        """The field of a problem at ``options.<option>[.<part>]`` of game ``ruleset``."""
        parts = path.split(".")
        candidate = f"{ruleset}__{parts[1]}" + (f"__{parts[2]}" if len(parts) > 2 else "")
        return candidate if candidate in self.fields else None
