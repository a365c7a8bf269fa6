"""Every write of the scoring app goes through one of these functions.

Pages, the API, the admin, management commands, Celery tasks and test setup all call them, with
keyword-only arguments. Each one runs in a single transaction: it locks the game row (PostgreSQL
``SELECT … FOR NO KEY UPDATE``, in the order of docs/architecture.md, "Locks"; on SQLite the
IMMEDIATE transaction already serialises writers), asks the rules engine for the new figures,
writes the rows, and appends an audit event.

A problem the player can fix raises :class:`~scoring.rules.RuleViolation` (HTTP 400 / an error
next to the field); nothing is written then. Other refusals have their own exceptions (``actors``).

The functions live in one module per idea; callers use this package's names
(``from scoring import services; services.record_hand(...)``):

- ``actors``: who writes (``Actor``), the refusals that are not rule problems, authorisation;
- ``accounts``: signing up, confirming an address, an organizer's account from the command line;
- ``clubs``: starting a club (audited) and its players;
- ``confirmations``: confirmation by the table, a player of another side accepting or
  rejecting a hand;
- ``games``: starting, importing, reseating (no hand yet) and abandoning a game;
- ``hands``: entering and correcting hands under the game row's lock, and how a scored hand
  becomes a row;
- ``removals``: removing hands (one, one and those after it, one with the dealers fixed) and
  undoing the hand just saved;
- ``players``: players added from a list, their e-mail settings, the unsubscribe link;
- ``locks``: locking a settled game (a closed round) and reopening it;
- ``members``: a club's people: invitations, roles, removals, players claimed by accounts
  (``from scoring.services import members``);
- ``ratings``: OpenSkill ratings stored from the finished games;
- ``housekeeping``: the periodic checks and purges;
- ``push``: a player's devices told by Web Push (``from scoring.services import push``);
- ``table_links``: the table link's PIN ceiling, and a new link and PIN;
- ``_game_row``: locking the game row and refreshing its cache, shared by games and hands.
"""

from scoring.services._game_row import CACHE_FIELDS
from scoring.services.accounts import (
    create_account,
    make_token,
    revoke_token,
    sign_up,
    verify_account,
)
from scoring.services.actors import (
    Actor,
    AlreadyEntered,
    Conflict,
    HandNotFound,
    IdempotencyConflict,
    Locked,
    NotAllowed,
    VersionConflict,
    authorize_club,
    violation,
)
from scoring.services.clubs import (
    add_player,
    check_club_address,
    create_club,
    new_player,
    set_player_active,
    update_club,
)
from scoring.services.confirmations import accept_hand, reject_hand, sides_of
from scoring.services.games import abandon_game, import_game, rematch, reseat_game, start_game
from scoring.services.hands import (
    Recorded,
    correct_hand,
    correct_hands,
    fingerprint,
    hand_fields,
    hand_row,
    record_hand,
)
from scoring.services.locks import lock_games, reopen_game
from scoring.services.players import add_players, unsubscribe, update_player
from scoring.services.removals import (
    UndoExpired,
    dealers_fixable,
    remove_hand,
    remove_hand_fixing_dealers,
    remove_hands_from,
    undo_hand,
)
from scoring.services.table_links import (
    LINK_WINDOW_MINUTES,
    check_pin,
    locked_until,
    rotate_table_link,
)
from scoring.services.tags import set_player_tags

__all__ = [
    "CACHE_FIELDS",
    "LINK_WINDOW_MINUTES",
    "Actor",
    "AlreadyEntered",
    "Conflict",
    "HandNotFound",
    "IdempotencyConflict",
    "Locked",
    "NotAllowed",
    "Recorded",
    "UndoExpired",
    "VersionConflict",
    "abandon_game",
    "accept_hand",
    "add_player",
    "add_players",
    "authorize_club",
    "check_club_address",
    "check_pin",
    "correct_hand",
    "correct_hands",
    "create_account",
    "create_club",
    "dealers_fixable",
    "fingerprint",
    "hand_fields",
    "hand_row",
    "import_game",
    "lock_games",
    "locked_until",
    "make_token",
    "new_player",
    "record_hand",
    "reject_hand",
    "rematch",
    "remove_hand",
    "remove_hand_fixing_dealers",
    "remove_hands_from",
    "reopen_game",
    "reseat_game",
    "revoke_token",
    "rotate_table_link",
    "set_player_active",
    "set_player_tags",
    "sides_of",
    "sign_up",
    "start_game",
    "undo_hand",
    "unsubscribe",
    "update_club",
    "update_player",
    "verify_account",
    "violation",
]
