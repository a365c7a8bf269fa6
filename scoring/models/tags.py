"""Player tags: attributes a club gives its players ("Women", "Under 18"), for the categories of
a competition's prize list (``tournaments.models.prizes``). A club names its own tags; a player
holds any number of them. The tags are the club's, never a player's own statement."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from scoring.models.clubs import Club, Player
from scoring.validators import plain_text


class PlayerTag(models.Model):
    """An attribute the club gives some of its players (``players``)."""

    NAME_MAX = 40

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="player_tags")
    name = models.CharField(_("name"), max_length=NAME_MAX, validators=[plain_text])
    # On the tag's side, so that the player's own table keeps its columns.
    players = models.ManyToManyField(
        Player, blank=True, related_name="tags", through="scoring.TaggedPlayer"
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("player tag")
        verbose_name_plural = _("player tags")
        constraints = [
            models.UniqueConstraint(Lower("name"), "club", name="player_tag_unique_in_club"),
            models.CheckConstraint(condition=~Q(name=""), name="player_tag_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class TaggedPlayer(models.Model):
    """A player holding a tag (a row of its own, so that a club's export carries it)."""

    tag = models.ForeignKey(PlayerTag, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tag", "player"], name="tagged_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tag_id} {self.player_id}"
