"""Signals other apps may listen to without scoring knowing them.

``game_changed`` is sent after the transaction that changed a game's hands or status commits,
with ``game_id``, the game's ``context`` (see ``Game.context``) and ``finished``: whether the
game was finished before the change or is finished after it. Competitions count finished games
only, so they recompute their standings when ``finished`` is true and skip every other hand;
scoring's own ratings listen too (``scoring.tasks``).
"""

from django.db import transaction
from django.dispatch import Signal

from scoring.models import GameStatus

game_changed = Signal()


def announce_game_changed(game, *, was_finished: bool) -> None:
    """Send ``game_changed`` for ``game`` (its status already updated) once the transaction
    commits."""
    game_id, context = game.pk, game.context
    finished = was_finished or game.status == GameStatus.FINISHED
    transaction.on_commit(
        lambda: game_changed.send(sender=None, game_id=game_id, context=context, finished=finished)
    )
