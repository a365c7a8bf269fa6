"""Entering, undoing, correcting and removing a game's hands from the pages.

A hand form posted by the offline outbox (``static/js/outbox.js``, header ``X-Outbox: 1``) gets a
short answer instead of a page: 201 when stored (or already stored: the idempotency key makes a
resend harmless), 400 with the form re-rendered with its errors, so nothing typed is lost. A
refusal the player cannot fix in the form is answered in the API's error shape
(``{"errors": [{"hand", "field", "code", "message"}]}``, ``scoring.messages.refusal``) so the
phone can say why and keep the hand: ``not_authenticated`` (404 or 403, the statuses a page
gives) when the request has neither a login nor this game's table session, whether or not the
game exists, so that nothing leaks; ``not_found`` (404), ``permission_denied`` (403),
``reused`` (422: the idempotency key came with other values).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring import access, etags, selectors, services
from scoring.forms.games import ReasonForm
from scoring.forms.hands import HAND_FORMS, hand_form
from scoring.messages import message, refusal
from scoring.models import GameStatus, Hand, Via
from scoring.presenters import hand_summary
from scoring.presenters.games import game_context, lock_message
from scoring.rules import RuleViolation
from scoring.views.access import game_or_404

#: A correction or removal whose form showed another hand or version than the one now there.
HAND_MOVED = gettext_lazy(
    "This hand changed since you opened it: someone corrected it, or removed an earlier hand and "
    "the hands moved up. Here it is as it is now: check it before you try again."
)
#: How many hands a browser session remembers having saved, for undo.
UNDO_REMEMBERED = 20


def _outbox(request) -> bool:
    return request.headers.get("X-Outbox") == "1"


def _refused(status: int, code: str, text, field: str | None = None) -> JsonResponse:
    return JsonResponse(refusal(code, text, field=field), status=status)


def _outbox_denied(request, game_id: int, status: int):
    """Why the outbox may not write to this game. Whether a stranger is told "not found" or
    "forbidden" is decided as for the page (``status``); the code only says what the phone
    lacks, and says it for games that exist and games that do not alike."""
    if not request.user.is_authenticated and game_id not in access.table_games(request):
        text = _("This phone is no longer let in to this game: enter the table PIN or log in.")
        return _refused(status, "not_authenticated", text)
    if status == 404:
        return _refused(404, "not_found", _("This game is gone, or you cannot see it."))
    return _refused(403, "permission_denied", _("You may not enter hands in this game."))


def _writable_game(request, game_id: int):
    """The game and the role, or the refusal (404 or 403) as an exception."""
    game, role = game_or_404(request, game_id)
    if not access.can_write(request, game, role):
        raise PermissionDenied
    return game, role


def _actor(request, game, role):
    return access.actor_for(request, game, via=Via.PAGE if role is not None else Via.TABLE)


def _replayable_game(request, game_id: int):
    """The game and the role for a hand entry: writable, or (a resend with an idempotency key
    from a session that may read the game) answered by the service as the first time, whatever
    changed since (the game finished, the role changed); the refusal (404 or 403) otherwise."""
    try:
        return _writable_game(request, game_id), True
    except PermissionDenied:
        if not request.POST.get("idempotency_key"):
            raise
        return game_or_404(request, game_id), False


@require_POST
def record_hand(request, game_id: int):
    try:
        (game, role), may_write = _replayable_game(request, game_id)
    except (Http404, PermissionDenied) as denied:
        if not _outbox(request):
            raise
        return _outbox_denied(request, game_id, 404 if isinstance(denied, Http404) else 403)
    names = selectors.player_names(game)
    form = hand_form(game, names, request.POST, entering=True)
    if not may_write and not form.is_valid():
        # Only a valid resend may be a replay: anything else is refused as before.
        if not _outbox(request):
            raise PermissionDenied
        return _outbox_denied(request, game_id, 403)
    posted = _posted_number(request)
    behind = posted is not None and posted <= game.hand_count and game.is_open
    if not form.is_valid() and behind:
        # Typed on a screen that was behind: that the hand is already in says more than what
        # the form lacks (a valid resend of an entered hand still gets its first answer below).
        form.errors.clear()
        form.add_rule_errors(services.AlreadyEntered(posted, game.hand_count))
        status = 409
    elif form.is_valid():
        answer = _store_hand(request, game, role, form, posted)
        if isinstance(answer, HttpResponse):
            return answer
        status = answer
    else:
        status = 400
    game.refresh_from_db()
    context = game_context(request, game, role, form)
    seating = _posted_seating(request)
    if status == 400 and isinstance(seating, int):
        # Still the seats it was typed for: fixed and sent again, it is refused if they changed.
        context["seating"] = seating
    if status == 409 and behind:
        context["just_entered"] = posted
    if _outbox(request):
        response = HttpResponse(
            render_to_string("scoring/partials/hand_form.html", context, request), status=status
        )
        if "just_entered" in context:
            response["X-Refusal"] = "already_entered"
        return response
    return render(request, "scoring/game.html", context, status=status)


def _store_hand(request, game, role, form, posted: int | None) -> HttpResponse | int:
    """Record the valid hand of ``form``: the answer to send, or the status with which the
    form is shown again (its problem placed on it)."""
    outbox = _outbox(request)
    try:
        result = services.record_hand(
            game=game,
            document=form.document(),
            by=_actor(request, game, role),
            idempotency_key=form.cleaned_data.get("idempotency_key") or None,
            number=posted,
            seat=form.cleaned_data.get("seat"),
            seating=_posted_seating(request),
        )
    except services.AlreadyEntered as entered:
        # Shown as the form again (the values typed, under the next number), with why above it;
        # the page (or the outbox) refreshes the history and points at that hand.
        form.add_rule_errors(entered)
        return 409
    except services.Locked as locked:
        if outbox:  # the outbox keeps the hand and shows this sentence with its fix
            return _refused(409, "locked", message(locked.problems[0]), field="game")
        form.add_rule_errors(locked)
        return 409
    except services.Conflict as gone:  # the game's state (abandoned): the outbox keeps the hand
        if outbox:
            problem = gone.problems[0]
            return _refused(409, problem.code, message(problem), field=problem.field)
        form.add_rule_errors(gone)
        return 409
    except RuleViolation as violation:
        form.add_rule_errors(violation)
        return 400
    except services.IdempotencyConflict:
        text = _("This hand was already sent with different values: check the history.")
        if outbox:
            return _refused(422, "reused", text, field="idempotency_key")
        form.add_error(None, text)
        return 400
    except services.NotAllowed:
        if outbox:
            return _outbox_denied(request, game.pk, 403)
        raise PermissionDenied from None
    answer = {"number": result.payload["number"], "replayed": result.replayed}
    if result.hand is not None:
        _remember_undoable(request, result.hand)
        answer["undo"] = {
            "url": reverse("undo-hand", args=[game.pk, result.hand.number]),
            "etag": str(etags.hand_tag(result.hand)),
            "seconds": settings.UNDO_SECONDS,
        }
    if outbox:
        return JsonResponse(answer, status=201)
    messages.success(request, _("Hand %(number)s saved.") % {"number": result.payload["number"]})
    return redirect("game", game_id=game.pk)


def _posted_number(request) -> int | None:
    """The hand number the phone showed when the hand was typed (the form's ``number``)."""
    value = request.POST.get("number", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 7 else None


def _posted_seating(request):
    """The game's seating version the page showed when the hand was typed (the form's hidden
    ``seating``): a number, None when the page did not send one (a page served before it had
    the field), else what was sent, for the service to refuse by its field."""
    value = request.POST.get("seating", "")
    if value == "":
        return None
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else value


def _remember_undoable(request, hand: Hand) -> None:
    """This browser session saved ``hand``: it alone may undo it (for UNDO_SECONDS)."""
    kept = [pk for pk in request.session.get("undoable", []) if pk != hand.pk]
    request.session["undoable"] = [*kept, hand.pk][-UNDO_REMEMBERED:]


@require_POST
def undo_hand(request, game_id: int, number: int):
    """The toast's "Undo" (``static/js/undo.js``): takes back the hand this browser session just
    saved, if it is still the last one and within UNDO_SECONDS; answers in the API's error shape
    otherwise. The hidden ``etag`` names the hand saved, so a retried undo never removes another:
    the hand is already gone (404 ``not_found``) or another took its number (412 ``stale``)."""
    try:
        game, role = _writable_game(request, game_id)
    except (Http404, PermissionDenied) as denied:
        return _outbox_denied(request, game_id, 404 if isinstance(denied, Http404) else 403)
    condition = etags.parse(request.POST.get("etag"))
    if condition is None:
        return _refused(400, "required", _("Say which hand to undo: reload the game."), "etag")
    too_late = _(
        "Hand %(number)s can no longer be undone: open it from the history to remove it, with a "
        "reason."
    ) % {"number": number}
    hand_id = selectors.hand_id(game, number)
    if hand_id is not None and hand_id not in request.session.get("undoable", []):
        return _refused(409, "undo_expired", too_late)
    try:
        services.undo_hand(
            game=game,
            number=number,
            by=_actor(request, game, role),
            expected=condition.strong,
            within_seconds=settings.UNDO_SECONDS,
        )
    except services.HandNotFound:
        return _refused(404, "not_found", _("This hand is already gone."))
    except services.VersionConflict:
        return _refused(412, "stale", HAND_MOVED)
    except services.UndoExpired:
        return _refused(409, "undo_expired", too_late)
    except RuleViolation as violation:
        return _refused(409, "locked", " ".join(message(p) for p in violation.problems))
    request.session["undoable"] = [pk for pk in request.session["undoable"] if pk != hand_id]
    text = _("Hand %(number)s undone.") % {"number": number}
    return JsonResponse({"number": number, "undone": True, "message": text})


# -- one hand: its page, a correction, a removal ---------------------------------------------


#: The ways to remove a hand, by the form's ``action``: the hand alone; the hand and those after
#: it; the hand, with the later hands' dealers following the deal order again.
REMOVALS = {
    "remove": services.remove_hand,
    "remove-following": services.remove_hands_from,
    "fix-dealers": services.remove_hand_fixing_dealers,
}


def hand_page(request, game_id: int, number: int):
    """One hand: what was entered, its audit trail, and the forms to correct or remove it."""
    game, role = game_or_404(request, game_id)
    hand = get_object_or_404(Hand, game=game, number=number)
    names = selectors.player_names(game)
    writable = access.can_write(request, game, role) and game.status != GameStatus.ABANDONED
    if request.method == "POST" and not writable:
        raise PermissionDenied  # a reader's POST must not look like an answer to it
    page = {"form": None, "reason_form": None, "removal_choice": None, "status": 200}
    # A locked game shows why instead of its forms (a form posted before the lock shows it too).
    if writable and (not game.locked or request.method == "POST"):
        form_class = HAND_FORMS[game.ruleset]
        page["form"] = hand_form(game, names, initial=form_class.initial_from(hand.document))
        page["reason_form"] = ReasonForm()
        if request.method == "POST":
            by = _actor(request, game, role)
            if request.POST.get("action") in REMOVALS:
                done = _remove(request, game, number, names, by, page)
            else:
                done = _correct(request, game, number, names, by, page)
            if done is not None:
                return done
            page["status"] = page["status"] if page["status"] != 200 else 400
            hand.refresh_from_db()
    return render(
        request,
        "scoring/hand.html",
        {
            "game": game,
            "club": game.club,
            "role": role,
            "hand": hand,
            "hand_etag": str(etags.hand_tag(hand)),
            "names": names,
            "summary": hand_summary(game.ruleset, hand.document, names),
            "deltas": list(zip(names, hand.deltas, strict=True)),
            "form": page["form"],
            "reason_form": page["reason_form"],
            "removal_choice": page["removal_choice"],
            "lock_message": lock_message(game),
            "trail": _trail(game, hand, names),
        },
        status=page["status"],
    )


def _remove(request, game, number: int, names, by, page: dict):
    """A removal posted from the hand page: the redirect when done, else None with the page's
    forms and status set to say why."""
    action = request.POST["action"]
    form = page["reason_form"] = ReasonForm(request.POST)
    form.hand_number, form.names = number, names
    if not form.is_valid():
        return None
    try:
        REMOVALS[action](
            game=game,
            number=number,
            by=by,
            reason=form.cleaned_data["reason"],
            expected=_shown(request),
        )
    except services.Locked as locked:
        form.add_rule_errors(locked)
        page["status"] = 409
    except RuleViolation as violation:
        if action == "remove" and any(p.code == "wrong_dealer" for p in violation.problems):
            # Not an error: the player is asked what they meant.
            page["removal_choice"] = {
                "later": game.hand_count - number,
                "fixable": services.dealers_fixable(game=game, number=number),
            }
            page["status"] = 409
        else:
            form.add_rule_errors(violation)
    except services.VersionConflict:
        form.add_error(None, HAND_MOVED)
    else:
        messages.success(request, _removed_text(action, number, game.hand_count))
        return redirect("game", game_id=game.pk)
    return None


def _correct(request, game, number: int, names, by, page: dict):
    """A correction posted from the hand page: the redirect when done, else None with the form
    showing why."""
    # The stored hand's points as shown: a side left as it was follows the one corrected.
    form = page["form"] = hand_form(game, names, request.POST, initial=page["form"].initial)
    form.hand_number = number
    if not form.is_valid():
        return None
    try:
        services.correct_hand(
            game=game,
            number=number,
            document=form.document(),
            by=by,
            expected=_shown(request),
            reason=request.POST.get("reason", ""),
        )
    except services.Locked as locked:
        form.add_rule_errors(locked)
        page["status"] = 409
    except RuleViolation as violation:
        form.add_rule_errors(violation)
    except services.VersionConflict:
        form.add_error(None, HAND_MOVED)
    else:
        messages.success(request, _("Hand %(number)s corrected.") % {"number": number})
        return redirect("game", game_id=game.pk)
    return None


def _removed_text(action: str, number: int, hand_count: int) -> str:
    if action == "remove-following":  # offered only when later hands follow: two or more
        return _("Hands %(number)s to %(last)s removed.") % {"number": number, "last": hand_count}
    if action == "fix-dealers":
        return _(
            "Hand %(number)s removed; the dealers of the later hands follow the order again."
        ) % {"number": number}
    return _("Hand %(number)s removed.") % {"number": number}


def _trail(game, hand: Hand, names: list[str]) -> list[dict]:
    """The hand's audit trail, each event with its before and after in words."""
    return [
        {
            "event": e,
            "before": _doc_summary(game, e.before, names),
            "after": _doc_summary(game, e.after, names),
        }
        for e in selectors.audit_of_hand(game, hand)
    ]


def _doc_summary(game, data, names):
    if not data or "document" not in data:
        return None
    return {
        "summary": hand_summary(game.ruleset, data["document"], names),
        "deltas": data.get("deltas"),
    }


def _shown(request) -> tuple[etags.Tag, ...]:
    """The validator of the hand the form showed (its hidden ``etag``): the service acts only
    if it still names the hand at this number, at the same version."""
    condition = etags.parse(request.POST.get("etag"))
    return () if condition is None else condition.strong
