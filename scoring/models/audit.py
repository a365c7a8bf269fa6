"""The audit trail: an append-only event for every change of a game, a hand or a club's people
(who, when, before, after, why), written in the same transaction as the change. The database
itself refuses to change or delete one (``scoring.permanent``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models.clubs import Club
from scoring.models.games import Game, Via


class AuditAction(models.TextChoices):
    START_GAME = "start_game", _("game started")
    IMPORT_GAME = "import_game", _("game imported")
    RECORD_HAND = "record_hand", _("hand entered")
    CORRECT_HAND = "correct_hand", _("hand corrected")
    REMOVE_HAND = "remove_hand", _("hand removed")
    ACCEPT_HAND = "accept_hand", _("hand accepted")
    REJECT_HAND = "reject_hand", _("hand rejected")
    UNDO_HAND = "undo_hand", _("hand undone")
    ABANDON_GAME = "abandon_game", _("game abandoned")
    RESEAT_GAME = "reseat_game", _("players seated again")
    LOCK_GAME = "lock_game", _("game locked")
    REOPEN_GAME = "reopen_game", _("game reopened")
    ROTATE_TABLE_LINK = "rotate_table_link", _("table link and PIN changed")
    # The club's people (scoring.services.members): ``after`` names who and what.
    CREATE_CLUB = "create_club", _("club created")
    #: The club's own settings (scoring.services.clubs.update_club): ``before``/``after`` hold
    #: the fields that changed.
    UPDATE_CLUB = "update_club", _("club settings changed")
    INVITE = "invite", _("member invited")
    REVOKE_INVITATION = "revoke_invitation", _("invitation withdrawn")
    ACCEPT_INVITATION = "accept_invitation", _("invitation accepted")
    DECLINE_INVITATION = "decline_invitation", _("invitation declined")
    CHANGE_ROLE = "change_role", _("role changed")
    REMOVE_MEMBER = "remove_member", _("member removed")
    CLAIM_PLAYER = "claim_player", _("player claimed")
    APPROVE_CLAIM = "approve_claim", _("claim approved")
    REJECT_CLAIM = "reject_claim", _("claim rejected")
    #: A player's e-mail settings (``scoring.services.players``): ``before``/``after`` hold the
    #: fields that changed; an unsubscribe link opened is one too.
    UPDATE_PLAYER = "update_player", _("player's e-mail settings changed")
    #: Players added from a list or a CSV file: ``after`` names them.
    ADD_PLAYERS = "add_players", _("players added from a list")
    #: A player's tags (scoring.services.tags): ``before``/``after`` hold the names.
    TAG_PLAYER = "tag_player", _("player's tags changed")


class AuditQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError("audit events are append-only")

    def delete(self):
        raise TypeError("audit events are append-only")


class AuditEvent(models.Model):
    """Append-only trail of every create, correction and removal: who, when, before, after, why.
    Written in the same transaction as the change it records."""

    # PROTECT: history is permanent, in the database too (``scoring.permanent``): deleting a
    # club, a game or a user with a trail is refused instead of erasing the trail.
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="audit_events")
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="audit_events"
    )
    #: The hand's number when the event happened (what the players saw then).
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    #: Which hand it was (``Hand.serial``): the hand's history follows it when later hands are
    #: renumbered. None for an event of the whole game, or of a hand whose identity an older
    #: trail did not let the upgrade work out.
    hand_serial = models.PositiveIntegerField(null=True, blank=True)
    action = models.CharField(max_length=32, choices=AuditAction.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    via = models.CharField(max_length=8, choices=Via.choices, default=Via.PAGE)
    at = models.DateTimeField(default=timezone.now)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["at", "id"]
        indexes = [
            models.Index(fields=["game", "hand_serial"], name="audit_game_hand_serial"),
            # The nightly check_games reads the games changed since yesterday by it.
            models.Index(fields=["at"], name="audit_at"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise TypeError("audit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("audit events are append-only")

    @property
    def actor_label(self) -> str:
        if self.actor is not None:
            return self.actor.get_full_name() or self.actor.get_username()
        return str(Via(self.via).label) if self.via in Via.values else self.via
