"""Registration: players put their own names down for a competition (issue 24).

``RegistrationSettings`` is the organizer's window (when, how many, who may); a
``Registration`` is one person's (or one pair's) request, which becomes an ``Entry`` when it
takes a place, or waits in order (``position``) beyond capacity; ``RegistrationLink`` is a
link e-mailed to a registrant (its token stored as a SHA-256 only, with an expiry and, for the
one-time ones, when it was used); ``CheckInWindow`` is the time during which the entries of a
round check themselves in from their phones.

The registrant's e-mail address is the registration's own (``Registration.email``): only the
organizers of the club read it (``tournaments.selectors.registration``); its e-mails are in the
language of the form the registrant filled in (``Registration.language``), else the club's.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models import Player
from scoring.validators import any_text, plain_text
from tournaments.models.competitions import Competition
from tournaments.models.entries import Entry
from tournaments.models.rounds import Round


class Eligibility(models.TextChoices):
    MEMBERS = "members", _("members of the club")
    ACCOUNTS = "accounts", _("anyone with an account")
    ANYONE = "anyone", _("anyone with a name and an e-mail address")


class CapacityUnit(models.TextChoices):
    ENTRIES = "entries", _("entries")
    TABLES = "tables", _("tables")


class RegistrationSettings(models.Model):
    """When players may register for a competition, how many places it has and who may."""

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="registration_settings"
    )
    opens_at = models.DateTimeField(_("opens"))
    closes_at = models.DateTimeField(_("closes"))
    capacity = models.PositiveIntegerField(_("capacity"))
    unit = models.CharField(
        _("counted in"), max_length=8, choices=CapacityUnit.choices, default=CapacityUnit.ENTRIES
    )
    waiting_list = models.BooleanField(_("waiting list beyond capacity"), default=True)
    eligibility = models.CharField(
        _("who may register"),
        max_length=10,
        choices=Eligibility.choices,
        default=Eligibility.ANYONE,
    )
    note = models.TextField(_("note shown on the form"), blank=True, validators=[any_text])
    #: Set when the organizer closes registration before ``closes_at``: the list is frozen.
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "tournaments_registrationsettings"  # the table kept when the model moved here
        constraints = [
            models.CheckConstraint(condition=Q(capacity__gte=1), name="registration_capacity"),
            models.CheckConstraint(
                condition=Q(closes_at__gt=models.F("opens_at")), name="registration_window"
            ),
        ]

    def __str__(self) -> str:
        return f"registration: {self.competition}"

    def per_table(self) -> int:
        """Entries at a table (pairs: two; otherwise the first game's preferred table size)."""
        competition = self.competition
        ruleset = (competition.rulesets or ["briscola"])[0]
        return competition.table_policy(ruleset)[1]

    @property
    def places(self) -> int:
        """How many entries registration fills."""
        if self.unit == CapacityUnit.TABLES:
            return self.capacity * self.per_table()
        return self.capacity

    def state(self, now=None) -> str:
        """``not_open`` (before it opens), ``open``, or ``closed`` (after it closes, or closed
        by hand: the list is frozen)."""
        now = now or timezone.now()
        if self.closed_at is not None or now >= self.closes_at:
            return "closed"
        return "open" if now >= self.opens_at else "not_open"


class RegistrationStatus(models.TextChoices):
    UNCONFIRMED = "unconfirmed", _("waiting for the e-mail confirmation")
    PARTNER = "partner", _("waiting for the partner")
    ENTERED = "entered", _("entered")
    WAITING = "waiting", _("on the waiting list")
    WITHDRAWN = "withdrawn", _("withdrawn")


#: The statuses of a registration still standing (one per person: ``registration_*_once``).
STANDING = [s for s in RegistrationStatus.values if s != RegistrationStatus.WITHDRAWN]


class Registration(models.Model):
    """One person's (or one pair's) registration for a competition."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="registrations"
    )
    status = models.CharField(
        max_length=12, choices=RegistrationStatus.choices, default=RegistrationStatus.UNCONFIRMED
    )
    name = models.CharField(_("your name"), max_length=80, validators=[plain_text])
    email = models.EmailField(_("your e-mail address"), max_length=254)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="registrations",
    )
    partner_name = models.CharField(
        _("your partner's name"), max_length=80, blank=True, validators=[plain_text]
    )
    partner_email = models.EmailField(_("your partner's e-mail address"), blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    partner_confirmed_at = models.DateTimeField(null=True, blank=True)
    #: Order on the waiting list (1 first), while ``status`` is waiting.
    position = models.PositiveIntegerField(null=True, blank=True)
    entry = models.OneToOneField(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="registration"
    )
    #: The players the registration became (made for it unless the organizer merged them).
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    partner = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    #: The language the registrant's form was in: their e-mails' (the pair's), and their new
    #: players' (``services.registration.enter``); blank: the club's.
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True, default=""
    )

    class Meta:
        db_table = "tournaments_registration"  # the table kept when the model moved here
        ordering = ["competition", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                "competition",
                Lower("email"),
                condition=Q(status__in=STANDING),
                name="registration_email_once",
            ),
            models.UniqueConstraint(
                fields=["competition", "user"],
                condition=Q(status__in=STANDING, user__isnull=False),
                name="registration_user_once",
            ),
            models.CheckConstraint(
                condition=Q(status__in=RegistrationStatus.values),
                name="registration_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        return Entry.name_of(self.name, self.partner_name or None)

    @property
    def standing(self) -> bool:
        return self.status != RegistrationStatus.WITHDRAWN


class LinkPurpose(models.TextChoices):
    CONFIRM = "confirm", _("confirm the registration")
    PARTNER = "partner", _("confirm as the partner")
    MANAGE = "manage", _("withdraw or check in")


class RegistrationLink(models.Model):
    """A link e-mailed to a registrant: its token is shown once (in the e-mail) and stored as
    its SHA-256. A confirmation serves once (``used_at``); every link expires."""

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="links")
    purpose = models.CharField(max_length=8, choices=LinkPurpose.choices)
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "tournaments_registrationlink"  # the table kept when the model moved here

    def __str__(self) -> str:
        return f"{self.purpose} link of {self.registration}"


class CheckInWindow(models.Model):
    """While it is open, the entries of ``round`` check themselves in from their phones."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="check_in_window")
    opened_at = models.DateTimeField(default=timezone.now)
    closes_at = models.DateTimeField()

    class Meta:
        db_table = "tournaments_checkinwindow"  # the table kept when the model moved here

    def __str__(self) -> str:
        return f"check-in of {self.round} until {self.closes_at:%H:%M}"

    def is_open(self, now=None) -> bool:
        return (now or timezone.now()) < self.closes_at


class RegistrationRefusals(models.Model):
    """How often a competition's public registration was throttled (``registration.rates``):
    the writes refused, when the last one was and why (for the organizer's page)."""

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="registration_refusals"
    )
    refused = models.PositiveIntegerField(default=0)
    #: When the last refusal was, and its reason (``address``, ``email`` or ``competition``).
    last_at = models.DateTimeField(null=True, blank=True)
    last_reason = models.CharField(max_length=16, blank=True)

    def __str__(self) -> str:
        return f"{self.refused} registrations refused: {self.competition}"
