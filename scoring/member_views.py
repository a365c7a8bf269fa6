"""Pages of accounts and a club's people: sign-up (``SIGNUP``), starting a club, the members
page (invitations, roles, removals, claims), an invitation's page, "My games".

Like every page, they translate: a request in, a call of ``scoring.services.members``, the
answer rendered; a refusal goes next to the field (or the member's row) it concerns.

Accounts use Django's own auth views (login, password reset) and a small sign-up view here:
with ``SIGNUP=open`` the account stays inactive until the link e-mailed to it (signed with
``django.core.signing``, valid ``PASSWORD_RESET_TIMEOUT`` seconds) is opened; an invitation link
(``SIGNUP`` open or invitation) makes an active account at once, the link being the proof.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import access, selectors, views
from scoring.forms import ClubForm, InviteForm, SignupForm
from scoring.messages import message
from scoring.models import (
    MANAGERS,
    AuditAction,
    AuditEvent,
    ClaimStatus,
    Club,
    Game,
    Invitation,
    InvitationStatus,
    Membership,
    Player,
    PlayerClaim,
    Role,
)
from scoring.rules import RuleViolation
from scoring.services import NotAllowed
from scoring.services import members as service

SIGNUP_SALT = "segnapunti.signup"
MEMBER_ACTIONS = [
    AuditAction.CREATE_CLUB,
    AuditAction.INVITE,
    AuditAction.REVOKE_INVITATION,
    AuditAction.ACCEPT_INVITATION,
    AuditAction.DECLINE_INVITATION,
    AuditAction.CHANGE_ROLE,
    AuditAction.REMOVE_MEMBER,
    AuditAction.CLAIM_PLAYER,
    AuditAction.APPROVE_CLAIM,
    AuditAction.REJECT_CLAIM,
]


def _text(violation: RuleViolation) -> str:
    return " ".join(message(p) for p in violation.problems)


# -- accounts ---------------------------------------------------------------------------------


class LoginView(views.LoginView):
    """The throttled login (``scoring.views.LoginView``), whose page links to the password reset
    and, when open, the sign-up."""

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs) | {"signup_open": settings.SIGNUP == "open"}


def signup(request):
    token = request.GET.get("invitation") or request.POST.get("invitation") or ""
    invitation = service.find_invitation(token) if token else None
    by_invitation = invitation is not None and service.refusal(invitation) is None
    allowed = settings.SIGNUP == "open" or (settings.SIGNUP == "invitation" and by_invitation)
    if request.user.is_authenticated:
        return redirect("invitation", token=token) if by_invitation else redirect("home")
    if not allowed:
        return render(request, "registration/signup_closed.html", status=403)
    form = SignupForm(
        request.POST or None, initial={"email": invitation.email if by_invitation else ""}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                data["username"],
                email=data["email"],
                password=data["password1"],
                is_active=by_invitation,
            )
            if not by_invitation:
                transaction.on_commit(lambda: send_verification(request, user))
        if by_invitation:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("invitation", token=token)
        return render(request, "registration/signup_sent.html", {"email": user.email})
    return render(
        request,
        "registration/signup.html",
        {"form": form, "invitation": invitation if by_invitation else None, "token": token},
        status=400 if form.errors else 200,
    )


def send_verification(request, user) -> None:
    signed = signing.dumps({"user": user.pk, "email": user.email}, salt=SIGNUP_SALT)
    url = settings.SITE_URL + reverse("signup-verify", args=[signed])
    body = _("Open this link to confirm your e-mail address and activate your account: %(url)s") % {
        "url": url
    }
    send_mail(
        _("Confirm your Segnapunti account"), body + "\n", settings.DEFAULT_FROM_EMAIL, [user.email]
    )


def signup_verify(request, signed: str):
    try:
        data = signing.loads(signed, salt=SIGNUP_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:  # SignatureExpired included
        data = None
    user = None
    if data is not None:
        user = get_user_model().objects.filter(pk=data["user"], email=data["email"]).first()
    if user is None:
        return render(request, "registration/signup_invalid.html", status=400)
    if not user.is_active:
        user.is_active = True
        user.save(update_fields=["is_active"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Your account is active. Welcome!"))
    return redirect("home")


# -- starting a club --------------------------------------------------------------------------


@login_required
def club_new(request):
    form = ClubForm(request.POST or None, initial={"language": request.LANGUAGE_CODE})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club = service.start_club(by=access.actor_for(request), **data)
        except RuleViolation as violation:
            form.add_rule_errors(violation)
        else:
            messages.success(
                request, _("%(club)s is open: invite its members.") % {"club": club.name}
            )
            return redirect("club-members", slug=club.slug)
    return render(
        request, "scoring/club_new.html", {"form": form}, status=400 if form.errors else 200
    )


# -- members ----------------------------------------------------------------------------------


def _manager_club(request, slug: str) -> tuple[Club, str]:
    club = get_object_or_404(Club, slug=slug)
    role = selectors.role_of(request.user, club)
    if role is None:
        raise Http404
    if role not in MANAGERS:
        raise PermissionDenied
    return club, role


def _roles_for(role: str) -> list[tuple[str, str]]:
    """The roles ``role`` may give (only an owner gives "owner")."""
    return [(v, label) for v, label in Role.choices if v != Role.OWNER or role == Role.OWNER]


@login_required
def members_page(request, slug: str):
    club, role = _manager_club(request, slug)
    by = access.actor_for(request)
    form = InviteForm(club=club, roles=_roles_for(role))
    row_errors: dict[str, str] = {}
    new_link = None
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "invite":
                form = InviteForm(request.POST, club=club, roles=_roles_for(role))
                if not form.is_valid():
                    status = 400
                else:
                    data = form.cleaned_data
                    player = (
                        data["player"]
                        and Player.objects.filter(club=club, pk=data["player"]).first()
                    )
                    invited = service.invite(
                        club=club,
                        by=by,
                        role=data["role"],
                        email=data["email"],
                        player=player or None,
                    )
                    if not data["email"]:
                        new_link = invited.url
                        form = InviteForm(club=club, roles=_roles_for(role))
                    else:
                        messages.success(
                            request,
                            _("An invitation was sent to %(email)s.") % {"email": data["email"]},
                        )
                        return redirect("club-members", slug=club.slug)
            elif action in ("role", "remove"):
                user_id = _int(request.POST.get("user"))
                key = f"member-{user_id}"
                if action == "role":
                    service.change_role(
                        club=club, user=user_id, role=request.POST.get("role", ""), by=by
                    )
                else:
                    service.remove_member(club=club, user=user_id, by=by)
                    if user_id == request.user.pk:
                        messages.success(request, _("You left %(club)s.") % {"club": club.name})
                        return redirect("home")
                return redirect("club-members", slug=club.slug)
            elif action == "revoke":
                key = f"invitation-{request.POST.get('invitation')}"
                invitation = get_object_or_404(
                    Invitation, club=club, pk=_int(request.POST.get("invitation"))
                )
                service.revoke_invitation(invitation=invitation, by=by)
                return redirect("club-members", slug=club.slug)
            elif action in ("approve", "reject"):
                key = f"claim-{request.POST.get('claim')}"
                claim = get_object_or_404(
                    PlayerClaim, player__club=club, pk=_int(request.POST.get("claim"))
                )
                service.decide_claim(claim=claim, approve=action == "approve", by=by)
                return redirect("club-members", slug=club.slug)
            else:
                status = 400
        except RuleViolation as violation:
            status = 400
            if action == "invite":
                form.add_rule_errors(violation)
            else:
                row_errors[key] = _text(violation)
        except NotAllowed:
            raise PermissionDenied from None
    return render(
        request,
        "scoring/members.html",
        members_context(club, role, request.user, row_errors)
        | {"form": form, "new_link": new_link, "days": settings.INVITATION_DAYS},
        status=status,
    )


def members_context(club: Club, role: str, user, errors: dict[str, str]) -> dict:
    """The members page's rows; ``errors`` holds a refusal by row (``member-<user id>``,
    ``invitation-<id>``, ``claim-<id>``), shown on that row."""
    members = list(
        Membership.objects.filter(club=club).select_related("user").order_by("user__username")
    )
    linked = {p.user_id: p for p in Player.objects.filter(club=club, user__isnull=False)}
    invitations = list(
        Invitation.objects.filter(club=club, status=InvitationStatus.PENDING).select_related(
            "player", "created_by"
        )
    )
    claims = list(
        PlayerClaim.objects.filter(player__club=club, status=ClaimStatus.PENDING).select_related(
            "player", "user"
        )
    )
    for invitation in invitations:
        invitation.error = errors.get(f"invitation-{invitation.pk}")
    for claim in claims:
        claim.error = errors.get(f"claim-{claim.pk}")
    events = list(
        AuditEvent.objects.filter(club=club, action__in=MEMBER_ACTIONS)
        .select_related("actor")
        .order_by("-at", "-id")[:50]
    )
    return {
        "club": club,
        "role": role,
        "is_owner": role == Role.OWNER,
        "roles": _roles_for(role),
        "members": [
            {
                "membership": m,
                "player": linked.get(m.user_id),
                "me": m.user_id == user.pk,
                "error": errors.get(f"member-{m.user_id}"),
            }
            for m in members
        ],
        "invitations": invitations,
        "claims": claims,
        "events": events,
    }


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


# -- an invitation ----------------------------------------------------------------------------


def invitation_page(request, token: str):
    invitation = service.find_invitation(token)
    if invitation is None:
        raise Http404
    problem = service.refusal(invitation)
    error = _text(problem) if problem is not None else None
    status = 200 if problem is None else 410
    if request.method == "POST" and problem is None:
        action = request.POST.get("action")
        by = access.actor_for(request)
        try:
            if action == "accept":
                if not request.user.is_authenticated:
                    return redirect(f"{reverse('login')}?next={request.path}")
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
            error, status = _text(violation), 400
    return render(
        request,
        "scoring/invitation.html",
        {
            "invitation": invitation,
            "club": invitation.club,
            "token": token,
            "error": error,
            "signup_possible": settings.SIGNUP != "closed",
        },
        status=status,
    )


# -- players linked to accounts ---------------------------------------------------------------


@require_POST
@login_required
def claim_player(request, slug: str, player_id: int):
    club = get_object_or_404(Club, slug=slug)
    if selectors.role_of(request.user, club) is None:
        raise Http404
    player = get_object_or_404(Player, club=club, pk=player_id)
    try:
        service.claim_player(player=player, by=access.actor_for(request))
    except RuleViolation as violation:
        messages.error(request, _text(violation))
    except NotAllowed:
        raise PermissionDenied from None
    else:
        messages.success(
            request,
            _("You claimed %(name)s: an organizer of the club will answer.")
            % {"name": player.display_name},
        )
    return redirect("club-players", slug=club.slug)


@login_required
def my_games(request):
    """The games of the players linked to the account, in every club."""
    games = list(
        Game.objects.filter(seats__player__user=request.user)
        .select_related("club")
        .prefetch_related("seats__player")
        .distinct()[:100]
    )
    players = Player.objects.filter(user=request.user).select_related("club")
    return render(request, "scoring/my_games.html", {"games": games, "players": players})
