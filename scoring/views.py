"""Pages: they translate a request into a selector or a service call and render the answer.

A hand form posted by the offline outbox (``static/js/outbox.js``, header ``X-Outbox: 1``) gets a
short answer instead of a page: 201 when stored (or already stored: the idempotency key makes a
resend harmless), 400 with the form re-rendered with its errors, so nothing typed is lost.
"""

from __future__ import annotations

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_POST

from scoring import access, selectors, services
from scoring.extensions import CLUB_PAGE_SECTIONS
from scoring.forms import PinForm, PlayerForm, ReasonForm, StartGameForm
from scoring.hand_forms import HAND_FORMS, hand_form
from scoring.messages import message
from scoring.models import Club, Game, GameStatus, Hand, Player, TableLink, Via
from scoring.presenters import hand_summary
from scoring.rules import RULESETS, RuleViolation


def home(request):
    return render(
        request,
        "scoring/home.html",
        {"clubs": selectors.clubs_for(request.user), "rulesets": RULESETS.values()},
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
    return access.writes_hands(role) or game.pk in access.table_games(request)


def game_context(request, game: Game, role: str | None, form=None) -> dict:
    seats = selectors.seats_of(game)
    names = [s.player.display_name for s in seats]
    rows = selectors.history(game)
    ranking = selectors.ranking(game) or []
    place_of = {r["seat"]: r["place"] for r in ranking}
    writable = can_write(request, game, role)
    if form is None and writable and game.status == GameStatus.IN_PROGRESS:
        form = hand_form(game, names)
    next_dealer = game.next_dealer
    return {
        "game": game,
        "club": game.club,
        "role": role,
        "names": names,
        "seats": seats,
        "totals": [
            {"seat": i, "name": name, "total": total, "place": place_of.get(i)}
            for i, (name, total) in enumerate(zip(names, game.totals, strict=True))
        ],
        "history": [_history_line(game, r, names) for r in reversed(rows)],
        "ranking": [
            {"place": r["place"], "name": names[r["seat"]], "total": game.totals[r["seat"]]}
            for r in ranking
        ],
        "form": form,
        "writable": writable,
        "next_dealer": _name(names, next_dealer),
        "sitting_out": _name(names, game.sitting_out_next),
        "lowest_wins": game.rules.lowest_wins,
        "side_names": _side_names(game, names),
    }


def _name(names, seat):
    return None if seat is None else names[seat]


def _history_line(game: Game, row: selectors.HistoryRow, names: list[str]) -> dict:
    """One line of the history: the hand's data (``selectors.hand_data``, the API's shape) and
    its words: summary, dealer, and the delta and running total of each seat."""
    data = selectors.hand_data(row.hand, row.totals)
    return data | {
        "corrected": row.hand.corrected,
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
    return render(request, "scoring/game.html", game_context(request, game, role))


def _game_etag(request, game_id: int) -> str | None:
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    return None if version is None else f"g{version}"


@condition(etag_func=_game_etag)
def game_live(request, game_id: int):
    """The totals and the history, for polling (304 while the game has not changed)."""
    game, role = game_or_404(request, game_id)
    return render(request, "scoring/partials/live.html", game_context(request, game, role))


def _outbox(request) -> bool:
    return request.headers.get("X-Outbox") == "1"


@require_POST
def record_hand(request, game_id: int):
    game, role = game_or_404(request, game_id)
    if not can_write(request, game, role):
        raise PermissionDenied
    names = selectors.player_names(game)
    form = hand_form(game, names, request.POST)
    if form.is_valid():
        by = access.actor_for(request, game, via=Via.PAGE if role is not None else Via.TABLE)
        try:
            result = services.record_hand(
                game=game,
                document=form.document(),
                by=by,
                idempotency_key=form.cleaned_data.get("idempotency_key") or None,
            )
        except RuleViolation as violation:
            form.add_rule_errors(violation)
        except services.IdempotencyConflict:
            form.add_error(
                None, _("This hand was already sent with different values: check the history.")
            )
        except services.NotAllowed:
            raise PermissionDenied from None
        else:
            if _outbox(request):
                return JsonResponse(
                    {"number": result.payload["number"], "replayed": result.replayed}, status=201
                )
            messages.success(
                request, _("Hand %(number)s saved.") % {"number": result.payload["number"]}
            )
            return redirect("game", game_id=game.pk)
    game.refresh_from_db()
    if _outbox(request):
        html = render_to_string(
            "scoring/partials/hand_form.html", game_context(request, game, role, form), request
        )
        return HttpResponse(html, status=400)
    return render(request, "scoring/game.html", game_context(request, game, role, form), status=400)


def hand_page(request, game_id: int, number: int):
    """One hand: what was entered, its audit trail, and the forms to correct or remove it."""
    game, role = game_or_404(request, game_id)
    hand = get_object_or_404(Hand, game=game, number=number)
    names = selectors.player_names(game)
    writable = can_write(request, game, role) and game.status != GameStatus.ABANDONED
    form = reason_form = None
    status = 200
    if writable:
        form_class = HAND_FORMS[game.ruleset]
        form = hand_form(game, names, initial=form_class.initial_from(hand.document))
        reason_form = ReasonForm()
        if request.method == "POST":
            by = access.actor_for(request, game, via=Via.PAGE if role is not None else Via.TABLE)
            if request.POST.get("action") == "remove":
                reason_form = ReasonForm(request.POST)
                reason_form.hand_number, reason_form.names = number, names
                if reason_form.is_valid():
                    try:
                        services.remove_hand(
                            game=game,
                            number=number,
                            by=by,
                            reason=reason_form.cleaned_data["reason"],
                        )
                    except RuleViolation as violation:
                        reason_form.add_rule_errors(violation)
                    else:
                        messages.success(
                            request, _("Hand %(number)s removed.") % {"number": number}
                        )
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
                            expected_version=_int(request.POST.get("version")),
                            reason=request.POST.get("reason", ""),
                        )
                    except RuleViolation as violation:
                        form.add_rule_errors(violation)
                    except services.VersionConflict:
                        form.add_error(
                            None,
                            _(
                                "Someone else corrected this hand meanwhile: here is the new version."
                            ),
                        )
                    else:
                        messages.success(
                            request, _("Hand %(number)s corrected.") % {"number": number}
                        )
                        return redirect("game", game_id=game.pk)
            status = 400
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
            "names": names,
            "summary": hand_summary(game.ruleset, hand.document, names),
            "deltas": list(zip(names, hand.deltas, strict=True)),
            "form": form,
            "reason_form": reason_form,
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


def _doc_summary(game, data, names):
    if not data or "document" not in data:
        return None
    return {
        "summary": hand_summary(game.ruleset, data["document"], names),
        "deltas": data.get("deltas"),
    }


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@require_POST
def abandon_game(request, game_id: int):
    game, role = game_or_404(request, game_id)
    if not access.writes_hands(role):
        raise PermissionDenied
    form = ReasonForm(request.POST)
    if form.is_valid():
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


def game_export(request, game_id: int):
    game, _role = game_or_404(request, game_id)
    response = JsonResponse(
        selectors.export_game(game), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = f'attachment; filename="segnapunti-game-{game.pk}.json"'
    return response


# -- table links ------------------------------------------------------------------------------


def table_url(link: TableLink) -> str:
    return settings.SITE_URL + reverse("table-link", args=[link.token])


def qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=6, border=2, dark="#111827")


def table_card(request, game_id: int):
    """The table's QR code and PIN, for the organizer to show or print."""
    game, role = game_or_404(request, game_id)
    if not access.writes_hands(role):
        raise PermissionDenied
    link, _created = TableLink.objects.get_or_create(game=game)
    url = table_url(link)
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
        },
    )


def table_link(request, token: str):
    link = get_object_or_404(TableLink.objects.select_related("game__club"), token=token)
    game = link.game
    if game.pk in access.table_games(request):
        return redirect("game", game_id=game.pk)
    form = PinForm(request.POST or None)
    locked = False
    if request.method == "POST" and form.is_valid():
        result = services.check_pin(
            link=link,
            pin=form.cleaned_data["pin"],
            max_attempts=settings.PIN_MAX_ATTEMPTS,
            window_minutes=settings.PIN_WINDOW_MINUTES,
        )
        if result:
            access.open_table(request, game)
            return redirect("game", game_id=game.pk)
        if result is None:
            locked = True
            form.add_error(
                "pin",
                _("Too many wrong PINs: wait %(minutes)s minutes and try again.")
                % {"minutes": settings.PIN_WINDOW_MINUTES},
            )
        else:
            form.add_error("pin", _("Wrong PIN: ask the organizer for this table's PIN."))
    return render(
        request,
        "scoring/table_link.html",
        {
            "game": game,
            "club": game.club,
            "form": form,
            "locked": locked,
            "names": selectors.player_names(game),
        },
        status=400 if form.errors else 200,
    )
