"""Celery tasks of the scoring app. They take ids, reload, and call a service; they are enqueued
after commit (``scoring.signals``), and run eagerly when no broker is configured."""

from __future__ import annotations

from celery import shared_task

from scoring.services import ratings


@shared_task(ignore_result=True)
def rate_game(game_id: int) -> None:
    """Bring the club's ratings up to date after a change of a finished (or once finished)
    game: incrementally for a game that just finished, from scratch otherwise."""
    ratings.rate_game(game=game_id)


@shared_task(ignore_result=True)
def recompute_club_ratings(club_id: int) -> None:
    ratings.recompute_club(club=club_id)
