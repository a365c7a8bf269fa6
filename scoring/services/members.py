"""A club's people: invitations, roles, removals, players linked to accounts.

The rules every function here keeps:

- owners and organizers (``MANAGERS``) invite, change roles, remove members and answer claims;
- only an owner makes or unmakes an owner (invites one, promotes to or demotes from owner,
  removes one); anyone may leave a club;
- a club always keeps an owner: the last one can be neither demoted nor removed. Two managers
  may race (each removing one of the last two owners), so every function that changes roles
  first locks all the club's membership rows (PostgreSQL ``SELECT … FOR NO KEY UPDATE``; on SQLite
  the IMMEDIATE transaction serialises writers) and only then counts the owners;
- an invitation's token is random, shown once (in the e-mail or to the manager who asked for
  a link) and stored as its SHA-256; it serves once and expires after ``INVITATION_DAYS``;
- a user is linked to at most one player of a club, a player to at most one user.

Each function is one transaction that appends an ``AuditEvent`` on the club (who, what, the
role before and after); e-mails leave after the commit. Refusals the user can act on raise
``RuleViolation`` (shown next to the field), a caller without the right role ``NotAllowed``.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from scoring.links import site_url
from scoring.models import (
    MANAGERS,
    READERS,
    AuditAction,
    ClaimStatus,
    Club,
    Invitation,
    InvitationStatus,
    Membership,
    Player,
    PlayerClaim,
    Role,
)
from scoring.services import audit
from scoring.services.actors import Actor, NotAllowed, violation

#: The longest e-mail address an invitation keeps (RFC 5321's limit, the column's width).
EMAIL_MAX = 254
#: A higher role includes what the lower ones may do (an invitation never lowers a role).
RANK = {Role.MEMBER: 0, Role.SCORER: 1, Role.ORGANIZER: 2, Role.OWNER: 3}


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def username_of(user) -> str | None:
    return None if user is None else user.get_username()


def _audit(club: Club, action: str, by: Actor, *, before=None, after=None) -> None:
    audit.record(by, action, club_id=club.pk, before=before, after=after)


def _locked_members(club: Club) -> dict[int, Membership]:
    """Every membership of the club, locked until the transaction ends, by user id."""
    rows = Membership.objects.select_for_update(no_key=True).filter(club=club).order_by("pk")
    return {m.user_id: m for m in rows}


def _role_of(by: Actor, members: dict[int, Membership]) -> str | None:
    if by.trusted:
        return Role.OWNER
    member = members.get(getattr(by.user, "pk", None))
    return None if member is None else member.role


def _owners(members: dict[int, Membership]) -> int:
    return sum(1 for m in members.values() if m.role == Role.OWNER)


def _check_role(role: str) -> None:
    if role not in Role.values:
        raise violation("role", "choice", choices=Role.values, value=role)


# -- invitations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Invited:
    invitation: Invitation
    #: The secret of the link, never stored: shown once, or sent by e-mail.
    token: str
    #: The one-time link, on the address of the request that asked for it (``scoring.links``).
    url: str


def invitation_url(token: str, request=None) -> str:
    """The link of an invitation: ``SITE_URL`` when set, else the address ``request`` came in
    on (a laptop on the club's Wi-Fi hands out the address the phones open), else the default."""
    return site_url(request, reverse("invitation", args=[token]))


def invite(
    *,
    club: Club,
    by: Actor,
    role: str,
    email: str = "",
    player: Player | None = None,
    request=None,
) -> Invited:
    """An invitation with ``role`` (and, if given, the player the invitee is), e-mailed to
    ``email`` after the commit, or handed over as a link when there is no address. The link
    is on the address of ``request``, the request that asked (``scoring.links.site_url``)."""
    email = (email or "").strip()
    with transaction.atomic():
        members = _locked_members(club)
        mine = _role_of(by, members)
        if mine not in MANAGERS:
            raise NotAllowed()
        _check_role(role)
        if role == Role.OWNER and mine != Role.OWNER:
            raise violation("role", "not_allowed", reason="owner_only")
        if len(email) > EMAIL_MAX:
            raise violation("email", "too_long", max=EMAIL_MAX, value=len(email))
        if email:
            try:
                validate_email(email)
            except ValidationError:
                raise violation("email", "invalid", value=email) from None
            if Membership.objects.filter(club=club, user__email__iexact=email).exists():
                raise violation("email", "duplicate", reason="already_member", value=email)
        if player is not None:
            player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
            if player.club_id != club.pk:
                raise violation("player", "not_found", value=player.display_name)
            if player.user_id is not None:
                raise violation(
                    "player", "not_allowed", reason="player_linked", value=player.display_name
                )
        token = secrets.token_urlsafe(32)
        now = timezone.now()
        invitation = Invitation.objects.create(
            club=club,
            role=role,
            email=email,
            player=player,
            token_hash=hash_token(token),
            created_by=by.user,
            created_at=now,
            expires_at=now + timedelta(days=settings.INVITATION_DAYS),
        )
        _audit(
            club,
            AuditAction.INVITE,
            by,
            after={
                "invitation": invitation.pk,
                "email": email,
                "role": role,
                "player": player.display_name if player else None,
            },
        )
        if email:
            transaction.on_commit(lambda: send_invitation(invitation, token, request=request))
    return Invited(invitation, token, invitation_url(token, request))


def send_invitation(invitation: Invitation, token: str, *, request=None) -> None:
    club = invitation.club
    inviter = invitation.created_by
    with translation.override(club.language):
        params = {
            "club": club.name,
            "inviter": (inviter.get_full_name() or inviter.get_username())
            if inviter
            else club.name,
            "role": Role(invitation.role).label,
            "url": invitation_url(token, request),
            "days": settings.INVITATION_DAYS,
        }
        body = _("%(inviter)s invites you to join %(club)s on Segnapunti as %(role)s.") % params
        if invitation.player is not None:
            body += " " + _("In the club's games you are the player %(player)s.") % {
                "player": invitation.player.display_name
            }
        body += "\n\n" + _("Accept or decline: %(url)s") % params
        body += "\n\n" + _("The link works once, for %(days)s days.") % params + "\n"
        subject = _("Invitation to %(club)s") % params
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [invitation.email])


