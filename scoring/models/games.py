"""Games at a table, their seats and hands, the first answers kept for resent requests, and the
table links that let a table's phones in without an account.

The hand documents and a game's resolved options are the source of truth; a game's totals, hand
count, last dealer and status are a cache that ``scoring.services`` recomputes through the rules
engine on every write (see the package's docstring).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.labels import RULESET_CHOICES, game_title
from scoring.models.clubs import Club, Player
from scoring.rules import RULESETS, GameState, engine
from scoring.validators import plain_text


class GameStatus(models.TextChoices):
    IN_PROGRESS = engine.IN_PROGRESS, _("in progress")
    FINISHED = engine.FINISHED, _("finished")
    ABANDONED = "abandoned", _("abandoned")


class Via(models.TextChoices):
    PAGE = "page", _("page")
    API = "api", _("API")
    IMPORT = "import", _("import")
    TABLE = "table", _("table link")
    ADMIN = "admin", _("admin")


class LockReason(models.TextChoices):
    """Why a game may no longer change (``Game.lock_reason``). The refusal's sentence, made from
    the reason and ``Game.lock_context``, says who can reopen it (``scoring.messages``)."""

    ROUND_CLOSED = "round_closed", _("its round is closed")
    FINALIZED = "finalized", _("its competition is final")
    MANUAL = "manual", _("locked by an organizer")


class Game(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="games")
    ruleset = models.CharField(_("game"), max_length=32, choices=RULESET_CHOICES)
    options = models.JSONField(_("house rules"))
    title = models.CharField(_("title"), max_length=120, blank=True, validators=[plain_text])
    status = models.CharField(
        max_length=16, choices=GameStatus.choices, default=GameStatus.IN_PROGRESS
    )
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    abandon_reason = models.TextField(blank=True)
    #: Which app started the game for its own purposes ("competition"), empty for a free game:
    #: listeners of ``game_changed`` skip games that are not theirs without a query.
    context = models.CharField(max_length=32, blank=True)
    #: Set while the game may not change (its round was closed, its competition finalized): every
    #: hand write is refused until a manager reopens it (``services.reopen_game``).
    locked_at = models.DateTimeField(null=True, blank=True)
    locked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: Why it was last locked, and the words of that reason ({"round": 3, "competition": "…"}):
    #: kept when the game is reopened, so that locking it again restores the same reason.
    lock_reason = models.CharField(max_length=16, choices=LockReason.choices, blank=True)
    lock_context = models.JSONField(default=dict, blank=True)
    #: Confirmation by the table: each hand counts only once a player of another side accepted
    #: it (``scoring.services.confirmations``). Set when the game starts (by its competition too).
    hands_need_acceptance = models.BooleanField(
        _("each hand must be accepted by a player of another side"), default=False
    )
    # -- cache, derived from the hands by the rules engine ---------------------------------------
    hand_count = models.PositiveIntegerField(default=0)
    totals = models.JSONField(default=list)
    card_points = models.JSONField(null=True, blank=True)
    last_dealer = models.SmallIntegerField(null=True, blank=True)
    #: The seat decided to deal the first hand before the game began (a competition's table card
    #: names it): the game page names it as the next dealer instead of asking who deals.
    #: None: whoever the table chooses.
    first_dealer = models.SmallIntegerField(null=True, blank=True)
    #: Bumped on every change of the game or its hands (ETag of the game resource).
    version = models.PositiveIntegerField(default=1)
    #: The serial of the last hand entered (``Hand.serial``): never lowered, so a serial is
    #: never given twice, whatever is removed or undone.
    last_hand_serial = models.PositiveIntegerField(default=0)
    #: Bumped whenever other players take the game's seats (``services.reseat_game``): a hand
    #: sent with the version its page showed is refused once the seats changed since.
    seating = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [models.Index(fields=["club", "status", "-created_at"], name="game_club_status")]
        constraints = [
            models.CheckConstraint(
                condition=Q(ruleset__in=list(RULESETS)), name="game_ruleset_known"
            ),
            models.CheckConstraint(
                condition=Q(status__in=GameStatus.values), name="game_status_valid"
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="game_version_positive"),
            models.CheckConstraint(
                condition=Q(last_dealer__isnull=True) | Q(last_dealer__gte=0),
                name="game_last_dealer_seat",
            ),
            models.CheckConstraint(
                condition=Q(first_dealer__isnull=True) | Q(first_dealer__gte=0),
                name="game_first_dealer_seat",
            ),
            models.CheckConstraint(
                condition=Q(locked_at__isnull=True) | ~Q(lock_reason=""),
                name="game_lock_has_a_reason",
            ),
        ]

    def __str__(self) -> str:
        return self.shown_title or f"{self.get_ruleset_display()} #{self.pk}"

    @property
    def shown_title(self) -> str:
        """The title in the reader's language (a table's "R4 · T2" translated:
        ``labels.game_title``); the API gives the title as stored."""
        return game_title(self.title)

    @property
    def rules(self):
        return RULESETS[self.ruleset]

    @property
    def n(self) -> int:
        return len(self.totals)

    def state(self) -> GameState:
        """The rules engine's view of this game, from the cached figures."""
        return GameState(
            n=len(self.totals),
            options=self.options,
            hands_played=self.hand_count,
            totals=tuple(self.totals),
            last_dealer=self.last_dealer,
            card_points=None if self.card_points is None else tuple(self.card_points),
        )

    def scored(self) -> engine.ScoredGame:
        return engine.resume(self.rules, self.state())

    @property
    def locked(self) -> bool:
        return self.locked_at is not None

    @property
    def is_open(self) -> bool:
        """Hands may be added (in progress) — corrections are also allowed once finished."""
        return self.status == GameStatus.IN_PROGRESS

    @property
    def next_dealer(self) -> int | None:
        """The engine's next dealer; None before the first hand or once the game is over
        (abandoned games included, which the engine does not know about)."""
        if self.status != GameStatus.IN_PROGRESS:
            return None
        if self.hand_count == 0 and self.first_dealer is not None:
            return self.first_dealer
        return self.scored().next_dealer

    @property
    def sitting_out_next(self) -> int | None:
        """The seat that gets no cards in the next hand, if any (engine's answer)."""
        dealer = self.next_dealer
        return None if dealer is None else self.rules.sitting_out(dealer, self.n)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    #: Fixed side for the whole game where the ruleset has them (Briscola pairs: 0 or 1).
    side = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_index_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_once_per_game"),
            models.CheckConstraint(condition=Q(index__lte=7), name="seat_index_range"),
        ]

    def __str__(self) -> str:
        return f"{self.index}: {self.player}"


