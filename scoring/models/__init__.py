"""The scoring app's tables, one module per idea: ``clubs`` (clubs, roles, players), ``games``
(games, seats, hands, the first answers kept for resent hands, table links), ``idempotency``
(every other API write sent with an ``Idempotency-Key``: its claim, then its first answer),
``audit`` (the append-only trail), ``ratings``, ``members`` (invitations, players claimed by
accounts) and ``push`` (the devices told by Web Push).

The hand documents and a game's resolved options are the source of truth; a game's totals, hand
count, last dealer and status are a cache that ``scoring.services`` recomputes through the rules
engine on every write. Nothing re-checks the cache at run time: the tests do, by replaying stored
games from their documents (``engine.replay``) and comparing the figures (tests/scoring/test_demo.py
for every demo game, tests/scoring/test_services.py after each kind of write). Figures derived
from the cache (the next dealer, the seat sitting out) are asked of the engine, not re-derived.
Writes go through the services only; the constraints hold even if application code is bypassed.

Every name is importable from here (``from scoring.models import Game``), which is also the path
the migrations name (``scoring.models.new_token``).
"""

from scoring.models.audit import AuditAction, AuditEvent, AuditQuerySet
from scoring.models.clubs import (
    HAND_WRITERS,
    MANAGERS,
    READERS,
    Club,
    Membership,
    Player,
    Role,
    validate_time_zone,
)
from scoring.models.games import (
    NOT_ACCEPTED,
    PIN_DIGITS,
    Acceptance,
    Game,
    GameStatus,
    Hand,
    IdempotencyRecord,
    LockReason,
    Seat,
    TableLink,
    Via,
    new_pin,
    new_token,
)
from scoring.models.idempotency import IdempotentRequest
from scoring.models.members import ClaimStatus, Invitation, InvitationStatus, PlayerClaim
from scoring.models.push import PushReceipt, PushSubscription
from scoring.models.queue import PendingTask
from scoring.models.ratings import Rating, RatingStep
from scoring.models.submissions import FormSubmission
from scoring.models.tags import PlayerTag, TaggedPlayer
from scoring.models.throttles import GuessCounter

__all__ = [
    "HAND_WRITERS",
    "MANAGERS",
    "NOT_ACCEPTED",
    "PIN_DIGITS",
    "READERS",
    "Acceptance",
    "AuditAction",
    "AuditEvent",
    "AuditQuerySet",
    "ClaimStatus",
    "Club",
    "FormSubmission",
    "Game",
    "GameStatus",
    "GuessCounter",
    "Hand",
    "IdempotencyRecord",
    "IdempotentRequest",
    "Invitation",
    "InvitationStatus",
    "LockReason",
    "Membership",
    "PendingTask",
    "Player",
    "PlayerClaim",
    "PlayerTag",
    "PushReceipt",
    "PushSubscription",
    "Rating",
    "RatingStep",
    "Role",
    "Seat",
    "TableLink",
    "TaggedPlayer",
    "Via",
    "new_pin",
    "new_token",
    "validate_time_zone",
]
