"""A competition's prize list: by rank, overall or in a category (``Prize``), and the club's rules
for shared ranks and for an entry eligible for two prizes (``PrizeRules``). Who wins what is
worked out, never stored: ``tournaments.standings.prizes`` from the standings and the players'
tags (``tournaments.selectors.prizes.awarded``).

A prize's category is ``overall``, ``newcomer`` (no earlier entry in the club) or ``tag`` with
its ``scoring.PlayerTag`` (a row, so that a club's export carries it); the pages and the API
name it by its ``key``: ``overall``, ``newcomer``, ``tag:<id>``.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.models import PlayerTag
from scoring.validators import plain_text
from tournaments.models.competitions import Competition
from tournaments.models.fees import FEE_MAX_CENTS

#: The most prizes of one category, and the largest money prize (cents).
PRIZE_RANK_MAX = 100
PRIZE_MAX_CENTS = FEE_MAX_CENTS * 100

OVERALL = "overall"
NEWCOMER = "newcomer"
TAG = "tag"


class Ties(models.TextChoices):
    SPLIT = "split", _("split equally between the tied entries")
    TIE_BREAK = "tie_break", _("the higher prize to the better tie-break")


class PrizeRules(models.Model):
    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="prize_rules"
    )
    ties = models.CharField(
        _("entries tied on points"), max_length=10, choices=Ties.choices, default=Ties.SPLIT
    )
    both = models.BooleanField(
        _("an entry may win an overall prize and a category prize"), default=False
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(ties__in=Ties.values), name="prize_ties_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.competition} · {self.ties}"


class Prize(models.Model):
    """The prize for ``rank`` of a category: money (``amount_cents``) or an object."""

    OBJECT_MAX = 120

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="prizes")
    category = models.CharField(max_length=12, default=OVERALL)
    tag = models.ForeignKey(
        PlayerTag, on_delete=models.CASCADE, null=True, blank=True, related_name="prizes"
    )
    rank = models.PositiveSmallIntegerField(_("rank"))
    amount_cents = models.PositiveIntegerField(_("money"), null=True, blank=True)
    object = models.CharField(
        _("object"), max_length=OBJECT_MAX, blank=True, validators=[plain_text]
    )

    class Meta:
        ordering = ["competition", "category", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "category", "rank"],
                condition=Q(tag__isnull=True),
                name="prize_rank_once",
            ),
            models.UniqueConstraint(
                fields=["competition", "tag", "rank"],
                condition=Q(tag__isnull=False),
                name="prize_rank_once_per_tag",
            ),
            models.CheckConstraint(
                condition=(Q(category__in=[OVERALL, NEWCOMER]) & Q(tag__isnull=True))
                | (Q(category=TAG) & Q(tag__isnull=False)),
                name="prize_category_valid",
            ),
            models.CheckConstraint(
                condition=Q(rank__gte=1) & Q(rank__lte=PRIZE_RANK_MAX), name="prize_rank_range"
            ),
            models.CheckConstraint(
                condition=(Q(amount_cents__isnull=False) & Q(object=""))
                | (Q(amount_cents__isnull=True) & ~Q(object="")),
                name="prize_money_or_object",
            ),
            models.CheckConstraint(
                condition=Q(amount_cents__isnull=True) | Q(amount_cents__lte=PRIZE_MAX_CENTS),
                name="prize_amount_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} {self.rank}"

    @property
    def key(self) -> str:
        """The category as the pages and the API name it: ``overall``, ``newcomer``,
        ``tag:<id>``."""
        return f"{TAG}:{self.tag_id}" if self.tag_id else self.category
