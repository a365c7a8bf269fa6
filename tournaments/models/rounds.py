"""A round (a night of a league) and its draw: who checked in, the tables and their seats in
dealing order, and the byes."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models import Game
from tournaments.models.competitions import Competition
from tournaments.models.entries import Entry


class RoundStatus(models.TextChoices):
    DRAFT = "draft", _("draft")
    PUBLISHED = "published", _("published")
    CLOSED = "closed", _("closed")


class LiveRounds(models.Manager):
    """The rounds that exist for the competition: a deleted draft round (``deleted_at``) is kept
    for the audit trail that names it, and is nowhere else (schedule, draw, iCal feed...)."""

    def get_queryset(self):
        return super().get_queryset().filter(deleted_at__isnull=True)


class Round(models.Model):
    """A round of a tournament or a night of a league."""

    #: The largest draw seed a PositiveIntegerField holds on every database we support.
    SEED_MAX = 2_147_483_647

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    ruleset = models.CharField(_("game"), max_length=32)
    date = models.DateField(_("date"), null=True, blank=True)
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    duration_minutes = models.PositiveSmallIntegerField(
        _("expected duration (minutes)"), default=90
    )
    status = models.CharField(max_length=12, choices=RoundStatus.choices, default=RoundStatus.DRAFT)
    #: How the tables were drawn, and the quality figures of the draw (shown to the organizer).
    method = models.CharField(max_length=16, blank=True)
    seed = models.PositiveIntegerField(default=0)
    metrics = models.JSONField(default=dict, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    #: How many times an organizer reopened the round after it closed
    #: (``services.reopen_round``): the edition of the "corrected results" e-mail a close sends.
    reopenings = models.PositiveSmallIntegerField(default=0)
    #: When the beat check last sent the results mailing again (``services.results_mail``).
    results_requeued_at = models.DateTimeField(null=True, blank=True)
    #: The round timer on the projector: running while ``timer_started_at`` is set (it ends
    #: ``timer_remaining`` seconds after it); paused with only ``timer_remaining`` kept; not
    #: started with neither (the round's expected duration).
    timer_started_at = models.DateTimeField(null=True, blank=True)
    timer_remaining = models.PositiveIntegerField(null=True, blank=True)
    #: The "last hand" warning on the tables' clocks, this many minutes before the end (none
    #: when empty).
    last_hand_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Knockout: the bracket slots of this round's matches, as generated.
    bracket = models.JSONField(null=True, blank=True)
    #: Why the last background draw was refused, until a draw succeeds: ``{"at", "by",
    #: "by_name", "problems": [{"field", "code", "params"}]}`` (``services.record_draw_refusal``).
    draw_problem = models.JSONField(null=True, blank=True)
    #: Set when the organizer deleted this draft round (``services.delete_round``): the row stays
    #: because the competition's permanent events name it; every other read skips it.
    deleted_at = models.DateTimeField(null=True, blank=True)

    #: Deleted rounds too (the audit trail's view).
    with_deleted = models.Manager()
    objects = LiveRounds()

    class Meta:
        ordering = ["competition", "number"]
        base_manager_name = "with_deleted"
        default_manager_name = "objects"
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "number"],
                condition=Q(deleted_at__isnull=True),
                name="round_number_unique",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(status__in=RoundStatus.values), name="round_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.competition} · {self.number}"

    @property
    def label(self) -> str:
        """The round's name in the reader's language (``Competition.round_label``)."""
        return self.competition.round_label(self.number)

    def timer_left(self, now) -> int:
        """Seconds left on the round timer at ``now`` (never below 0)."""
        full = self.duration_minutes * 60
        left = full if self.timer_remaining is None else self.timer_remaining
        if self.timer_started_at is not None:
            left -= int((now - self.timer_started_at).total_seconds())
        return max(0, left)


class CheckIn(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="check_ins")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="check_ins")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "entry"], name="check_in_once")]

    def __str__(self) -> str:
        return f"{self.entry} @ {self.round}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="competition_table"
    )
    forfeited = models.BooleanField(default=False)
    forfeit_reason = models.TextField(blank=True)
    #: Extra time the director gave this table (seconds on top of the round's timer).
    extra_seconds = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.round} · table {self.number}"


class TableSeat(models.Model):
    """An entry at a table, in dealing order (pairs: each pair's two players take positions
    ``2k`` apart when the game is created)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="table_seats")

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position"], name="table_seat_position_unique"
            ),
            models.UniqueConstraint(fields=["table", "entry"], name="table_seat_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.position}: {self.entry}"


class Bye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="byes")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="bye_once_per_round")
        ]

    def __str__(self) -> str:
        return f"bye: {self.entry} @ {self.round}"
