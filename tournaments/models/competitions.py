"""A competition: a tournament (a fixed set of rounds) or a league (a season of club nights),
with its kind, format, games, points scheme and calendar, and the facts that follow from them
(two-sided tables, the bracket, the rounds planned, a round's name, the table sizes a game may
use)."""

from __future__ import annotations

import math
from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.models import Club
from scoring.rules import RULESETS
from scoring.validators import any_text, plain_text
from tournaments.labels import SCHEME_LABELS, bracket_round_label
from tournaments.models.entries import EntryStatus
from tournaments.scheduling.double_elimination import double_elimination
from tournaments.scheduling.seats import TableSeats, table_seats
from tournaments.standings import SCHEMES


class Kind(models.TextChoices):
    TOURNAMENT = "tournament", _("tournament")
    LEAGUE = "league", _("league")


class Format(models.TextChoices):
    ROTATION = "rotation", _("rotation (fewest repeat meetings)")
    SWISS = "swiss", _("Swiss (similar standing meets, no repeats)")
    ROUND_ROBIN = "round_robin", _("round robin (two sides, everyone meets everyone)")
    KNOCKOUT = "knockout", _("knockout (two sides, seeded bracket)")
    DOUBLE = "double", _("double elimination (two sides, out after two losses)")
    CLUB_NIGHT = "club_night", _("club nights (tables for those present)")


#: The formats played as a bracket (``Competition.bracket`` of round 1 drives every round).
BRACKET_FORMATS = (Format.KNOCKOUT, Format.DOUBLE)

#: A single-elimination stage's own match lengths, in hands to win (Briscola's
#: ``hands_to_win``), by round of its bracket: the rounds before the semi-finals, the
#: semi-finals (the third-place match with them), the final. Empty: the house rule.
STAGE_LENGTHS = ("early_rounds_hands_to_win", "semi_final_hands_to_win", "final_hands_to_win")
#: The longest match a stage may have (Briscola's own ``hands_to_win`` range).
STAGE_LENGTH_MAX = 10


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
    #: The range of table sizes every draw keeps to (inside each game's own range): a Turkish
    #: evening "at tables of 3 to 6" never seats 7 (``table_policy``).
    min_table_size = models.PositiveSmallIntegerField(
        _("smallest table"), null=True, blank=True, help_text=_("Empty: the game's smallest.")
    )
    max_table_size = models.PositiveSmallIntegerField(
        _("largest table"), null=True, blank=True, help_text=_("Empty: the game's largest.")
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
    early_rounds_hands_to_win = models.PositiveSmallIntegerField(
        _("knockout rounds before the semi-finals"), null=True, blank=True
    )
    semi_final_hands_to_win = models.PositiveSmallIntegerField(
        _("semi-finals and third-place match"), null=True, blank=True
    )
    final_hands_to_win = models.PositiveSmallIntegerField(_("final"), null=True, blank=True)
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
    #: When the beat check last sent the final results mailing again (``services.results_mail``).
    results_requeued_at = models.DateTimeField(null=True, blank=True)

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
                condition=(Q(min_table_size__isnull=True) | Q(min_table_size__gte=2))
                & (Q(max_table_size__isnull=True) | Q(max_table_size__lte=8))
                & (
                    Q(min_table_size__isnull=True)
                    | Q(max_table_size__isnull=True)
                    | Q(min_table_size__lte=F("max_table_size"))
                ),
                name="competition_table_range_valid",
            ),
            *(
                models.CheckConstraint(
                    condition=Q(**{f"{field}__isnull": True})
                    | Q(**{f"{field}__gte": 1, f"{field}__lte": STAGE_LENGTH_MAX}),
                    name=f"competition_{field}_range",
                )
                for field in STAGE_LENGTHS
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

    def stage_length(self, number: int, *, third_place: bool = False) -> int | None:
        """The hands to win a match of round ``number`` when its knockout stage has its own
        length (``STAGE_LENGTHS``; the third-place match is played as the semi-finals), else
        None: the game's house rule. A double elimination keeps the house rule."""
        total = self.knockout_rounds
        index = number - (self.knockout_from or 1)
        if not self.knockout_from or not total or not 0 <= index < total:
            return None
        if index == total - 1 and not third_place:
            return self.final_hands_to_win
        if index >= total - 2:
            return self.semi_final_hands_to_win
        return self.early_rounds_hands_to_win

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

    def table_seats(self, ruleset: str) -> TableSeats:
        """The seats of a table of ``ruleset`` here, decided in one place
        (``tournaments.scheduling.seats.table_seats``: the game's bounds, this competition's
        range, preferred size and format)."""
        return table_seats(
            RULESETS[ruleset],
            smallest=self.min_table_size,
            largest=self.max_table_size,
            preferred=self.table_size,
            two_sided=self.two_sided,
            pairs=self.pairs,
        )

    def table_range(self, ruleset: str) -> tuple[int, ...]:
        """The game's table sizes cut to the competition's smallest and largest table (empty
        when they leave none; the services refuse such a range): ``table_seats``."""
        return self.table_seats(ruleset).range

    def table_policy(self, ruleset: str) -> tuple[tuple[int, ...], int, int]:
        """Allowed table sizes (in competitors), the preferred one, and the table size from
        which the dealer sits out (0: never): ``table_seats``."""
        seats = self.table_seats(ruleset)
        return seats.sizes, seats.ideal, seats.sitting_out

    def game_sizes(self, ruleset: str) -> tuple[int, ...]:
        """How many players a game of ``ruleset`` may have in this competition: ``table_seats``."""
        return self.table_seats(ruleset).players
