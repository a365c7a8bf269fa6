"""Pages: they translate a request into a selector or a service call and render the answer.

A hand form posted by the offline outbox (``static/js/outbox.js``, header ``X-Outbox: 1``) gets a
short answer instead of a page: 201 when stored (or already stored: the idempotency key makes a
resend harmless), 400 with the form re-rendered with its errors, so nothing typed is lost. A
refusal the player cannot fix in the form is answered in the API's error shape
(``{"errors": [{"hand", "field", "code", "message"}]}``) so the phone can say why and keep the
hand: ``not_authenticated`` (404 or 403, the statuses a page gives) when the request has neither a
login nor this game's table session, whether or not the game exists, so that nothing leaks;
``not_found`` (404), ``permission_denied`` (403), ``reused`` (422: the idempotency key came
with other values).
"""

from __future__ import annotations

from functools import partial

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.forms.utils import ErrorDict
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import condition, require_POST

from scoring import access, etags, lan, selectors, services, throttles
from scoring.confirm_views import acceptance_context, signed
from scoring.extensions import CLUB_PAGE_SECTIONS
from scoring.forms import PinForm, PlayerForm, ReasonForm, StartGameForm
from scoring.hand_forms import HAND_FORMS, hand_form
from scoring.messages import message
from scoring.models import (
    GAME_NAMES,
    Acceptance,
    Club,
    Game,
    GameStatus,
    Hand,
    Player,
    TableLink,
    Via,
)
from scoring.presenters import hand_summary
from scoring.rules import RULESETS, RuleViolation


class LoginView(auth_views.LoginView):
    """Django's login page, throttled (``scoring.throttles``): while the account or the address
    must wait, the password is not checked and the page says how long to wait (429)."""

    def post(self, request, *args, **kwargs):
        guard = throttles.login_guard(request, request.POST.get("username", ""))
        wait = guard.wait()
        if wait:
            form = self.get_form()
            form.cleaned_data, form._errors = {}, ErrorDict()
            form.add_error(None, message(throttles.throttled("username", wait)))
            response = self.render_to_response(self.get_context_data(form=form), status=429)
            response["Retry-After"] = str(wait)
            return response
        guard.attempt()
        response = super().post(request, *args, **kwargs)
        if request.user.is_authenticated:
            guard.succeed()
        return response


def home(request):
    return render(
        request,
        "scoring/home.html",
        {
            "clubs": selectors.clubs_for(request.user),
            "rulesets": [
                {"name": GAME_NAMES.get(key, rules.name), "rules": rules}
                for key, rules in RULESETS.items()
            ],
            "lan": lan.phone_address(request) if request.user.is_authenticated else None,
        },
    )


# -- clubs ------------------------------------------------------------------------------------


def club_or_404(request, slug: str) -> tuple[Club, str | None]:
    club = get_object_or_404(Club, slug=slug)
    role = selectors.role_of(request.user, club)
    if not access.can_read_club(request, club, role):
        raise Http404
    return club, role


def club_page(request, slug: str):
    club, role = club_or_404(request, slug)
    games = selectors.visible_games(request.user, club).prefetch_related("seats__player")
    in_progress = [g for g in games.filter(status=GameStatus.IN_PROGRESS)[:50]]
    finished = [g for g in games.exclude(status=GameStatus.IN_PROGRESS)[:30]]
    return render(
        request,
        "scoring/club.html",
        {
            "club": club,
            "role": role,
            "in_progress": in_progress,
            "finished": finished,
            "extra": club_extras(request, club, role),
        },
    )


def club_extras(request, club, role) -> list[str]:
    """Sections other apps add to the club page (competitions), registered in
    ``CLUB_PAGE_SECTIONS`` when they load: scoring never imports them."""
    return [section(request, club, role) for section in CLUB_PAGE_SECTIONS]


