"""Competitions of a club: tournaments (a fixed set of rounds) and leagues (a season of club
nights), their entries, rounds, tables and the games played there.

Standings are never stored by hand: ``tournaments.selectors`` recomputes them from the games
(through the pure ``tournaments.standings``); ``StandingsSnapshot`` only caches the last result
so the public page and the projector are cheap to poll.
"""

from __future__ import annotations

import math
from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.models import Club, Game, Player
from scoring.rules import RULESETS
from scoring.validators import any_text, plain_text
from tournaments.labels import SCHEME_LABELS, bracket_round_label
from tournaments.scheduling.double_elimination import double_elimination
from tournaments.standings import SCHEMES


class Kind(models.TextChoices):
    TOURNAMENT = "tournament", _("tournament")
    LEAGUE = "league", _("league")


class Format(models.TextChoices):
    ROTATION = "rotation", _("rotation (tables of 3 to 6, fewest repeat meetings)")
    SWISS = "swiss", _("Swiss (similar standing meets, no repeats)")
    ROUND_ROBIN = "round_robin", _("round robin (two sides, everyone meets everyone)")
    KNOCKOUT = "knockout", _("knockout (two sides, seeded bracket)")
    DOUBLE = "double", _("double elimination (two sides, out after two losses)")
    CLUB_NIGHT = "club_night", _("club nights (tables for those present)")


#: The formats played as a bracket (``Competition.bracket`` of round 1 drives every round).
BRACKET_FORMATS = (Format.KNOCKOUT, Format.DOUBLE)


class RepeatObjective(models.TextChoices):
    """What the rotation draw minimises when some repeated meetings cannot be avoided."""

    SPREAD = "spread", _("spread them: the fewest meetings for any one pair")
    FEWEST = "fewest", _("fewest repeats in all")


