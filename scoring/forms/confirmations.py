"""A player's answer to a hand waiting to be accepted (confirmation by the table)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.forms.errors import RuleErrorsMixin
from scoring.models import Hand
from scoring.services.confirmations import may_answer
from scoring.validators import any_text


class AnswerForm(RuleErrorsMixin, forms.Form):
    """Who answers (any player but the one who entered the hand and, in a game of pairs, that
    player's partner), accept or reject, and why when rejecting."""

    seat = forms.TypedChoiceField(label=_("Who is checking?"), coerce=int, widget=forms.RadioSelect)
    reason = forms.CharField(
        label=_("What is wrong (to reject)"),
        required=False,
        max_length=500,
        validators=[any_text],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    action = forms.ChoiceField(choices=[("accept", "accept"), ("reject", "reject")])
    etag = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        hand: Hand,
        names: list[str],
        sides: Sequence[Sequence[int]] | None = None,
        **kwargs: Any,
    ):
        self.names = names
        kwargs.setdefault("auto_id", f"id_check{hand.number}_%s")
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [
            (i, names[i]) for i in checkers(hand.entered_seat, len(names), sides)
        ]


def checkers(entered_seat: int | None, n: int, sides: Sequence[Sequence[int]] | None) -> list[int]:
    """The seats that may check a hand entered from ``entered_seat``: not that player, nor a
    partner of theirs where the game has fixed ``sides`` (``Ruleset.sides``: Briscola pairs),
    as the service decides (``services.confirmations.may_answer``)."""
    side_of = {seat: index for index, side in enumerate(sides or ()) for seat in side}
    return [seat for seat in range(n) if may_answer(entered_seat, seat, side_of)]