def players_page(request, slug: str):
    club, role = club_or_404(request, slug)
    if role is None:
        raise Http404
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.add_player(
                club=club,
                display_name=form.cleaned_data["display_name"],
                by=access.actor_for(request),
            )
        except RuleViolation as violation:
            form.add_rule_errors(violation)
        except services.NotAllowed:
            raise PermissionDenied from None
        else:
            messages.success(
                request, _("%(name)s joined the club.") % {"name": player.display_name}
            )
            return redirect("club-players", slug=club.slug)
    players = list(Player.objects.filter(club=club).order_by("-active", "display_name"))
    return render(
        request,
        "scoring/players.html",
        {
            "club": club,
            "role": role,
            "players": players,
            "form": form,
            # A user plays as one player of a club: "This is me" until one is linked.
            "mine": any(p.user_id == request.user.pk for p in players),
        },
    )


@require_POST
def player_active(request, slug: str, player_id: int):
    club, _role = club_or_404(request, slug)
    player = get_object_or_404(Player, club=club, pk=player_id)
    try:
        services.set_player_active(
            player=player, active=request.POST.get("active") == "1", by=access.actor_for(request)
        )
    except services.NotAllowed:
        raise PermissionDenied from None
    return redirect("club-players", slug=club.slug)


@login_required
def start_game(request, slug: str):
    club, role = club_or_404(request, slug)
    if not access.writes_hands(role):
        raise PermissionDenied
    form = StartGameForm(
        request.POST or None,
        club=club,
        initial={"ruleset": request.GET.get("ruleset", "terziglio")},
    )
    if request.method == "POST" and form.is_valid():
        try:
            game = services.start_game(
                club=club,
                ruleset=form.cleaned_data["ruleset"],
                players=form.players(),
                options=form.ruleset_options(),
                title=form.cleaned_data.get("title", ""),
                hands_need_acceptance=bool(form.cleaned_data.get("hands_need_acceptance")),
                by=access.actor_for(request),
            )
        except RuleViolation as violation:
            form.add_rule_errors(violation)
        else:
            return redirect("game", game_id=game.pk)
    return render(
        request,
        "scoring/start_game.html",
        {
            "club": club,
            "role": role,
            "form": form,
            "seat_rows": form.seat_rows(),
            "option_groups": form.option_groups(),
        },
        status=400 if form.errors else 200,
    )


# -- games ------------------------------------------------------------------------------------


def game_or_404(request, game_id: int) -> tuple[Game, str | None]:
    game = get_object_or_404(Game.objects.select_related("club"), pk=game_id)
    role = access.readable_game_or_404(request, game)
    return game, role


def can_write(request, game: Game, role: str | None) -> bool:
    return access.writes_hands(role) or game.pk in access.table_writable(request)


def lock_message(game: Game) -> str | None:
    """Why the game may not change and who can reopen it, while it is locked."""
    if game.locked_at is None:
        return None
    return message(services.Locked("game", game.lock_reason, **game.lock_context).problems[0])


def game_context(request, game: Game, role: str | None, form=None, reopen_form=None) -> dict:
    seats = selectors.seats_of(game)
    names = [s.player.display_name for s in seats]
    rows = selectors.history(game)
    ranking = selectors.ranking(game) or []
    place_of = {r["seat"]: r["place"] for r in ranking}
    writable = can_write(request, game, role)
    if form is None and writable and game.status == GameStatus.IN_PROGRESS and not game.locked:
        form = hand_form(game, names, entering=True)
    manager = access.is_manager(role)
    if reopen_form is None and manager and game.locked:
        reopen_form = ReasonForm(auto_id="id_reopen_%s")
    next_dealer = game.next_dealer
    confirmation = acceptance_context(game, rows, names)
    counted = confirmation.get("counted")
    return confirmation | {
        "game": game,
        "club": game.club,
        "role": role,
        "names": names,
        "seats": seats,
        # A game whose hands must be accepted shows what counts, and what waits apart.
        "totals": [
            {
                "seat": i,
                "name": name,
                "total": total if counted is None else counted.accepted[i],
                "pending": None
                if counted is None or not counted.waiting
                else signed(counted.pending[i]),
                # The places follow every hand: not shown while some still wait.
                "place": None if counted is not None and counted.waiting else place_of.get(i),
            }
            for i, (name, total) in enumerate(zip(names, game.totals, strict=True))
        ],
        "history": [_history_line(game, r, names) for r in reversed(rows)],
        "ranking": [
            {"place": r["place"], "name": names[r["seat"]], "total": game.totals[r["seat"]]}
            for r in ranking
        ],
        "form": form,
        "writable": writable,
        # called by the template only where it shows the form (not on every poll of the totals)
        "table_link": partial(_table_link_of, request, game, role),
        "manager": manager,
        "lock_message": lock_message(game),
        "reopen_form": reopen_form,
        "next_dealer": _name(names, next_dealer),
        "sitting_out": _name(names, game.sitting_out_next),
        "lowest_wins": game.rules.lowest_wins,
        "side_names": _side_names(game, names),
        "share_url": site_url(request, reverse("game", args=[game.pk])),
        "can_rematch": access.writes_hands(role) and game.status == GameStatus.FINISHED,
    }


