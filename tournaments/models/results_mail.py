"""What results e-mails were sent: one row per player and round closed (and per reopening of
the round: its "corrected results", ``edition`` 1, 2...), one per player and competition declared
final. Its unique constraints make a retried task, or a round closed twice, send nobody the same
results twice (``tournaments.services.results_mail``
writes the row in the transaction of the sending)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone

from scoring.models import Player
from tournaments.models.competitions import Competition
from tournaments.models.rounds import Round


class ResultsMail(models.Model):
    """A results e-mail sent to ``player``: of ``round`` once it closed, or (no round) the final
    standings of ``competition``."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="results_mails"
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, null=True, blank=True, related_name="results_mails"
    )
    #: 0: the round's results when it first closed; n: the corrected results sent when it
    #: closed again after its n-th reopening (``Round.reopenings``).
    edition = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "round", "edition"],
                condition=Q(round__isnull=False),
                name="results_mail_once_per_round_edition",
            ),
            models.UniqueConstraint(
                fields=["player", "competition"],
                condition=Q(round__isnull=True),
                name="results_mail_final_once",
            ),
        ]

    def __str__(self) -> str:
        return f"results of {self.round or self.competition} to player {self.player_id}"
