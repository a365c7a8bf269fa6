"""A table's link: the card an organizer shows or prints (QR code and PIN), and the page the QR
code opens, where the right PIN lets a phone into that one game."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from scoring import access, links, selectors, services, throttles
from scoring.forms.table_links import PinForm
from scoring.links import admission_url, qr_svg, table_url
from scoring.messages import message
from scoring.models import TableLink
from scoring.presenters.games import pair_sides
from scoring.views.access import call_service, game_or_404


def table_card(request, game_id: int):
    """The table's QR code and PIN, for the organizer to show or print, and a code that admits
    a phone without the PIN (for a link that wrong PINs lock). A phone seated at the table sees
    it too, to admit the next phone. A POST (owner or organizer) gives the table a new link and
    PIN: the old ones stop working."""
    game, role = game_or_404(request, game_id)
    seated = game.pk in access.table_writable(request)
    if not access.writes_hands(role) and not (seated and request.method == "GET"):
        raise PermissionDenied
    if request.method == "POST":
        call_service(services.rotate_table_link, game=game, by=access.actor_for(request))
        messages.success(
            request, _("The table has a new link and PIN: the old ones no longer open it.")
        )
        return redirect("table-card", game_id=game.pk)
    link = selectors.table_link(game)
    url = table_url(link, request)
    hard_max = max(settings.PIN_LINK_HARD_FAILURES, settings.PIN_LINK_MAX_FAILURES)
    return render(
        request,
        "scoring/table_card.html",
        {
            "game": game,
            "club": game.club,
            "link": link,
            "url": url,
            "qr": qr_svg(url),
            "admission_qr": qr_svg(admission_url(link, request)),
            "admission_minutes": links.ADMISSION_MINUTES,
            "locked_until": services.locked_until(link, hard_max),
            "names": (names := selectors.player_names(game)),
            "sides": pair_sides(game, names),
            "manager": access.is_manager(role),
        },
    )


def _check_pin(request, link: TableLink, pin: str) -> bool | None:
    """``services.check_pin`` for this caller: a suspect (an address that typed a wrong PIN
    for this link) meets the link's ceiling, the others only its hard ceiling."""
    result = services.check_pin(
        link=link,
        pin=pin,
        max_attempts=settings.PIN_LINK_MAX_FAILURES,
        window_minutes=services.LINK_WINDOW_MINUTES,
        suspect=throttles.pin_suspect(request, link),
        hard_max=settings.PIN_LINK_HARD_FAILURES,
    )
    if result is False:
        throttles.note_wrong_pin(request, link)
    return result


def table_link(request, token: str):
    """The page a table's QR code opens: the right PIN opens the game for this browser session,
    and so does a valid admission ticket (``?admit=``, from a seated phone or the table card).
    Wrong PINs are throttled per session and address (``scoring.throttles``), with ceilings per
    link (``services.check_pin``) that lock out the addresses that guessed wrong first."""
    link = get_object_or_404(TableLink.objects.select_related("game__club"), token=token)
    game = link.game
    ticket = request.GET.get("admit")
    if ticket and links.admitted(link, ticket):  # shown by a seated phone or the table card
        access.open_table(request, link)
        return redirect("game", game_id=game.pk)
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
            result = _check_pin(request, link, form.cleaned_data["pin"])
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
                        "a player already in the game or the organizer to let this phone in "
                        "(their table card has a code for it)."
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
            "ticket_expired": bool(ticket),
        },
        status=status if status != 200 else (400 if form.errors else 200),
    )
    if wait:
        response["Retry-After"] = str(wait)
    return response