def _table_link_of(request, game: Game, role: str | None) -> str | None:
    """The table link this phone came in by (it holds the link already): the outbox keeps it
    with a queued hand, to offer the PIN page again if the table session ends before it is
    sent."""
    if role is not None or game.pk not in access.table_games(request):
        return None
    token = TableLink.objects.filter(game=game).values_list("token", flat=True).first()
    return None if token is None else reverse("table-link", args=[token])


def _name(names, seat):
    return None if seat is None else names[seat]


def _history_line(game: Game, row: selectors.HistoryRow, names: list[str]) -> dict:
    """One line of the history: the hand's data (``selectors.hand_data``, the API's shape) and
    its words: summary, dealer, and the delta and running total of each seat."""
    data = selectors.hand_data(row.hand, row.totals)
    return data | {
        "corrected": row.hand.corrected,
        "waiting": row.hand.acceptance == Acceptance.PENDING,
        "rejected": row.hand.acceptance == Acceptance.REJECTED,
        "summary": hand_summary(game.ruleset, data["document"], names),
        "dealer": names[row.dealer],
        "cells": list(zip(data["deltas"], data["totals"], strict=True)),
    }


def _side_names(game, names):
    sides = game.rules.sides(game.options, game.n)
    if not sides or game.card_points is None:
        return None
    return [
        {"name": " + ".join(names[s] for s in side), "points": points}
        for side, points in zip(sides, game.card_points, strict=True)
    ]


def game_page(request, game_id: int):
    game, role = game_or_404(request, game_id)
    form = None
    dealer = request.GET.get("dealer", "")
    if (
        dealer.isdigit()
        and int(dealer) < game.n
        and game.hand_count == 0
        and game.status == GameStatus.IN_PROGRESS
        and not game.locked
        and can_write(request, game, role)
    ):
        # A rematch offers the first deal to the seat after the one that dealt first.
        form = hand_form(game, selectors.player_names(game), initial={"dealer": int(dealer)})
    return render(request, "scoring/game.html", game_context(request, game, role, form))


def _game_etag(request, game_id: int) -> str | None:
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    return None if version is None else str(etags.Tag(etags.GAME, game_id, version))


@condition(etag_func=_game_etag)
def game_live(request, game_id: int):
    """The totals and the history, for polling (304 while the game has not changed)."""
    game, role = game_or_404(request, game_id)
    return render(request, "scoring/partials/live.html", game_context(request, game, role))


def _outbox(request) -> bool:
    return request.headers.get("X-Outbox") == "1"


def _outbox_refusal(status: int, code: str, text: str, field: str | None = None):
    error = {"hand": None, "field": field, "code": code, "message": str(text)}
    return JsonResponse({"errors": [error]}, status=status)


