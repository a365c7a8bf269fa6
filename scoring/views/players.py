"""A club's players in bulk (the Players page's list or CSV file), a player's e-mail settings
(the club's organizers), and the unsubscribe link of a results e-mail (no login: its signed
token is the proof)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from scoring import access, links, selectors, services
from scoring.forms.players import PlayerEmailForm, PlayersBulkForm
from scoring.messages import message
from scoring.models import Player
from scoring.rules import RuleViolation
from scoring.services.players import PLAYER_SETTINGS
from scoring.views.access import manager_club_or_404, speak_club_language, submit
from scoring.views.clubs import render_players


@require_POST
@login_required
def players_bulk(request, slug: str):
    """Several players at once, all or none; refusals next to the list or the file, naming
    the line; the names the club already had are said, not created again."""
    club, role = manager_club_or_404(request, slug)
    bulk = PlayersBulkForm(request.POST, request.FILES)
    added = None
    if bulk.is_valid():
        added = submit(
            bulk,
            services.add_players,
            club=club,
            rows=bulk.rows,
            by=access.actor_for(request),
            field_name=bulk.field_name,
        )
    if added is None:
        return render_players(request, club, role, bulk=bulk, status=400)
    if added.created:
        count = len(added.created)
        messages.success(
            request,
            ngettext(
                "%(count)s player joined the club.", "%(count)s players joined the club.", count
            )
            % {"count": count},
        )
    if added.existing:
        messages.info(
            request,
            _("Already in the club, not added again: %(names)s.")
            % {"names": ", ".join(added.named)},
        )
    return redirect("club-players", slug=club.slug)


@login_required
def player_email(request, slug: str, player_id: int):
    """A player's e-mail settings: an address, a language, results by e-mail or not."""
    club, role = manager_club_or_404(request, slug)
    player = get_object_or_404(Player.objects.select_related("user"), club=club, pk=player_id)
    form = PlayerEmailForm(
        request.POST or None, initial={name: getattr(player, name) for name in PLAYER_SETTINGS}
    )
    if request.method == "POST" and form.is_valid():
        submit(
            form,
            services.update_player,
            player=player,
            by=access.actor_for(request),
            **form.cleaned_data,
        )
        if not form.errors:
            messages.success(
                request,
                _("The e-mail settings of %(name)s are saved.") % {"name": player.display_name},
            )
            return redirect("club-players", slug=club.slug)
    return render(
        request,
        "scoring/player_email.html",
        {
            "club": club,
            "role": role,
            "player": player,
            "form": form,
            "account_email": getattr(player.user, "email", "") if player.user_id else "",
            "address": selectors.results_address(player),
        },
        status=400 if form.errors else 200,
    )


# A mail program's one-click unsubscribe (RFC 8058) POSTs without a cookie or a CSRF token: the
# signed token in the address is the proof, and all it can do is stop e-mails.
@csrf_exempt
def unsubscribe(request, token: str):
    """GET: what the link does, and one button; POST: done (again: already done)."""
    player_id = links.unsubscribed_player(token)
    player = Player.objects.select_related("club").filter(pk=player_id).first()
    if player is None:
        text = _("This unsubscribe link is not valid: copy the whole link from the e-mail.")
        return render(request, "scoring/unsubscribe.html", {"refused": text}, status=400)
    # In the player's language (their e-mails'), else the club's, unless the visitor chose one.
    speak_club_language(request, player.club, player.language)
    done = not player.results_by_email
    if request.method == "POST":
        try:
            player, was = services.unsubscribe(token=token)
        except RuleViolation as refused:  # the player deleted meanwhile
            text = " ".join(message(p) for p in refused.problems)
            return render(request, "scoring/unsubscribe.html", {"refused": text}, status=400)
        done, already = True, not was
    else:
        already = done
    return render(
        request,
        "scoring/unsubscribe.html",
        {"player": player, "club": player.club, "done": done, "already": already},
    )
