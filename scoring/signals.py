"""Signals other apps may listen to without scoring knowing them.

``game_changed`` is sent after the transaction that changed a game's hands or status commits,
with ``game_id``, the game's ``context`` (see ``Game.context``), ``finished``: whether the
game was finished before the change or is finished after it, and ``waiting``: whether a hand of
a game whose hands must be accepted was entered or answered. Competitions count finished games
only, so they recompute their standings when ``finished`` is true and skip every other hand;
scoring's own ratings listen too (``scoring.tasks``).

Every change of a game's version is also announced to the screens that show it, after commit
(``publish_game``: the game's live channel, ``scoring.live``), with what kind of change it was.
"""

from django.db import transaction
from django.dispatch import Signal

from scoring import live
from scoring.models import GameStatus

game_changed = Signal()


#: What a game's live event says changed (its ``change``).
GAME_CHANGES = (
    "start",
    "hand",
    "correction",
    "removal",
    "confirmation",
    "status",
    "reseat",
    "lock",
)


def publish_game(game, change: str) -> None:
    """Tell the game's screens, once the transaction commits, that it is now at its version.
    The version and status are read at COMMIT, not now: a write may bump the version after it
    announces the change (a correction, a removal), and a screen told of the older version
    would take the change for one it has."""
    transaction.on_commit(
        lambda: live.publish(
            live.game_channel(game.pk),
            "game",
            {"id": game.pk, "version": game.version, "status": game.status, "change": change},
        )
    )


def announce_game_changed(game, *, was_finished: bool, change: str) -> None:
    """Send ``game_changed`` for ``game`` (its status already updated) once the transaction
    commits, and tell its screens (``publish_game``)."""
    publish_game(game, change)
    game_id, context = game.pk, game.context
    finished = was_finished or game.status == GameStatus.FINISHED
    # A hand entered or answered in a game whose hands wait to be accepted: the organizer's
    # screens show which tables have a hand waiting.
    waiting = bool(game.hands_need_acceptance) and change in ("hand", "confirmation")
    transaction.on_commit(
        lambda: game_changed.send(
            sender=None, game_id=game_id, context=context, finished=finished, waiting=waiting
        )
    )