def _outbox_denied(request, game_id: int, status: int):
    """Why the outbox may not write to this game. Whether a stranger is told "not found" or
    "forbidden" is decided as for the page (``status``); the code only says what the phone
    lacks, and says it for games that exist and games that do not alike."""
    if not request.user.is_authenticated and game_id not in access.table_games(request):
        text = _("This phone is no longer let in to this game: enter the table PIN or log in.")
        return _outbox_refusal(status, "not_authenticated", text)
    if status == 404:
        return _outbox_refusal(404, "not_found", _("This game is gone, or you cannot see it."))
    return _outbox_refusal(403, "permission_denied", _("You may not enter hands in this game."))


@require_POST
def record_hand(request, game_id: int):
    try:
        game, role = game_or_404(request, game_id)
        if not can_write(request, game, role):
            raise PermissionDenied
    except (Http404, PermissionDenied) as refusal:
        if not _outbox(request):
            raise
        return _outbox_denied(request, game_id, 404 if isinstance(refusal, Http404) else 403)
    names = selectors.player_names(game)
    form = hand_form(game, names, request.POST, entering=True)
    status = 400
    posted = _posted_number(request)
    behind = posted is not None and posted <= game.hand_count and game.is_open
    if not form.is_valid() and behind:
        # Typed on a screen that was behind: that the hand is already in says more than what
        # the form lacks (a valid resend of an entered hand still gets its first answer below).
        form.errors.clear()
        form.add_rule_errors(services.AlreadyEntered(posted, game.hand_count))
        status = 409
    elif form.is_valid():
        by = access.actor_for(request, game, via=Via.PAGE if role is not None else Via.TABLE)
        try:
            result = services.record_hand(
                game=game,
                document=form.document(),
                by=by,
                idempotency_key=form.cleaned_data.get("idempotency_key") or None,
                number=posted,
                seat=form.cleaned_data.get("seat"),
            )
        except services.AlreadyEntered as entered:
            # Shown as the form again (the values typed, under the next number), with why above
            # it; the page (or the outbox) refreshes the history and points at that hand.
            form.add_rule_errors(entered)
            status = 409
        except services.Locked as locked:
            if _outbox(request):
                # The outbox keeps the hand and shows this sentence with its fix.
                return _outbox_refusal(409, "locked", message(locked.problems[0]), field="game")
            form.add_rule_errors(locked)
            status = 409
        except RuleViolation as violation:
            form.add_rule_errors(violation)
        except services.IdempotencyConflict:
            text = _("This hand was already sent with different values: check the history.")
            if _outbox(request):
                return _outbox_refusal(422, "reused", text, field="idempotency_key")
            form.add_error(None, text)
        except services.NotAllowed:
            if _outbox(request):
                return _outbox_denied(request, game_id, 403)
            raise PermissionDenied from None
        else:
            answer = {"number": result.payload["number"], "replayed": result.replayed}
            if result.hand is not None:
                _remember_undoable(request, result.hand)
                answer["undo"] = {
                    "url": reverse("undo-hand", args=[game.pk, result.hand.number]),
                    "etag": str(etags.hand_tag(result.hand)),
                    "seconds": settings.UNDO_SECONDS,
                }
            if _outbox(request):
                return JsonResponse(answer, status=201)
            messages.success(
                request, _("Hand %(number)s saved.") % {"number": result.payload["number"]}
            )
            return redirect("game", game_id=game.pk)
    game.refresh_from_db()
    context = game_context(request, game, role, form)
    if status == 409 and behind:
        context["just_entered"] = posted
    if _outbox(request):
        html = render_to_string("scoring/partials/hand_form.html", context, request)
        response = HttpResponse(html, status=status)
        if "just_entered" in context:
            response["X-Refusal"] = "already_entered"
        return response
    return render(request, "scoring/game.html", context, status=status)


