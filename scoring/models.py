"""Clubs, their players, games at a table and the hands of those games.

The hand documents and a game's resolved options are the source of truth; a game's totals, hand
count, last dealer and status are a cache that ``scoring.services`` recomputes through the rules
engine on every write. Nothing re-checks the cache at run time: the tests do, by replaying stored
games from their documents (``engine.replay``) and comparing the figures (tests/scoring/test_demo.py
for every demo game, tests/scoring/test_services.py after each kind of write). Figures derived
from the cache (the next dealer, the seat sitting out) are asked of the engine, not re-derived.
Writes go through the services only; the constraints below hold even if application code is
bypassed.
"""

from __future__ import annotations

import secrets
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.rules import RULESETS, GameState, engine
from scoring.validators import plain_text

#: The games' names in the active language (the pure rules name them in English); a game missing
#: here shows the name its rules give.
GAME_NAMES = {
    "terziglio": _("Terziglio"),
    "calabrasella": _("Calabrasella"),
    "turkish": _("Turkish"),
    "briscola": _("Briscola"),
    "briscola_chiamata": _("Briscola chiamata"),
}
RULESET_CHOICES = [(key, GAME_NAMES.get(key, rules.name)) for key, rules in RULESETS.items()]


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("%(value)s is not a known time zone."), params={"value": value})


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
    #: Readable by anyone while in progress (set for tables of a public competition).
    public_live = models.BooleanField(default=False)
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
        return self.title or f"{self.get_ruleset_display()} #{self.pk}"

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


class AuditAction(models.TextChoices):
    START_GAME = "start_game", _("game started")
    IMPORT_GAME = "import_game", _("game imported")
    RECORD_HAND = "record_hand", _("hand entered")
    CORRECT_HAND = "correct_hand", _("hand corrected")
    REMOVE_HAND = "remove_hand", _("hand removed")
    ACCEPT_HAND = "accept_hand", _("hand accepted")
    REJECT_HAND = "reject_hand", _("hand rejected")
    UNDO_HAND = "undo_hand", _("hand undone")
    ABANDON_GAME = "abandon_game", _("game abandoned")
    LOCK_GAME = "lock_game", _("game locked")
    REOPEN_GAME = "reopen_game", _("game reopened")
    ROTATE_TABLE_LINK = "rotate_table_link", _("table link and PIN changed")
    # The club's people (scoring.services.members): ``after`` names who and what.
    CREATE_CLUB = "create_club", _("club created")
    INVITE = "invite", _("member invited")
    REVOKE_INVITATION = "revoke_invitation", _("invitation withdrawn")
    ACCEPT_INVITATION = "accept_invitation", _("invitation accepted")
    DECLINE_INVITATION = "decline_invitation", _("invitation declined")
    CHANGE_ROLE = "change_role", _("role changed")
    REMOVE_MEMBER = "remove_member", _("member removed")
    CLAIM_PLAYER = "claim_player", _("player claimed")
    APPROVE_CLAIM = "approve_claim", _("claim approved")
    REJECT_CLAIM = "reject_claim", _("claim rejected")


class AuditQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError("audit events are append-only")

    def delete(self):
        raise TypeError("audit events are append-only")


class AuditEvent(models.Model):
    """Append-only trail of every create, correction and removal: who, when, before, after, why.
    Written in the same transaction as the change it records."""

    # PROTECT: history is permanent, in the database too (``scoring.permanent``): deleting a
    # club, a game or a user with a trail is refused instead of erasing the trail.
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="audit_events")
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="audit_events"
    )
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    action = models.CharField(max_length=32, choices=AuditAction.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    via = models.CharField(max_length=8, choices=Via.choices, default=Via.PAGE)
    at = models.DateTimeField(default=timezone.now)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["game", "hand_number"], name="audit_game_hand")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise TypeError("audit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("audit events are append-only")

    @property
    def actor_label(self) -> str:
        if self.actor is not None:
            return self.actor.get_full_name() or self.actor.get_username()
        return str(Via(self.via).label) if self.via in Via.values else self.via


class IdempotencyRecord(models.Model):
    """The first answer to a request that carried an ``Idempotency-Key``: a resend gets it again."""

    client = models.CharField(max_length=64)
    key = models.CharField(max_length=128)
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


def new_pin() -> str:
    return f"{secrets.randbelow(10_000):04d}"


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


class InvitationStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    ACCEPTED = "accepted", _("accepted")
    DECLINED = "declined", _("declined")
    REVOKED = "revoked", _("withdrawn")


class Invitation(models.Model):
    """An invitation to join a club with a role, sent by e-mail or handed over as a link.

    The link's token is random and shown once; only its SHA-256 is stored, so a copy of the
    database opens no club. It serves once (``status`` leaves ``pending``) and expires after
    ``INVITATION_DAYS``. An invitation may name the player the invitee is (linked on accepting).
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    email = models.EmailField(_("e-mail"), blank=True)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="invitations"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    status = models.CharField(
        max_length=16, choices=InvitationStatus.choices, default=InvitationStatus.PENDING
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(role__in=Role.values), name="invitation_role_valid"),
            models.CheckConstraint(
                condition=Q(status__in=InvitationStatus.values), name="invitation_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.email or 'link'} → {self.club} ({self.role})"

    @property
    def expired(self) -> bool:
        return timezone.now() >= self.expires_at


class ClaimStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    APPROVED = "approved", _("approved")
    REJECTED = "rejected", _("rejected")


class PlayerClaim(models.Model):
    """A member says "this player is me"; an owner or organizer approves (the player is then
    linked to the account: "My games", e-mails to entrants) or rejects it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims"
    )
    status = models.CharField(
        max_length=16, choices=ClaimStatus.choices, default=ClaimStatus.PENDING
    )
    created_at = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "user"],
                condition=Q(status="pending"),
                name="player_claim_pending_once",
            ),
            models.CheckConstraint(
                condition=Q(status__in=ClaimStatus.values), name="player_claim_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player} ({self.status})"
