"""Circuits: a season of competitions, of one club or of several, ranked together
(``docs/circuits.md``).

A ``Circuit`` belongs to its organizing club, whose owners and organizers run it. Another club
takes part once its owner or an organizer accepts the circuit's invitation (``CircuitClub``);
its managers then add their own competitions (``CircuitCompetition``). A club that leaves keeps
its row (``left_at``): its competitions stay listed but no longer count. ``CircuitLink`` says
that two players of different clubs are one person; ``CircuitEvent`` is the append-only trail,
naming the club each write concerns so that both sides read it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models import Club, Player
from scoring.validators import any_text, plain_text
from tournaments.models.competitions import Competition


class Circuit(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="circuits")
    name = models.CharField(_("name"), max_length=120, validators=[plain_text])
    slug = models.SlugField(_("short name in addresses"), max_length=60)
    season = models.CharField(_("season"), max_length=40, blank=True, validators=[plain_text])
    #: Points for places 1, 2, 3...; None: the field rule (``standings.circuits``).
    points_table = models.JSONField(_("points by place"), null=True, blank=True)
    best_of = models.PositiveSmallIntegerField(_("count the best N results"), null=True, blank=True)
    min_events = models.PositiveSmallIntegerField(_("minimum attendance to be ranked"), default=0)
    public = models.BooleanField(
        _("public"), default=True, help_text=_("Anyone may follow it online.")
    )
    description = models.TextField(_("description"), blank=True, validators=[any_text])
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "tournaments_circuit"  # the table kept when the model moved here
        ordering = ["-created_at", "-id"]
        verbose_name = _("circuit")
        verbose_name_plural = _("circuits")
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="circuit_slug_unique_in_club"),
            models.CheckConstraint(
                condition=Q(best_of__isnull=True) | Q(best_of__gte=1), name="circuit_best_of_min"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class CircuitClub(models.Model):
    """A club of the circuit: invited, then joined when one of its managers accepts."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="clubs")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="circuit_places")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    invited_at = models.DateTimeField(default=timezone.now)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "tournaments_circuitclub"  # the table kept when the model moved here
        ordering = ["circuit", "id"]
        constraints = [
            models.UniqueConstraint(fields=["circuit", "club"], name="circuit_club_once"),
        ]

    def __str__(self) -> str:
        return f"{self.club_id} in {self.circuit_id} ({self.state})"

    @property
    def joined(self) -> bool:
        return self.accepted_at is not None and self.left_at is None

    @property
    def state(self) -> str:
        if self.left_at is not None:
            return "left"
        return "joined" if self.accepted_at is not None else "invited"


class CircuitCompetition(models.Model):
    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="competitions")
    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="circuit_places"
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "tournaments_circuitcompetition"  # the table kept when the model moved here
        ordering = ["circuit", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["circuit", "competition"], name="circuit_competition_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.competition_id} in {self.circuit_id}"


class CircuitLink(models.Model):
    """Two players of different clubs who are one person in the circuit (``a`` < ``b``)."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="links")
    a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    linked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    linked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "tournaments_circuitlink"  # the table kept when the model moved here
        ordering = ["circuit", "id"]
        constraints = [
            models.UniqueConstraint(fields=["circuit", "a", "b"], name="circuit_link_once"),
            models.CheckConstraint(condition=Q(a__lt=F("b")), name="circuit_link_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.a_id} = {self.b_id} in {self.circuit_id}"


class CircuitEvent(models.Model):
    """Append-only trail of a circuit's writes: who, when, what, and which club it concerns."""

    # PROTECT: history is permanent, in the database too (``scoring.permanent``).
    circuit = models.ForeignKey(Circuit, on_delete=models.PROTECT, related_name="events")
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=32)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "tournaments_circuitevent"  # the table kept when the model moved here
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise TypeError("circuit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("circuit events are append-only")