def _posted_number(request) -> int | None:
    """The hand number the phone showed when the hand was typed (the form's ``number``)."""
    value = request.POST.get("number", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 7 else None


#: How many hands a browser session remembers having saved, for undo.
UNDO_REMEMBERED = 20


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
        game, role = game_or_404(request, game_id)
        if not can_write(request, game, role):
            raise PermissionDenied
    except (Http404, PermissionDenied) as refusal:
        return _outbox_denied(request, game_id, 404 if isinstance(refusal, Http404) else 403)
    condition = etags.parse(request.POST.get("etag"))
    if condition is None:
        return _outbox_refusal(
            400, "required", _("Say which hand to undo: reload the game."), field="etag"
        )
    too_late = _(
        "Hand %(number)s can no longer be undone: open it from the history to remove it, with a "
        "reason."
    ) % {"number": number}
    hand = Hand.objects.filter(game=game, number=number).only("pk").first()
    if hand is not None and hand.pk not in request.session.get("undoable", []):
        return _outbox_refusal(409, "undo_expired", too_late)
    by = access.actor_for(request, game, via=Via.PAGE if role is not None else Via.TABLE)
    try:
        services.undo_hand(
            game=game,
            number=number,
            by=by,
            expected=condition.strong,
            within_seconds=settings.UNDO_SECONDS,
        )
    except services.HandNotFound:
        return _outbox_refusal(404, "not_found", _("This hand is already gone."))
    except services.VersionConflict:
        return _outbox_refusal(412, "stale", HAND_MOVED)
    except services.UndoExpired:
        return _outbox_refusal(409, "undo_expired", too_late)
    except RuleViolation as violation:
        return _outbox_refusal(409, "locked", " ".join(message(p) for p in violation.problems))
    request.session["undoable"] = [pk for pk in request.session["undoable"] if pk != hand.pk]
    text = _("Hand %(number)s undone.") % {"number": number}
    return JsonResponse({"number": number, "undone": True, "message": text})


def hand_page(request, game_id: int, number: int):
    """One hand: what was entered, its audit trail, and the forms to correct or remove it."""
    game, role = game_or_404(request, game_id)
    hand = get_object_or_404(Hand, game=game, number=number)
    names = selectors.player_names(game)
    writable = can_write(request, game, role) and game.status != GameStatus.ABANDONED
    if request.method == "POST" and not writable:
        raise PermissionDenied  # a reader's POST must not look like an answer to it
    form = reason_form = removal_choice = None
    status = 200
    # A locked game shows why instead of its forms (a form posted before the lock shows it too).
    if writable and (not game.locked or request.method == "POST"):
        form_class = HAND_FORMS[game.ruleset]
        form = hand_form(game, names, initial=form_class.initial_from(hand.document))
        reason_form = ReasonForm()
        if request.method == "POST":
            by = access.actor_for(request, game, via=Via.PAGE if role is not None else Via.TABLE)
            action = request.POST.get("action")
            if action in REMOVALS:
                reason_form = ReasonForm(request.POST)
                reason_form.hand_number, reason_form.names = number, names
                if reason_form.is_valid():
                    try:
                        REMOVALS[action](
                            game=game,
                            number=number,
                            by=by,
                            reason=reason_form.cleaned_data["reason"],
                            expected=_shown(request),
                        )
                    except services.Locked as locked:
                        reason_form.add_rule_errors(locked)
                        status = 409
                    except RuleViolation as violation:
                        if action == "remove" and _breaks_deal_order(violation):
                            # Not an error: the player is asked what they meant.
                            removal_choice = {
                                "later": game.hand_count - number,
                                "fixable": services.dealers_fixable(game=game, number=number),
                            }
                            status = 409
                        else:
                            reason_form.add_rule_errors(violation)
                    except services.VersionConflict:
                        reason_form.add_error(None, HAND_MOVED)
                    else:
                        messages.success(request, _removed_text(action, number, game.hand_count))
                        return redirect("game", game_id=game.pk)
            else:
                form = hand_form(game, names, request.POST)
                form.hand_number = number
                if form.is_valid():
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
                        status = 409
                    except RuleViolation as violation:
                        form.add_rule_errors(violation)
                    except services.VersionConflict:
                        form.add_error(None, HAND_MOVED)
                    else:
                        messages.success(
                            request, _("Hand %(number)s corrected.") % {"number": number}
                        )
                        return redirect("game", game_id=game.pk)
            status = status if status != 200 else 400
            hand.refresh_from_db()
    trail = selectors.audit_of_hand(game, number)
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
            "form": form,
            "reason_form": reason_form,
            "removal_choice": removal_choice,
            "lock_message": lock_message(game),
            "trail": [
                {
                    "event": e,
                    "before": _doc_summary(game, e.before, names),
                    "after": _doc_summary(game, e.after, names),
                }
                for e in trail
            ],
        },
        status=status,
    )