def find_invitation(token: str) -> Invitation | None:
    """The invitation of a link (whatever its state), or None. One query."""
    return (
        Invitation.objects.select_related("club", "player", "created_by")
        .filter(token_hash=hash_token(token or ""))
        .first()
    )


def refusal(invitation: Invitation | None):
    """Why the invitation cannot be answered (a RuleViolation), or None while it can."""
    if invitation is None:
        return violation("token", "not_found", reason="invitation")
    if invitation.status != InvitationStatus.PENDING:
        return violation("token", "not_allowed", reason=f"invitation_{invitation.status}")
    if invitation.expired:
        return violation("token", "not_allowed", reason="invitation_expired")
    return None


def _pending(token: str) -> Invitation:
    invitation = (
        Invitation.objects.select_for_update(no_key=True, of=("self",))
        .select_related("club", "player", "created_by")
        .filter(token_hash=hash_token(token or ""))
        .first()
    )
    problem = refusal(invitation)
    if problem is not None:
        raise problem
    return invitation


def accept_invitation(*, token: str, by: Actor) -> Membership:
    """``by.user`` joins the club with the invitation's role (a member already in the club
    keeps a higher role) and is linked to the invitation's player, if any."""
    if by.user is None:
        raise NotAllowed()
    user = by.user
    with transaction.atomic():
        invitation = _pending(token)
        club = invitation.club
        members = _locked_members(club)
        player = None
        if invitation.player_id is not None:
            player = Player.objects.select_for_update(no_key=True).get(pk=invitation.player_id)
            if player.user_id not in (None, user.pk):
                raise violation(
                    "player", "not_allowed", reason="player_linked", value=player.display_name
                )
            _check_no_other_player(club, user, player)
        membership = members.get(user.pk)
        before = None if membership is None else membership.role
        if membership is None:
            membership = Membership.objects.create(club=club, user=user, role=invitation.role)
        elif RANK[invitation.role] > RANK[membership.role]:
            membership.role = invitation.role
            membership.save(update_fields=["role"])
        if player is not None and player.user_id is None:
            player.user = user
            player.save(update_fields=["user"])
        Invitation.objects.filter(pk=invitation.pk).update(
            status=InvitationStatus.ACCEPTED, answered_by=user, answered_at=timezone.now()
        )
        _audit(
            club,
            AuditAction.ACCEPT_INVITATION,
            by,
            before=None if before is None else {"user": user.get_username(), "role": before},
            after={
                "invitation": invitation.pk,
                "user": user.get_username(),
                "role": membership.role,
                "invited_by": username_of(invitation.created_by),
                "player": player.display_name if player else None,
            },
        )
    return membership


