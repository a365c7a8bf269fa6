"""Confirmation by the table on the game page: the hands waiting for a player of another side.

After a hand is saved in a game whose hands must be accepted, the game page shows it as a
verification card ("Anna made solo with 8 — Anna +24, Bruno −12, Carla −12 · Accept / Reject")
to hand to an opponent; an opponent may also answer on their own phone through the table link.
The answering player picks their name: the service refuses the player who entered the hand and
that player's partner (``scoring.services.confirmations``), and the refusal shows next to the
name. Views translate; the service decides.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring import access, etags, selectors, services
from scoring.form_errors import RuleErrorsMixin
from scoring.models import NOT_ACCEPTED, Acceptance, Game, GameStatus, Hand, Via
from scoring.presenters import hand_summary
from scoring.rules import RuleViolation
from scoring.validators import any_text

MINUS = "\u2212"


class AnswerForm(RuleErrorsMixin, forms.Form):
    """A player's answer to a waiting hand: who answers, and why when rejecting."""

    seat = forms.TypedChoiceField(
        label=gettext_lazy("Who is checking?"), coerce=int, widget=forms.RadioSelect
    )
    reason = forms.CharField(
        label=gettext_lazy("What is wrong (to reject)"),
        required=False,
        max_length=500,
        validators=[any_text],
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    action = forms.ChoiceField(choices=[("accept", "accept"), ("reject", "reject")])
    etag = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args: Any, hand: Hand, names: list[str], **kwargs: Any):
        self.names = names
        kwargs.setdefault("auto_id", f"id_check{hand.number}_%s")
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [
            (i, name) for i, name in enumerate(names) if i != hand.entered_seat
        ]


def signed(value: int) -> str:
    """A score change as the table writes it: +24, −12 (a true minus sign), 0."""
    if value > 0:
        return f"+{value}"
    return f"{MINUS}{-value}" if value < 0 else "0"


def verification(game: Game, hand: Hand, names: list[str]) -> str:
    """The sentence an opponent checks: the hand in words, then each player's change."""
    changes = ", ".join(f"{name} {signed(d)}" for name, d in zip(names, hand.deltas, strict=True))
    return f"{hand_summary(game.ruleset, hand.document, names)} — {changes}"


def checks(
    game: Game, hands: list[Hand], names: list[str], bound: AnswerForm | None = None
) -> list[dict[str, Any]]:
    """The waiting and rejected hands of ``game``, oldest first, each with its sentence and its
    answer form (``bound`` for the one just answered with a problem)."""
    rows = []
    for hand in hands:
        if hand.acceptance not in NOT_ACCEPTED:
            continue
        form = bound if bound is not None and bound.hand_number == hand.number else None
        if form is None:
            form = AnswerForm(hand=hand, names=names, initial={"etag": etags.hand_tag(hand)})
        rows.append(
            {
                "hand": hand,
                "number": hand.number,
                "rejected": hand.acceptance == Acceptance.REJECTED,
                "sentence": verification(game, hand, names),
                "entered_by": None if hand.entered_seat is None else names[hand.entered_seat],
                "answered_by": None if hand.answered_seat is None else names[hand.answered_seat],
                "form": form,
            }
        )
    return rows


@require_POST
def answer_hand(request, game_id: int, number: int):
    """Accept or reject hand ``number`` (a player of another side, named in the form)."""
    from scoring.views import game_context, game_or_404

    game, role = game_or_404(request, game_id)
    if not (access.writes_hands(role) or game.pk in access.table_writable(request)):
        raise PermissionDenied
    hand = Hand.objects.filter(game=game, number=number).first()
    names = selectors.player_names(game)
    if hand is None:
        messages.error(request, _("This game has no hand %(number)s.") % {"number": number})
        return redirect("game", game_id=game.pk)
    form = AnswerForm(request.POST, hand=hand, names=names)
    form.hand_number = number
    status = 400
    if form.is_valid():
        data = form.cleaned_data
        tag = etags.parse_value(data["etag"]) if data["etag"] else None
        by = access.actor_for(request, game, via=Via.PAGE if role is not None else Via.TABLE)
        try:
            if data["action"] == "accept":
                services.accept_hand(
                    game=game,
                    number=number,
                    by=by,
                    seat=data["seat"],
                    expected=[tag] if tag else None,
                )
                text = _("Hand %(number)s accepted: it counts now.")
            else:
                services.reject_hand(
                    game=game,
                    number=number,
                    by=by,
                    seat=data["seat"],
                    reason=data["reason"],
                    expected=[tag] if tag else None,
                )
                text = _("Hand %(number)s rejected: it goes back to be corrected.")
        except services.Conflict as conflict:
            form.add_rule_errors(conflict)
            status = 409
        except services.VersionConflict:
            form.add_error(
                None,
                _("Hand %(number)s was corrected meanwhile: check it again.") % {"number": number},
            )
            status = 412
        except RuleViolation as violation:
            form.add_rule_errors(violation)
        else:
            messages.success(request, text % {"number": number})
            return redirect("game", game_id=game.pk)
    game.refresh_from_db()
    context = game_context(request, game, role)
    context["checks"] = checks(game, selectors.hands_of(game), names, bound=form)
    return render(request, "scoring/game.html", context, status=status)


def acceptance_context(game: Game, rows: list, names: list[str]) -> dict[str, Any]:
    """What the game page adds for a game whose hands must be accepted: the accepted totals and
    the pending part per seat, and the hands to check."""
    if not game.hands_need_acceptance:
        return {}
    hands = [row.hand for row in rows]
    counted = selectors.standing(game, hands)
    return {
        "counted": counted,
        "checks": checks(game, hands, names),
        "finished_waiting": game.status == GameStatus.FINISHED and bool(counted.waiting),
    }