#: The ways to remove a hand, by the form's ``action``: the hand alone; the hand and those after
#: it; the hand, with the later hands' dealers following the deal order again.
REMOVALS = {
    "remove": services.remove_hand,
    "remove-following": services.remove_hands_from,
    "fix-dealers": services.remove_hand_fixing_dealers,
}


def _breaks_deal_order(violation: RuleViolation) -> bool:
    return any(p.code == "wrong_dealer" for p in violation.problems)


def _removed_text(action: str, number: int, hand_count: int) -> str:
    if action == "remove-following":  # offered only when later hands follow: two or more
        return _("Hands %(number)s to %(last)s removed.") % {"number": number, "last": hand_count}
    if action == "fix-dealers":
        return _(
            "Hand %(number)s removed; the dealers of the later hands follow the order again."
        ) % {"number": number}
    return _("Hand %(number)s removed.") % {"number": number}


def _doc_summary(game, data, names):
    if not data or "document" not in data:
        return None
    return {
        "summary": hand_summary(game.ruleset, data["document"], names),
        "deltas": data.get("deltas"),
    }


#: A correction or removal whose form showed another hand or version than the one now there.
HAND_MOVED = gettext_lazy(
    "This hand changed since you opened it: someone corrected it, or removed an earlier hand and "
    "the hands moved up. Here it is as it is now: check it before you try again."
)


def _shown(request) -> tuple[etags.Tag, ...]:
    """The validator of the hand the form showed (its hidden ``etag``): the service acts only
    if it still names the hand at this number, at the same version."""
    condition = etags.parse(request.POST.get("etag"))
    return () if condition is None else condition.strong


@require_POST
def abandon_game(request, game_id: int):
    game, role = game_or_404(request, game_id)
    if not access.writes_hands(role):
        raise PermissionDenied
    form = ReasonForm(request.POST)
    if game.status == GameStatus.FINISHED and request.POST.get("confirm_finished") != "1":
        # A finished game's ranking is not erased by a stray tap: the page asks to confirm.
        messages.error(
            request, _("Confirm that this finished game should be abandoned: its ranking is lost.")
        )
    elif form.is_valid():
        try:
            services.abandon_game(
                game=game, by=access.actor_for(request), reason=form.cleaned_data["reason"]
            )
        except RuleViolation as violation:
            messages.error(request, " ".join(message(p) for p in violation.problems))
        else:
            messages.success(request, _("The game was abandoned."))
    else:
        messages.error(request, _("Give a reason to abandon the game."))
    return redirect("game", game_id=game.pk)


@require_POST
def reopen_game(request, game_id: int):
    """A manager lets a locked game change again, with a reason (audited)."""
    game, role = game_or_404(request, game_id)
    if not access.is_manager(role):
        raise PermissionDenied
    form = ReasonForm(request.POST, auto_id="id_reopen_%s")
    if form.is_valid():
        try:
            services.reopen_game(
                game=game, by=access.actor_for(request), reason=form.cleaned_data["reason"]
            )
        except RuleViolation as violation:
            form.add_rule_errors(violation)
        else:
            messages.success(request, _("The game is open again: its changes are audited."))
            return redirect("game", game_id=game.pk)
    game.refresh_from_db()
    context = game_context(request, game, role, reopen_form=form)
    return render(request, "scoring/game.html", context, status=400)


