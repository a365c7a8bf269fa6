"""Who plays a competition: an entry is a player, or a fixed pair for Briscola pairs."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models import Player


class EntryStatus(models.TextChoices):
    ACTIVE = "active", _("active")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Entry(models.Model):
    """A competitor: a player, or a fixed pair (``partner``) for Briscola pairs."""

    #: The largest seed a PositiveSmallIntegerField holds on every database we support.
    SEED_MAX = 32_767

    # By name: the competition's module reads the entries' statuses (``EntryStatus``).
    competition = models.ForeignKey(
        "tournaments.Competition", on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    partner = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=12, choices=EntryStatus.choices, default=EntryStatus.ACTIVE
    )
    late = models.BooleanField(default=False)
    registered_at = models.DateTimeField(default=timezone.now)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["competition", models.F("seed").asc(nulls_last=True), "id"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="entry_player_once"),
            models.CheckConstraint(
                condition=Q(status__in=EntryStatus.values), name="entry_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(partner=models.F("player")), name="entry_partner_not_self"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.name_of(
            self.player.display_name, self.partner.display_name if self.partner_id else None
        )

    @staticmethod
    def name_of(player: str, partner: str | None) -> str:
        """The name an entry shows: the player's, or a pair's two names."""
        return f"{player} & {partner}" if partner else player

    @property
    def active(self) -> bool:
        return self.status == EntryStatus.ACTIVE
