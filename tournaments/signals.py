"""What the competitions do when a game changes: its standings follow.

Connected to ``scoring.signals.game_changed`` by ``TournamentsConfig.ready``: scoring announces
its changes (after commit, with ids) and never imports the competitions.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError

from scoring.services import queue
from tournaments import live, selectors, services
from tournaments.models import Competition
from tournaments.services import GAME_CONTEXT

log = logging.getLogger(__name__)


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
        points_now(game_id)
        queue.enqueue("tournaments.tasks.recompute_standings_for_game", game_id)


def points_now(game_id: int) -> None:
    """The new points of the game's competitions, stored here and now (no outlook: about 10 ms
    for a league of 60, against 400 with it), so that every screen has them with the hand that
    finished the game, not after the worker's turn; who can still win follows from the worker
    (``tasks.recompute_standings``). A refusal of the database here loses nothing: the task
    stores the same."""
    competitions = Competition.objects.filter(
        pk__in=selectors.competitions_of_game(game_id)
    ).select_related("club")
    for competition in competitions:
        try:
            services.store_standings(competition=competition, outlook=False)
        except DatabaseError as problem:
            log.warning("standings of %s left to the worker: %s", competition.pk, problem)
