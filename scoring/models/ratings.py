"""Ratings derived from the finished games (``scoring.services.ratings`` alone writes them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.labels import RULESET_CHOICES
from scoring.models.clubs import Club, Player
from scoring.models.games import Game


class Rating(models.Model):
    """A player's OpenSkill rating in one game of his club (``ruleset``), or club-wide
    (``ruleset`` empty). Derived from the finished games by ``scoring.services.ratings``, which
    alone writes it; ``ordinal`` (mu − 3 sigma) is stored to rank by it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    # NULL, not "", is the club-wide rating: the unique constraints below tell the two apart.
    ruleset = models.CharField(  # noqa: DJ001
        _("game"), max_length=32, choices=RULESET_CHOICES, null=True, blank=True
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-ordinal", "-games", "player_id"]
        indexes = [models.Index(fields=["club", "ruleset", "-ordinal"], name="rating_board")]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "ruleset"],
                condition=Q(ruleset__isnull=False),
                name="rating_once_per_player_game",
            ),
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(ruleset__isnull=True),
                name="rating_once_per_player_club",
            ),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} · {self.ruleset or 'club'} · {self.ordinal:.2f}"

    @property
    def provisional(self) -> bool:
        return self.games < settings.RATING_PROVISIONAL_GAMES


class RatingStep(models.Model):
    """A player's ratings right after one finished game: in its game and club-wide (the points
    of the rating chart; the game gives the moment and the ruleset). Rewritten with the ratings,
    in as few rows and columns as a full recompute of a big club can write quickly."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_steps")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_steps")
    mu = models.FloatField()
    sigma = models.FloatField()
    club_mu = models.FloatField()
    club_sigma = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_step_once_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.player} after game {self.game_id}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def club_ordinal(self) -> float:
        return self.club_mu - 3 * self.club_sigma