def _close(invitation: Invitation, status: str, by: Actor) -> None:
    """The invitation answered (declined, withdrawn): it no longer opens the club."""
    invitation.status = status
    invitation.answered_by = by.user
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_by", "answered_at"])


def decline_invitation(*, token: str, by: Actor) -> Invitation:
    with transaction.atomic():
        invitation = _pending(token)
        _close(invitation, InvitationStatus.DECLINED, by)
        _audit(
            invitation.club,
            AuditAction.DECLINE_INVITATION,
            by,
            after={
                "invitation": invitation.pk,
                "email": invitation.email,
                "user": username_of(by.user),
                "invited_by": username_of(invitation.created_by),
            },
        )
    return invitation


def revoke_invitation(*, invitation: Invitation, by: Actor) -> None:
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update(no_key=True).get(pk=invitation.pk)
        members = _locked_members(invitation.club)
        mine = _role_of(by, members)
        if mine not in MANAGERS:
            raise NotAllowed()
        if invitation.role == Role.OWNER and mine != Role.OWNER:
            raise violation("role", "not_allowed", reason="owner_only")
        if invitation.status != InvitationStatus.PENDING:
            raise violation("token", "not_allowed", reason=f"invitation_{invitation.status}")
        _close(invitation, InvitationStatus.REVOKED, by)
        _audit(
            invitation.club,
            AuditAction.REVOKE_INVITATION,
            by,
            after={"invitation": invitation.pk, "email": invitation.email, "role": invitation.role},
        )


# -- roles and removals -----------------------------------------------------------------------


def _target(members: dict[int, Membership], user) -> Membership:
    membership = members.get(getattr(user, "pk", user))
    if membership is None:
        raise violation("member", "not_found", reason="member")
    return membership


def change_role(*, club: Club, user, role: str, by: Actor) -> Membership:
    """Give ``user`` (a member of ``club``) the ``role``."""
    with transaction.atomic():
        members = _locked_members(club)
        mine = _role_of(by, members)
        if mine not in MANAGERS:
            raise NotAllowed()
        _check_role(role)
        membership = _target(members, user)
        before = membership.role
        if before == role:
            return membership
        if Role.OWNER in (before, role) and mine != Role.OWNER:
            raise violation("role", "not_allowed", reason="owner_only")
        if before == Role.OWNER and _owners(members) == 1:
            raise violation("role", "not_allowed", reason="last_owner")
        membership.role = role
        membership.save(update_fields=["role"])
        name = membership.user.get_username()
        _audit(
            club,
            AuditAction.CHANGE_ROLE,
            by,
            before={"user": name, "role": before},
            after={"user": name, "role": role},
        )
    return membership


