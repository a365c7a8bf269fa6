"""Live: every screen hears of a change the moment its transaction commits.

A change is announced after COMMIT (``publish_on_commit``) on a *channel*, as an event: a kind
(``game``, ``standings``, ``round``...), a small JSON body naming what changed and its new
version, and an id the bus gives it. Channels name what a screen shows:

- ``game:<id>``: a game's hands, corrections, removals, confirmations, its end, a reseat;
- ``competition:<id>``: a competition's standings, rounds, tables and desk (every recorded
  change: registrations, check-ins, fees), for its public pages, the organizer's and the desk;
- ``user:<id>``: a player's own (their table in a round just published or changed);
- ``session:<digest>`` and ``token:<digest>``: the end of a login or a token (a stream never
  outlives what opened it).

An event never carries what its listener may not read: it names the change, and a member's
screen fetches what it may see through the page it already polls (its access rules, its ETag).
Screens of what anyone may read (public standings, the projector) get the fragment itself from
the stream server, rendered once per version and language (``tournaments.views.live``).

Fan-out between processes is Redis pub/sub (``LIVE_REDIS_URL``); without Redis, one process
serves the site and fans out in memory (``scoring.live.bus``). ``scoring.live.streams`` turns a
subscription into a ``text/event-stream`` answer: heartbeats, ``Last-Event-ID`` catch-up, the
per-address limit.
"""

from __future__ import annotations

import hashlib
import logging

from django.db import transaction

from scoring.live.bus import Unavailable, current_bus

__all__ = [
    "Unavailable",
    "competition_channel",
    "game_channel",
    "publish",
    "publish_on_commit",
    "session_channel",
    "token_channel",
    "user_channel",
]

logger = logging.getLogger("segnapunti.live")


def game_channel(game_id: int) -> str:
    return f"game:{game_id}"


def competition_channel(competition_id: int) -> str:
    return f"competition:{competition_id}"


def user_channel(user_id: int) -> str:
    return f"user:{user_id}"


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:32]


def session_channel(session_key: str) -> str:
    """A login's channel, named by a digest of its session key (never the key itself)."""
    return f"session:{_digest(session_key)}"


def token_channel(token_key: str) -> str:
    return f"token:{_digest(token_key)}"


def publish(channel: str, kind: str, data: dict) -> str | None:
    """Announce ``kind`` on ``channel`` now; the event's id, or None when the bus could not be
    reached (the change itself is stored: screens fall back to polling and catch up)."""
    try:
        return current_bus().publish(channel, kind, data)
    except Unavailable as problem:
        logger.warning("live event %s on %s not published: %s", kind, channel, problem)
        return None


def publish_on_commit(channel: str, kind: str, data: dict) -> None:
    """Announce ``kind`` on ``channel`` once the current transaction commits (at once outside
    one); a rolled-back change announces nothing."""
    transaction.on_commit(lambda: publish(channel, kind, data))
