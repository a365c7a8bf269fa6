"""A club's people beyond their roles: invitations to join, and players claimed by accounts."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models.clubs import Club, Player, Role


class InvitationStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    ACCEPTED = "accepted", _("accepted")
    DECLINED = "declined", _("declined")
    REVOKED = "revoked", _("withdrawn")


class Invitation(models.Model):
    """An invitation to join a club with a role, sent by e-mail or handed over as a link.

    The link's token is random and shown once; only its SHA-256 is stored, so a copy of the
    database opens no club. It serves once (``status`` leaves ``pending``) and expires after
    ``INVITATION_DAYS``. An invitation may name the player the invitee is (linked on accepting).
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    email = models.EmailField(_("e-mail"), blank=True)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="invitations"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    status = models.CharField(
        max_length=16, choices=InvitationStatus.choices, default=InvitationStatus.PENDING
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(role__in=Role.values), name="invitation_role_valid"),
            models.CheckConstraint(
                condition=Q(status__in=InvitationStatus.values), name="invitation_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.email or 'link'} → {self.club} ({self.role})"

    @property
    def expired(self) -> bool:
        return timezone.now() >= self.expires_at


class ClaimStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    APPROVED = "approved", _("approved")
    REJECTED = "rejected", _("rejected")


class PlayerClaim(models.Model):
    """A member says "this player is me"; an owner or organizer approves (the player is then
    linked to the account: "My games", e-mails to entrants) or rejects it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims"
    )
    status = models.CharField(
        max_length=16, choices=ClaimStatus.choices, default=ClaimStatus.PENDING
    )
    created_at = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "user"],
                condition=Q(status="pending"),
                name="player_claim_pending_once",
            ),
            models.CheckConstraint(
                condition=Q(status__in=ClaimStatus.values), name="player_claim_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player} ({self.status})"
