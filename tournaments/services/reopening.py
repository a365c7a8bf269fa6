"""Reopening a closed round: an organizer, with a reason, takes a closed round back to published
so that any of its games can be corrected, a correction that leaves a game needing its deciding
hand included (refused while the round is closed: ``round_closed_unfinished``), then closes it
again with ``rounds.close_round``.

Locks as ``close_round`` takes them: the competition, then the round (``locked_round``, the round
closed as read under the lock), then its games in id order (``lock_round_games``). The games
that the close locked (``LockReason.ROUND_CLOSED``) are reopened through
``scoring.services.reopen_game``, each audited with the same reason; a game locked for another
reason (by hand) stays locked. The round counts its reopenings (``Round.reopenings``): the next
close e-mails each player the corrected results, once (``results_mail``, edition n).
"""

from __future__ import annotations

from scoring import services as scoring
from scoring.models import LockReason
from scoring.services import Actor
from tournaments.models import Round, RoundStatus
from tournaments.services._common import (
    lock_round_games,
    locked_round,
    record_event,
    require_manager,
    required_reason,
)


def reopen_round(*, round_: Round, by: Actor, reason: str) -> Round:
    """Reopen the closed ``round_`` (``reason`` required): it is published again, its games may
    change, and the standings follow each correction. Refused for a round not closed (``round:
    not_allowed``) and, like every write, while the competition is final (``Locked``)."""
    competition = round_.competition
    require_manager(by, competition.club)
    reason = required_reason(reason)
    with locked_round(round_, RoundStatus.CLOSED, "not_closed"):
        reopened = []
        for game in lock_round_games(round_):
            if game.locked_at is not None and game.lock_reason == LockReason.ROUND_CLOSED:
                scoring.reopen_game(game=game, by=by, reason=reason)
                reopened.append(game.pk)
        round_.status = RoundStatus.PUBLISHED
        round_.closed_at = None
        round_.reopenings += 1
        round_.save(update_fields=["status", "closed_at", "reopenings"])
        record_event(
            competition,
            by,
            "reopen_round",
            round_=round_,
            reason=reason,
            number=round_.number,
            games=reopened,
            reopenings=round_.reopenings,
        )
    return round_