class Acceptance(models.TextChoices):
    """Where a hand stands in a game whose hands must be accepted (``Game.hands_need_acceptance``);
    every hand of any other game is ``accepted`` from the start."""

    ACCEPTED = "accepted", _("accepted")
    PENDING = "pending", _("waiting to be accepted")
    REJECTED = "rejected", _("rejected")


#: Hands that do not count yet in totals, standings and finished tables.
NOT_ACCEPTED = (Acceptance.PENDING, Acceptance.REJECTED)


class Hand(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    #: The hand's identity in its game: given when it is entered (1, 2, 3…) and never changed,
    #: while ``number`` moves up when an earlier hand is removed. The audit trail names a hand
    #: by it (``AuditEvent.hand_serial``), so a hand's history stays with it; unlike the row's
    #: id it survives a club's export and import.
    serial = models.PositiveIntegerField()
    document = models.JSONField()
    deltas = models.JSONField()
    side_points = models.JSONField(null=True, blank=True)
    #: 1 when entered, +1 on every correction (API: ETag / If-Match).
    version = models.PositiveIntegerField(default=1)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_via = models.CharField(max_length=8, choices=Via.choices, default=Via.PAGE)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    #: Confirmation by the table (``scoring.services.confirmations``): where the hand stands, the
    #: seat of the player who entered it (when the phone said), and the seat that last accepted
    #: or rejected it, when, and why it was rejected.
    acceptance = models.CharField(
        max_length=8, choices=Acceptance.choices, default=Acceptance.ACCEPTED
    )
    entered_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    answered_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    reject_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_number_unique_in_game"),
            models.UniqueConstraint(fields=["game", "serial"], name="hand_serial_unique_in_game"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(condition=Q(version__gte=1), name="hand_version_positive"),
            models.CheckConstraint(condition=Q(entered_via__in=Via.values), name="hand_via_valid"),
            models.CheckConstraint(
                condition=Q(acceptance__in=Acceptance.values), name="hand_acceptance_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} · hand {self.number}"

    @property
    def corrected(self) -> bool:
        return self.version > 1

    @property
    def etag(self) -> str:
        return f'"{self.version}"'

    @property
    def counts(self) -> bool:
        """Whether the hand counts in the totals (accepted, or no acceptance needed)."""
        return self.acceptance == Acceptance.ACCEPTED


class IdempotencyRecord(models.Model):
    """The first answer to a request that carried an ``Idempotency-Key``: a resend gets it again."""

    client = models.CharField(max_length=64)
    key = models.CharField(max_length=255)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["client", "key"], name="idempotency_key_once_per_client"
            )
        ]
        # The hourly purge (scoring.tasks) deletes by age.
        indexes = [models.Index(fields=["created_at"], name="idempotency_created")]

    def __str__(self) -> str:
        return f"{self.client} {self.key}"


def new_token() -> str:
    return secrets.token_urlsafe(18)


#: Digits of a table link's PIN: 10**6 PINs, so that the link's budget of wrong PINs
#: (``services.table_links``) leaves a guesser with any number of addresses at most 0.1 % of
#: them in a 12-hour evening (docs/architecture.md "Table PINs").
PIN_DIGITS = 6


def new_pin() -> str:
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


class TableLink(models.Model):
    """A secret link (shown as a QR code) and a short PIN that let the players at a table enter
    and correct the hands of this one game without an account."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="table_link")
    token = models.CharField(max_length=40, unique=True, default=new_token)
    pin = models.CharField(max_length=8, default=new_pin)
    failures = models.PositiveSmallIntegerField(default=0)
    window_started = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"table link of {self.game}"