def remove_member(*, club: Club, user, by: Actor) -> None:
    """``user`` leaves ``club`` (removed by a manager, or leaving of their own accord). Their
    players stay linked to them: their past games remain theirs."""
    with transaction.atomic():
        members = _locked_members(club)
        mine = _role_of(by, members)
        membership = _target(members, user)
        itself = not by.trusted and membership.user_id == getattr(by.user, "pk", None)
        if not itself and mine not in MANAGERS:
            raise NotAllowed()
        if membership.role == Role.OWNER and not itself and mine != Role.OWNER:
            raise violation("role", "not_allowed", reason="owner_only")
        if membership.role == Role.OWNER and _owners(members) == 1:
            raise violation("role", "not_allowed", reason="last_owner")
        name = membership.user.get_username()
        membership.delete()
        _audit(
            club,
            AuditAction.REMOVE_MEMBER,
            by,
            before={"user": name, "role": membership.role},
        )


# -- players linked to accounts ---------------------------------------------------------------


def _member_role(club: Club, user) -> str | None:
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def _check_no_other_player(club: Club, user, player: Player) -> None:
    other = Player.objects.filter(club=club, user=user).exclude(pk=player.pk).first()
    if other is not None:
        raise violation(
            "player", "not_allowed", reason="already_has_player", value=other.display_name
        )


def claim_player(*, player: Player, by: Actor) -> PlayerClaim:
    """``by.user``, a member of the player's club, says the player is them; a manager answers."""
    if by.user is None:
        raise NotAllowed()
    with transaction.atomic():
        player = (
            Player.objects.select_for_update(no_key=True, of=("self",))
            .select_related("club")
            .get(pk=player.pk)
        )
        club = player.club
        if _member_role(club, by.user) not in READERS:
            raise NotAllowed()
        if player.user_id is not None:
            raise violation(
                "player", "not_allowed", reason="player_linked", value=player.display_name
            )
        _check_no_other_player(club, by.user, player)
        if PlayerClaim.objects.filter(
            player=player, user=by.user, status=ClaimStatus.PENDING
        ).exists():
            raise violation(
                "player", "duplicate", reason="claim_pending", value=player.display_name
            )
        claim = PlayerClaim.objects.create(player=player, user=by.user)
        _audit(
            club,
            AuditAction.CLAIM_PLAYER,
            by,
            after={"claim": claim.pk, "player": player.display_name, "user": username_of(by.user)},
        )
    return claim


def decide_claim(*, claim: PlayerClaim, approve: bool, by: Actor) -> PlayerClaim:
    """Approve (the player is linked to the claimant) or reject a pending claim. Its maker may
    reject it (withdraw it) but not approve it: another manager of the club does."""
    with transaction.atomic():
        claim = (
            PlayerClaim.objects.select_for_update(no_key=True, of=("self",))
            .select_related("user")
            .get(pk=claim.pk)
        )
        player = (
            Player.objects.select_for_update(no_key=True, of=("self",))
            .select_related("club")
            .get(pk=claim.player_id)
        )
        club = player.club
        if not by.trusted and _member_role(club, by.user) not in MANAGERS:
            raise NotAllowed()
        if claim.status != ClaimStatus.PENDING:
            raise violation("player", "not_allowed", reason="claim_decided")
        if approve and by.user is not None and claim.user_id == by.user.pk:
            # Another manager vouches for who the claimant is; withdrawing one's own is fine.
            raise violation("player", "not_allowed", reason="own_claim")
        if approve:
            if player.user_id is not None:
                raise violation(
                    "player", "not_allowed", reason="player_linked", value=player.display_name
                )
            _check_no_other_player(club, claim.user, player)
            player.user = claim.user
            player.save(update_fields=["user"])
        claim.status = ClaimStatus.APPROVED if approve else ClaimStatus.REJECTED
        claim.decided_by = by.user
        claim.decided_at = timezone.now()
        claim.save(update_fields=["status", "decided_by", "decided_at"])
        _audit(
            club,
            AuditAction.APPROVE_CLAIM if approve else AuditAction.REJECT_CLAIM,
            by,
            after={
                "claim": claim.pk,
                "player": player.display_name,
                "user": claim.user.get_username(),
            },
        )
    return claim
