"""Clubs, their members' roles and their players."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from scoring.validators import plain_text


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("%(value)s is not a known time zone."), params={"value": value})


#: The currencies a club keeps its books in (fees, money prizes): ISO 4217 codes.
CURRENCIES = [
    ("EUR", _("euro")),
    ("CHF", _("Swiss franc")),
    ("GBP", _("pound sterling")),
    ("USD", _("US dollar")),
]


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[plain_text])
    slug = models.SlugField(_("short name in addresses"), max_length=60, unique=True)
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="it"
    )
    time_zone = models.CharField(
        _("time zone"), max_length=64, default=settings.TIME_ZONE, validators=[validate_time_zone]
    )
    results_public = models.BooleanField(
        _("results are public"),
        default=False,
        help_text=_("Anyone may read the finished games, the schedules and the standings."),
    )
    #: The currency of the club's fees and prizes (ISO 4217), amounts kept in its cents.
    currency = models.CharField(_("currency"), max_length=3, choices=CURRENCIES, default="EUR")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    OWNER = "owner", _("owner")
    ORGANIZER = "organizer", _("organizer")
    SCORER = "scorer", _("scorer")
    #: Reads the club's private results, writes nothing.
    MEMBER = "member", _("member")


#: The roles that run a club: its competitions, players, members and table links.
MANAGERS = (Role.OWNER, Role.ORGANIZER)
#: The roles that may enter and correct hands.
HAND_WRITERS = (*MANAGERS, Role.SCORER)
#: Every role reads the club's private results (``Role.MEMBER`` only that).
READERS = (*HAND_WRITERS, Role.MEMBER)


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.SCORER)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once_per_club"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.club} ({self.role})"


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    display_name = models.CharField(_("name"), max_length=80, validators=[plain_text])
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    active = models.BooleanField(_("active"), default=True)
    # Private to the club's organizers (never on a public page or a public API answer): where
    # the results e-mails go (``scoring.selectors.players.results_address``), in which language
    # (blank: the club's), and whether the player wants them.
    email = models.EmailField(_("e-mail address"), max_length=254, blank=True, default="")
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True, default=""
    )
    results_by_email = models.BooleanField(_("receives results by e-mail"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"), "club", name="player_name_unique_in_club"
            ),
            models.CheckConstraint(condition=~Q(display_name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.display_name
