"""Confirmation by the table on the game page: the hands waiting for a player of another side.

After a hand is saved in a game whose hands must be accepted, the game page shows it as a
verification card ("Anna made solo with 8 — Anna +24, Bruno −12, Carla −12 · Accept / Reject")
to hand to an opponent; an opponent may also answer on their own phone through the table link.
The answering player picks their name: the service refuses the player who entered the hand and
that player's partner (``scoring.services.confirmations``), and the refusal shows next to the
name. Views translate; the service decides. The cards are made by
``scoring.presenters.games.checks``.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import access, etags, selectors, services
from scoring.forms.confirmations import AnswerForm
from scoring.models import Via
from scoring.presenters.games import checks, game_context
from scoring.rules import RuleViolation
from scoring.views.access import game_or_404


@require_POST
def answer_hand(request, game_id: int, number: int):
    """Accept or reject hand ``number`` (a player of another side, named in the form)."""
    game, role = game_or_404(request, game_id)
    if not access.can_answer(request, game, role):
        raise PermissionDenied
    hand = selectors.hand_of(game, number)
    names = selectors.player_names(game)
    if hand is None:
        messages.error(request, _("This game has no hand %(number)s.") % {"number": number})
        return redirect("game", game_id=game.pk)
    form = AnswerForm(
        request.POST, hand=hand, names=names, sides=game.rules.sides(game.options, game.n)
    )
    form.hand_number = number
    status = 400
    if form.is_valid():
        status, text = _answer(request, game, role, number, form)
        if text is not None:
            messages.success(request, text % {"number": number})
            return redirect("game", game_id=game.pk)
    game.refresh_from_db()
    context = game_context(request, game, role)
    context["checks"] = checks(game, selectors.hands_of(game), names, bound=form)
    return render(request, "scoring/game.html", context, status=status)


def _answer(request, game, role, number: int, form: AnswerForm) -> tuple[int, str | None]:
    """Call the service the form asks for: ``(status, None)`` with the refusal on the form, or
    ``(200, the sentence to show)``."""
    data = form.cleaned_data
    tag = etags.parse_value(data["etag"]) if data["etag"] else None
    via = Via.PAGE if role is not None else Via.TABLE
    by = access.actor_for(request, game, via=via, answering=True)
    expected = [tag] if tag else None
    try:
        if data["action"] == "accept":
            services.accept_hand(
                game=game, number=number, by=by, seat=data["seat"], expected=expected
            )
            return 200, _("Hand %(number)s accepted: it counts now.")
        services.reject_hand(
            game=game,
            number=number,
            by=by,
            seat=data["seat"],
            reason=data["reason"],
            expected=expected,
        )
        return 200, _("Hand %(number)s rejected: it goes back to be corrected.")
    except services.Conflict as conflict:
        form.add_rule_errors(conflict)
        return 409, None
    except services.VersionConflict:
        form.add_error(
            None,
            _("Hand %(number)s was corrected meanwhile: check it again.") % {"number": number},
        )
        return 412, None
    except RuleViolation as violation:
        form.add_rule_errors(violation)
        return 400, None
