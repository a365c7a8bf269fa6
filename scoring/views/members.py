"""A club's people: the members page (invitations, roles, removals, claims), an invitation's
page, and a member's "This is me" claim on a player.

Like every page, they translate: a request in, a call of ``scoring.services.members``, the
answer rendered; a refusal goes next to the field (or the member's row) it concerns.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import access, rates, selectors
from scoring.forms.members import InviteForm
from scoring.messages import message
from scoring.models import Club, Invitation, Player, PlayerClaim, Role
from scoring.rules import RuleViolation
from scoring.services import members as service
from scoring.services import submissions
from scoring.views.access import attempt, call_service, manager_club_or_404, rule_text, submit


def _roles_for(role: str) -> list[tuple[str, str]]:
    """The roles ``role`` may give (only an owner gives "owner")."""
    return [(v, label) for v, label in Role.choices if v != Role.OWNER or role == Role.OWNER]


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@login_required
def members_page(request, slug: str):
    club, role = manager_club_or_404(request, slug)
    form = InviteForm(club=club, roles=_roles_for(role), user=request.user)
    row_errors: dict[str, str] = {}
    new_link = None
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "invite":
            form = InviteForm(request.POST, club=club, roles=_roles_for(role), user=request.user)
            try:
                invited = form.is_valid() and _invite(request, club, form)
            except submissions.AlreadySubmitted:  # sent before: the page lists the invitation
                return redirect("club-members", slug=club.slug)
            if invited and form.cleaned_data["email"]:
                email = form.cleaned_data["email"]
                messages.success(
                    request, _("An invitation was sent to %(email)s.") % {"email": email}
                )
                return redirect("club-members", slug=club.slug)
            if invited:
                new_link = invited.url
                form = InviteForm(club=club, roles=_roles_for(role), user=request.user)
            status = 400 if form.errors else 200
        elif action in ROW_ACTIONS:
            key, write = ROW_ACTIONS[action](request, club)
            try:
                call_service(write)
            except RuleViolation as violation:
                row_errors[key], status = rule_text(violation), 400
            else:
                if action == "remove" and _int(request.POST.get("user")) == request.user.pk:
                    messages.success(request, _("You left %(club)s.") % {"club": club.name})
                    return redirect("home")
                return redirect("club-members", slug=club.slug)
        else:
            status = 400
    return render(
        request,
        "scoring/members.html",
        _members_context(club, role, request.user, row_errors)
        | {"form": form, "new_link": new_link, "days": settings.INVITATION_DAYS},
        status=status,
    )


def _invite(request, club: Club, form: InviteForm):
    """The invitation of a valid form, sent once (a double tap invites once)."""
    by = access.actor_for(request)
    with submissions.once(token=form.once_token(), by=by, purpose="invite") as made:
        invited = submit(
            form,
            service.invite,
            club=club,
            by=by,
            role=form.cleaned_data["role"],
            email=form.cleaned_data["email"],
            player=selectors.club_player(club, form.cleaned_data["player"]),
            request=request,
        )
        if invited:
            made(reverse("club-members", args=[club.slug]))
    return invited


def _role_change(request, club: Club):
    user_id = _int(request.POST.get("user"))
    return f"member-{user_id}", lambda: service.change_role(
        club=club, user=user_id, role=request.POST.get("role", ""), by=access.actor_for(request)
    )


def _removal(request, club: Club):
    user_id = _int(request.POST.get("user"))
    return f"member-{user_id}", lambda: service.remove_member(
        club=club, user=user_id, by=access.actor_for(request)
    )


def _revocation(request, club: Club):
    invitation = get_object_or_404(Invitation, club=club, pk=_int(request.POST.get("invitation")))
    return f"invitation-{invitation.pk}", lambda: service.revoke_invitation(
        invitation=invitation, by=access.actor_for(request)
    )


def _decision(request, club: Club):
    claim = get_object_or_404(PlayerClaim, player__club=club, pk=_int(request.POST.get("claim")))
    approve = request.POST.get("action") == "approve"
    return f"claim-{claim.pk}", lambda: service.decide_claim(
        claim=claim, approve=approve, by=access.actor_for(request)
    )


#: The members page's actions on one row: the row's key (where a refusal shows) and the write.
ROW_ACTIONS = {
    "role": _role_change,
    "remove": _removal,
    "revoke": _revocation,
    "approve": _decision,
    "reject": _decision,
}


def _members_context(club: Club, role: str, user, errors: dict[str, str]) -> dict:
    """The members page's rows (``selectors.members_page``); ``errors`` holds a refusal by row
    (``member-<user id>``, ``invitation-<id>``, ``claim-<id>``), shown on that row."""
    rows = selectors.members_page(club)
    for invitation in rows["invitations"]:
        invitation.error = errors.get(f"invitation-{invitation.pk}")
    for claim in rows["claims"]:
        claim.error = errors.get(f"claim-{claim.pk}")
    return {
        "club": club,
        "role": role,
        "is_owner": role == Role.OWNER,
        "roles": _roles_for(role),
        "members": [
            {
                "membership": m,
                "player": rows["linked"].get(m.user_id),
                "me": m.user_id == user.pk,
                "error": errors.get(f"member-{m.user_id}"),
            }
            for m in rows["members"]
        ],
        "invitations": rows["invitations"],
        "claims": rows["claims"],
        "events": rows["events"],
    }


def invitation_page(request, token: str):
    invitation = service.find_invitation(token)
    if invitation is None:
        raise Http404
    problem = service.refusal(invitation)
    error = rule_text(problem) if problem is not None else None
    status = 200 if problem is None else 410
    refusal = None
    if request.method == "POST" and problem is None:
        action = request.POST.get("action")
        by = access.actor_for(request)
        if action == "accept" and not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        # Answers are limited per address and per invitation (scoring.rates): a 429 says so.
        quota = rates.invitation_quota(request, invitation)
        refusal = quota.take() if action in ("accept", "decline") else None
        if refusal is not None:
            action, error, status = None, message(refusal.problem), 429
        try:
            if action == "accept":
                service.accept_invitation(token=token, by=by)
                messages.success(
                    request, _("Welcome to %(club)s.") % {"club": invitation.club.name}
                )
                return redirect("club", slug=invitation.club.slug)
            if action == "decline":
                service.decline_invitation(token=token, by=by)
                messages.success(request, _("You declined the invitation."))
                return redirect("home")
        except RuleViolation as violation:
            quota.give_back()
            error, status = rule_text(violation), 400
    response = render(
        request,
        "scoring/invitation.html",
        {
            "invitation": invitation,
            "club": invitation.club,
            "token": token,
            "error": error,
            "throttled": refusal is not None,
            "signup_possible": settings.SIGNUP != "closed",
        },
        status=status,
    )
    return rates.page_refusal(response, refusal) if refusal is not None else response


@require_POST
@login_required
def claim_player(request, slug: str, player_id: int):
    club = get_object_or_404(Club, slug=slug)
    if selectors.role_of(request.user, club) is None:
        raise Http404
    player = get_object_or_404(Player, club=club, pk=player_id)
    claimed = attempt(request, service.claim_player, player=player, by=access.actor_for(request))
    if claimed is not None:
        messages.success(
            request,
            _("You claimed %(name)s: an organizer of the club will answer.")
            % {"name": player.display_name},
        )
    return redirect("club-players", slug=club.slug)
