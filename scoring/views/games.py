"""A game's pages: starting one, the game page and its live region, abandoning, reopening and
locking it, and its export. They translate a request into a selector or a service call and
render the answer; the game page's context is ``scoring.presenters.games``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_POST

from scoring import access, etags, selectors, services
from scoring.extensions import GAME_PAGE_SECTIONS
from scoring.forms.games import ReasonForm, StartGameForm
from scoring.forms.hands import hand_form
from scoring.models import GameStatus
from scoring.presenters.games import game_context
from scoring.services import submissions
from scoring.views.access import (
    attempt,
    club_or_404,
    fingerprint,
    game_or_404,
    submit,
    viewer,
)


@login_required
def start_game(request, slug: str):
    club, role = club_or_404(request, slug)
    if not access.writes_hands(role):
        raise PermissionDenied
    form = StartGameForm(
        request.POST or None,
        club=club,
        user=request.user,
        initial={"ruleset": request.GET.get("ruleset", "terziglio")},
    )
    if request.method == "POST" and form.is_valid():
        by = access.actor_for(request)
        try:
            # Sent once: the same form again (a double tap, five at once) shows this game.
            with submissions.once(token=form.once_token(), by=by, purpose="start_game") as made:
                game = submit(
                    form,
                    services.start_game,
                    club=club,
                    ruleset=form.cleaned_data["ruleset"],
                    players=form.players(),
                    options=form.ruleset_options(),
                    title=form.cleaned_data.get("title", ""),
                    hands_need_acceptance=bool(form.cleaned_data.get("hands_need_acceptance")),
                    by=by,
                )
                if game is not None:
                    made(reverse("game", args=[game.pk]))
        except submissions.AlreadySubmitted as sent:
            return redirect(sent.answer or reverse("club", args=[club.slug]))
        if game is not None:
            return redirect("game", game_id=game.pk)
    return render(
        request,
        "scoring/start_game.html",
        {
            "club": club,
            "role": role,
            "form": form,
            "seat_rows": form.seat_rows(),
        },
        status=400 if form.errors else 200,
    )


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
        and access.can_write(request, game, role)
    ):
        # A rematch offers the first deal to the seat after the one that dealt first.
        form = hand_form(game, selectors.player_names(game), initial={"dealer": int(dealer)})
    context = game_context(request, game, role, form) | {
        "sections": game_sections(request, game, role)
    }
    return render(request, "scoring/game.html", context)


def game_sections(request, game, role) -> list[str]:
    """What other apps show on the game page and the scoreboard (``GAME_PAGE_SECTIONS``: a
    competition's table adds its round's clock and the call of the director)."""
    return [html for section in GAME_PAGE_SECTIONS if (html := section(request, game, role))]


def live_etag(request, game_id: int, part: str = "") -> str | None:
    """The game's version and who reads it in which language: a 304 only for the very bytes
    this reader last got. The game and the role are the view's own (cached on the request).
    ``part`` names another fragment of the same game (the scoreboard's ``b``), whose bytes
    follow the same version and reader."""
    try:
        game, role = game_or_404(request, game_id)
    except Http404:
        return None  # the view answers 404 itself
    seen_by = viewer(request, role, table_game=game.pk)
    tag = etags.game_tag(game)
    return f'"{part}{tag.kind}{tag.id}.{tag.version}-{fingerprint(seen_by)}"'


@condition(etag_func=live_etag)
def game_live(request, game_id: int):
    """The totals and the history, for polling (304 while nothing this reader sees changed)."""
    game, role = game_or_404(request, game_id)
    return render(request, "scoring/partials/live.html", game_context(request, game, role))


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
        abandoned = attempt(
            request,
            services.abandon_game,
            game=game,
            by=access.actor_for(request),
            reason=form.cleaned_data["reason"],
        )
        if abandoned is not None:
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
        submit(
            form,
            services.reopen_game,
            game=game,
            by=access.actor_for(request),
            reason=form.cleaned_data["reason"],
        )
        if not form.errors:
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
