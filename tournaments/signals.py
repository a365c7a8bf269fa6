"""What the competitions do when a game changes: its standings follow.

Connected to ``scoring.signals.game_changed`` by ``TournamentsConfig.ready``: scoring announces
its changes (after commit, with ids) and never imports the competitions.
"""

from __future__ import annotations

from scoring.services import queue
from tournaments import live, tasks
from tournaments.services import GAME_CONTEXT


def on_game_changed(
    sender,
    game_id: int,
    context: str = "",
    finished: bool = True,
    waiting: bool = False,
    **kwargs,
) -> None:
    """A competition's game changed (after commit): its standings follow when the change
    touches a finished game (standings count nothing else), and its table's screens hear of it,
    as of a hand waiting to be accepted. Other games and hands of games still in progress are
    skipped without a query; without a broker the task simply runs here."""
    if context != GAME_CONTEXT or not (finished or waiting):
        return
    live.announce_table(game_id, finished)
    if finished:
        queue.enqueue(tasks.recompute_standings_for_game, game_id)
