"""Celery tasks of the scoring app. They take ids, reload, and call a service; they are enqueued
after commit (``scoring.signals``) or by Celery beat (``CELERY_BEAT_SCHEDULE``: the nightly
housekeeping of ``scoring.services.housekeeping``), and run eagerly when no broker is configured."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from scoring.services import accounts, housekeeping, ratings
from scoring.signals import game_changed

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def rate_game(game_id: int) -> None:
    """Bring the club's ratings up to date after a change of a finished (or once finished)
    game: incrementally for a game that just finished, from scratch otherwise."""
    ratings.rate_game(game=game_id)


@shared_task(ignore_result=True)
def recompute_club_ratings(club_id: int) -> None:
    ratings.recompute_club(club=club_id)


@shared_task(ignore_result=True)
def send_password_reset(email: str, *, domain: str, use_https: bool) -> None:
    """The password-reset e-mail to every active account with ``email``, if any (asked for at
    ``/password-reset/``, whose answer must not depend on it)."""
    accounts.send_password_reset(email=email, domain=domain, use_https=use_https)


@shared_task(ignore_result=True)
def purge_idempotency_records() -> int:
    deleted = housekeeping.purge_idempotency_records()
    log.info("purged %d idempotency records", deleted)
    return deleted


@shared_task(ignore_result=True)
def check_games() -> int:
    """Log every cached figure that differs from its game's replay, as an error an operator sees."""
    found = 0
    for mismatch in housekeeping.check_games():
        found += 1
        log.error("check_games: %s", mismatch)
    if found:
        log.error("check_games: %d figures differ from their replay", found)
    return found


def rate_changed_game(sender, game_id: int, finished: bool = True, **kwargs) -> None:
    """Ratings follow every change that touches a finished game (one just finished, corrected,
    corrected back to unfinished or abandoned); hands of games still in progress are skipped
    without a query. Runs after commit (``game_changed``); without a broker the task runs
    here."""
    if not finished:
        return
    if settings.CELERY_TASK_ALWAYS_EAGER:
        rate_game(game_id)
    else:
        rate_game.delay(game_id)


game_changed.connect(rate_changed_game, dispatch_uid="scoring-ratings")
