"""The home page, a club's page, its players, starting a club and changing its settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import access, lan, selectors, services
from scoring.extensions import CLUB_PAGE_SECTIONS
from scoring.forms.clubs import ClubForm, ClubSettingsForm, PlayerForm
from scoring.forms.players import PlayersBulkForm
from scoring.labels import game_name
from scoring.models import Player, Role
from scoring.rules import RULESETS
from scoring.services.clubs import CLUB_SETTINGS
from scoring.views.access import call_service, club_or_404, owner_club_or_404, submit


def home(request):
    """Your clubs first (with your role, in your language), then the public ones; each game the
    app keeps, a link to start one in your first club where you may enter hands."""
    clubs = selectors.clubs_for(request.user)
    yours = [(club, Role(role).label) for club, role in clubs if role]
    start_in = next((club for club, role in clubs if access.writes_hands(role)), None)
    return render(
        request,
        "scoring/home.html",
        {
            "your_clubs": yours,
            "public_clubs": [club for club, role in clubs if not role],
            "start_in": start_in,
            "rulesets": [
                {"key": key, "name": game_name(key), "rules": rules}
                for key, rules in RULESETS.items()
            ],
            "lan": lan.phone_address(request) if request.user.is_authenticated else None,
        },
    )


def club_page(request, slug: str):
    club, role = club_or_404(request, slug)
    in_progress, finished = selectors.club_games(request.user, club)
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
        player = submit(
            form,
            services.add_player,
            club=club,
            display_name=form.cleaned_data["display_name"],
            by=access.actor_for(request),
        )
        if player is not None:
            messages.success(
                request, _("%(name)s joined the club.") % {"name": player.display_name}
            )
            return redirect("club-players", slug=club.slug)
    return render_players(request, club, role, form=form)


def render_players(request, club, role, *, form=None, bulk=None, status: int = 200):
    """The Players page, its forms as given (refused ones keep their errors): one to add a
    player, one to add several (``scoring.views.players.players_bulk``)."""
    players = selectors.players_of(club)
    return render(
        request,
        "scoring/players.html",
        {
            "club": club,
            "role": role,
            "players": players,
            "form": form or PlayerForm(),
            "bulk": bulk or PlayersBulkForm(),
            # A user plays as one player of a club: "This is me" until one is linked.
            "mine": any(p.user_id == request.user.pk for p in players),
            # Claimed and waiting for a manager's answer: said on the row, not claimed again.
            "claimed": selectors.pending_claims(request.user, club),
        },
        status=status,
    )


@require_POST
def player_active(request, slug: str, player_id: int):
    club, _role = club_or_404(request, slug)
    player = get_object_or_404(Player, club=club, pk=player_id)
    call_service(
        services.set_player_active,
        player=player,
        active=request.POST.get("active") == "1",
        by=access.actor_for(request),
    )
    return redirect("club-players", slug=club.slug)


@login_required
def club_new(request):
    form = ClubForm(request.POST or None, initial={"language": request.LANGUAGE_CODE})
    if request.method == "POST" and form.is_valid():
        club = submit(form, services.create_club, by=access.actor_for(request), **form.cleaned_data)
        if club is not None:
            messages.success(
                request, _("%(club)s is open: invite its members.") % {"club": club.name}
            )
            return redirect("club-members", slug=club.slug)
    return render(
        request, "scoring/club_new.html", {"form": form}, status=400 if form.errors else 200
    )


@login_required
def club_settings(request, slug: str):
    """The club's own settings, for its owners (404 outside the club, 403 for other members):
    name, time zone, language and public results; the address stays."""
    club, role = owner_club_or_404(request, slug)
    form = ClubSettingsForm(
        request.POST or None, initial={field: getattr(club, field) for field in CLUB_SETTINGS}
    )
    if request.method == "POST" and form.is_valid():
        submit(
            form, services.update_club, club=club, by=access.actor_for(request), **form.cleaned_data
        )
        if not form.errors:
            messages.success(request, _("The club's settings are saved."))
            return redirect("club-settings", slug=club.slug)
    return render(
        request,
        "scoring/club_settings.html",
        {"club": club, "role": role, "form": form},
        status=400 if form.errors else 200,
    )
