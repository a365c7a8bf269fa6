"""What a typed text may not contain, stated once for forms, the API, the models and the
game documents.

Refused everywhere: NUL and the other C0 control characters, DEL and the C1 controls (nobody
types them; PostgreSQL cannot even store NUL), lone surrogates (no UTF-8 encoding exists for
them), and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
which make a name read differently from what it is ("Trojan Source"). A multi-line text (a
reason, a description, a list of names) may hold tabs and line breaks; a single-line one (a
name, a title) may not.

- ``control_character(text, multiline=...)``: the first refused character as ``U+XXXX``;
- ``PlainText`` / ``plain_text`` / ``any_text``: the Django validator of model and form fields;
- ``text_problem(...)``: the same as a ``Problem`` for the API's inputs and the services.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

from scoring.messages import message
from scoring.rules import Problem

_ALWAYS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
MULTI_LINE = re.compile(f"[{_ALWAYS}]")
SINGLE_LINE = re.compile(f"[{_ALWAYS}\t\n\r]")

#: The problem's code, in ``scoring.messages``.
CODE = "control_character"


def control_character(text: str, *, multiline: bool = False) -> str | None:
    """The first character of ``text`` nobody should have typed, as ``U+0000``; else None."""
    found = (MULTI_LINE if multiline else SINGLE_LINE).search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def text_problem(text: str, field: str, *, multiline: bool = False) -> Problem | None:
    """``text`` at ``field`` as a ``Problem`` when it holds a refused character."""
    found = control_character(text, multiline=multiline)
    return None if found is None else Problem(field, CODE, {"value": found})


@deconstructible
class PlainText:
    """The field validator (models, forms): the error says which character to remove."""

    def __init__(self, multiline: bool = False):
        self.multiline = multiline

    def __call__(self, value) -> None:
        if not isinstance(value, str):
            return
        problem = text_problem(value, "", multiline=self.multiline)
        if problem is not None:
            raise ValidationError(
                message(problem, label=str(_("This text"))), code=CODE, params=problem.params
            )

    def __eq__(self, other) -> bool:
        return isinstance(other, PlainText) and other.multiline == self.multiline

    def __hash__(self) -> int:
        return hash((PlainText, self.multiline))


#: A name, a title: one line.
plain_text = PlainText()
#: A reason, a description, a list of names: line breaks and tabs allowed.
any_text = PlainText(multiline=True)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, for text made from other text (a game's
    title from its competition's name) that must fit its column: cut after a whole word when
    one ends in the second half, and marked with "…"."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ·-,;:.") + "…"