class Competition(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="competitions")
    name = models.CharField(_("name"), max_length=120, validators=[plain_text])
    slug = models.SlugField(_("short name in addresses"), max_length=60)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.TOURNAMENT)
    #: The rulesets played, in order; a league may mix them (a standings table per ruleset).
    rulesets = models.JSONField(_("games"), default=list)
    #: Resolved house rules per ruleset: {"terziglio": {...}, ...}.
    options = models.JSONField(_("house rules"), default=dict)
    format = models.CharField(
        _("format"), max_length=16, choices=Format.choices, default=Format.ROTATION
    )
    table_size = models.PositiveSmallIntegerField(
        _("preferred table size"),
        null=True,
        blank=True,
        help_text=_("Empty: the game's ideal size."),
    )
    planned_rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    double_round = models.BooleanField(_("double round robin"), default=False)
    #: Rotation: when repeats are unavoidable, spread them over many pairs or keep them fewest.
    repeat_objective = models.CharField(
        _("unavoidable repeats"),
        max_length=8,
        choices=RepeatObjective.choices,
        default=RepeatObjective.SPREAD,
    )
    third_place = models.BooleanField(_("third-place match"), default=False)
    #: Swiss: after ``planned_rounds`` Swiss rounds, a seeded knockout of the top ``cut_to``.
    cut_to = models.PositiveSmallIntegerField(
        _("then a knockout of the top"),
        null=True,
        blank=True,
        help_text=_(
            "Swiss only: after the planned Swiss rounds, the best of the standings play a "
            "seeded knockout. Empty: the Swiss standings are final."
        ),
    )
    bracket_reset = models.BooleanField(
        _("bracket reset"),
        default=True,
        help_text=_(
            "Double elimination: if the losers' bracket champion wins the grand final, both "
            "finalists have lost once, and a second grand final decides."
        ),
    )
    scheme = models.CharField(
        _("points"),
        max_length=16,
        choices=[(k, SCHEME_LABELS[k]) for k in SCHEMES],
        default="fair_placement",
    )
    placement_points = models.JSONField(_("placement points per table size"), null=True, blank=True)
    tie_breaks = models.JSONField(_("tie-breaks, in order"), default=list)
    best_of = models.PositiveSmallIntegerField(_("count the best N nights"), null=True, blank=True)
    min_rounds = models.PositiveSmallIntegerField(_("minimum attendance to be ranked"), default=0)
    start_date = models.DateField(_("first day"), null=True, blank=True)
    end_date = models.DateField(_("last day"), null=True, blank=True)
    public = models.BooleanField(
        _("public"), default=True, help_text=_("Anyone may follow it online.")
    )
    notify_entrants = models.BooleanField(
        _("e-mail entrants when a round is published"), default=False
    )
    #: Confirmation by the table for every game of the competition (``Game.hands_need_acceptance``):
    #: a table counts as finished, in the standings and to close its round, once every hand of
    #: its game is accepted.
    hands_must_be_accepted = models.BooleanField(
        _("each hand must be accepted by a player of another side"), default=False
    )
    description = models.TextField(_("description"), blank=True, validators=[any_text])
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    #: Set once an organizer declares the results final (``services.finalize_competition``):
    #: no write of the competition or of its games is accepted until it is reopened.
    finalized_at = models.DateTimeField(null=True, blank=True)
    finalized_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-start_date", "-created_at"]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "slug"], name="competition_slug_unique_in_club"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=Kind.values), name="competition_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(format__in=Format.values), name="competition_format_valid"
            ),
            models.CheckConstraint(
                condition=Q(table_size__isnull=True) | Q(table_size__gte=2, table_size__lte=8),
                name="competition_table_size_range",
            ),
            models.CheckConstraint(
                condition=Q(repeat_objective__in=RepeatObjective.values),
                name="competition_repeat_objective_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def two_sided(self) -> bool:
        return self.format in (Format.ROUND_ROBIN, *BRACKET_FORMATS)

    @property
    def bracket_format(self) -> bool:
        return self.format in BRACKET_FORMATS

    @property
    def knockout_from(self) -> int | None:
        """The number of the first round played as a bracket: 1 for a knockout, the round after
        the planned Swiss rounds for a Swiss cut to a knockout, ``None`` without a bracket."""
        if self.bracket_format:
            return 1
        if self.format == Format.SWISS and self.cut_to and self.planned_rounds:
            return self.planned_rounds + 1
        return None

    def bracket_round(self, number: int) -> bool:
        """Whether round ``number`` is played as part of the bracket."""
        start = self.knockout_from
        return start is not None and number >= start

    @cached_property
    def knockout_rounds(self) -> int:
        """The rounds of a single-elimination bracket (0 without one): the drawn bracket's, or
        the one the active entries (a Swiss: the cut) will make."""
        start = self.knockout_from
        if start is None or self.format == Format.DOUBLE:
            return 0
        first = (
            self.rounds.filter(number__gte=start, bracket__isnull=False)
            .order_by("number")
            .only("bracket")
            .first()
        )
        if first is not None:
            return len(first.bracket["rounds"])
        if self.format == Format.SWISS:
            size = self.cut_to or 0
        else:
            size = self.entries.filter(status=EntryStatus.ACTIVE).count()
        return math.ceil(math.log2(size)) if size >= 2 else 0

    @property
    def planned_total(self) -> int:
        """Every round the competition plans: a Swiss cut adds its knockout rounds, a knockout
        has as many rounds as its bracket."""
        if self.format == Format.SWISS and self.knockout_from:
            return (self.planned_rounds or 0) + self.knockout_rounds
        if self.format == Format.KNOCKOUT:
            return max(self.planned_rounds or 0, self.knockout_rounds)
        if self.format == Format.DOUBLE:
            return max(self.planned_rounds or 0, self.double_stages)
        return self.planned_rounds or 0

    @cached_property
    def double_stages(self) -> int:
        """A double elimination's rounds, the bracket reset left out (played only if needed):
        the drawn bracket's, or the one the active entries will make."""
        first = self.rounds.filter(bracket__isnull=False).order_by("number").only("bracket").first()
        if first is not None:
            stages = len(first.bracket["rounds"])
            return stages - 1 if self.bracket_reset else stages
        size = self.entries.filter(status=EntryStatus.ACTIVE).count()
        if size < 2:
            return 0
        return len(double_elimination(range(size), reset=False).rounds)

    def round_label(self, number: int) -> str:
        """Round ``number``'s name in the reader's language, one word per kind of competition: a
        league meets on nights ("Night 3"), a tournament plays rounds ("Round 3"); a knockout
        round adds its name ("Round 4 · Semi-finals")."""
        if self.kind == Kind.LEAGUE:
            label = gettext("Night %(n)s") % {"n": number}
        else:
            label = gettext("Round %(n)s") % {"n": number}
        total = self.knockout_rounds
        index = number - (self.knockout_from or 1)
        if total and 0 <= index < total:
            label = f"{label} · {bracket_round_label(index, total)}"
        return label

    @property
    def pairs(self) -> bool:
        """Entries are fixed pairs (Briscola pairs)."""
        return (
            self.rulesets == ["briscola"]
            and self.options.get("briscola", {}).get("format") == "pairs"
        )

    def table_policy(self, ruleset: str) -> tuple[tuple[int, ...], int, int]:
        """Allowed table sizes (in competitors) for a game of ``ruleset``, the preferred one, and
        the table size from which the dealer sits out (0: never). Two-sided formats always seat
        two competitors."""
        rules = RULESETS[ruleset]
        sitting_out = min(rules.dealer_sits_out_with) if rules.dealer_sits_out_with else 0
        if self.two_sided or self.pairs:
            return (2,), 2, 0
        sizes = tuple(range(rules.min_seats, rules.max_seats + 1))
        ideal = self.table_size if self.table_size in sizes else rules.ideal_seats
        return sizes, ideal, sitting_out

    def game_sizes(self, ruleset: str) -> tuple[int, ...]:
        """How many players a game of ``ruleset`` may have in this competition."""
        if self.pairs:
            return (4,)
        sizes, _ideal, _sitting_out = self.table_policy(ruleset)
        return sizes


class EntryStatus(models.TextChoices):
    ACTIVE = "active", _("active")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Entry(models.Model):
    """A competitor: a player, or a fixed pair (``partner``) for Briscola pairs."""

    #: The largest seed a PositiveSmallIntegerField holds on every database we support.
    SEED_MAX = 32_767

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entries")
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
    #: The round timer on the projector: running while ``timer_started_at`` is set (it ends
    #: ``timer_remaining`` seconds after it); paused with only ``timer_remaining`` kept; not
    #: started with neither (the round's expected duration).
    timer_started_at = models.DateTimeField(null=True, blank=True)
    timer_remaining = models.PositiveIntegerField(null=True, blank=True)
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


class Adjustment(models.Model):
    """Points given or taken by the organizer (a forfeit, a penalty), with a reason."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="adjustments"
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, null=True, blank=True, related_name="adjustments"
    )
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="adjustments")
    points = models.DecimalField(max_digits=8, decimal_places=2)
    reason = models.TextField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.entry} {self.points:+}"


class CompetitionEvent(models.Model):
    """Append-only trail of the organizer's changes: who, when, what, why."""

    # PROTECT: history is permanent, in the database too (``scoring.permanent``).
    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="events")
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=32)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    data = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise TypeError("competition events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("competition events are append-only")


class StandingsSnapshot(models.Model):
    """The last computed standings of a competition (a cache; recomputed from the games)."""

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="snapshot"
    )
    data = models.JSONField()
    version = models.PositiveIntegerField(default=1)
    computed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"standings of {self.competition} v{self.version}"