@require_POST
def lock_game(request, game_id: int):
    """A manager locks a reopened game again, for the reason it had (or by hand)."""
    game, role = game_or_404(request, game_id)
    if not access.is_manager(role):
        raise PermissionDenied
    services.lock_games(games=[game], by=access.actor_for(request))
    messages.success(request, _("The game is locked again."))
    return redirect("game", game_id=game.pk)


def game_export(request, game_id: int):
    game, _role = game_or_404(request, game_id)
    response = JsonResponse(
        selectors.export_game(game), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = f'attachment; filename="segnapunti-game-{game.pk}.json"'
    return response


# -- table links ------------------------------------------------------------------------------


def site_url(request, path: str) -> str:
    """The address of ``path`` that phones reach: SITE_URL when it is set explicitly, else the
    address this request came in on (a laptop at the club serving on its local network), or,
    for a page opened on that laptop as localhost, its address on the local network."""
    if settings.SITE_URL_SET or request is None:
        return settings.SITE_URL + path
    if lan.is_local(request.get_host()):
        # Opened on the serving laptop itself: phones need its address on the club's network.
        phones = lan.phone_address(request)
        if phones and phones["url"]:
            return phones["url"].rstrip("/") + path
    return request.build_absolute_uri(path)


def table_url(link: TableLink, request=None) -> str:
    return site_url(request, reverse("table-link", args=[link.token]))


def qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=6, border=2, dark="#111827")


def table_card(request, game_id: int):
    """The table's QR code and PIN, for the organizer to show or print. A POST (owner or
    organizer) gives the table a new link and PIN: the old ones stop working."""
    game, role = game_or_404(request, game_id)
    if not access.writes_hands(role):
        raise PermissionDenied
    if request.method == "POST":
        try:
            services.rotate_table_link(game=game, by=access.actor_for(request))
        except services.NotAllowed:
            raise PermissionDenied from None
        messages.success(
            request, _("The table has a new link and PIN: the old ones no longer open it.")
        )
        return redirect("table-card", game_id=game.pk)
    link, _created = TableLink.objects.get_or_create(game=game)
    url = table_url(link, request)
    return render(
        request,
        "scoring/table_card.html",
        {
            "game": game,
            "club": game.club,
            "link": link,
            "url": url,
            "qr": qr_svg(url),
            "names": selectors.player_names(game),
            "manager": access.is_manager(role),
        },
    )


def table_link(request, token: str):
    """The page a table's QR code opens: the right PIN opens the game for this browser session.
    Wrong PINs are throttled per session and address (``scoring.throttles``), with a ceiling
    per link (``services.check_pin``)."""
    link = get_object_or_404(TableLink.objects.select_related("game__club"), token=token)
    game = link.game
    if game.pk in access.table_games(request):
        return redirect("game", game_id=game.pk)
    form = PinForm(request.POST or None)
    locked, status, wait = False, 200, 0
    if request.method == "POST" and form.is_valid():
        guard = throttles.pin_guard(request, link)
        wait = guard.wait()
        if wait:
            locked, status = True, 429
            form.add_error("pin", message(throttles.throttled("pin", wait)))
        else:
            guard.attempt()
            result = services.check_pin(
                link=link,
                pin=form.cleaned_data["pin"],
                max_attempts=settings.PIN_LINK_MAX_FAILURES,
                window_minutes=60,
            )
            if result:
                guard.succeed()
                access.open_table(request, link)
                return redirect("game", game_id=game.pk)
            if result is None:
                locked, status = True, 429
                form.add_error(
                    "pin",
                    _(
                        "Too many wrong PINs were typed for this table in the last hour: ask "
                        "the organizer for a new link and PIN."
                    ),
                )
            else:
                form.add_error("pin", _("Wrong PIN: ask the organizer for this table's PIN."))
    response = render(
        request,
        "scoring/table_link.html",
        {
            "game": game,
            "club": game.club,
            "form": form,
            "locked": locked,
            "names": selectors.player_names(game),
        },
        status=status if status != 200 else (400 if form.errors else 200),
    )
    if wait:
        response["Retry-After"] = str(wait)
    return response
