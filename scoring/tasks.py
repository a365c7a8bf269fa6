"""Celery tasks of the scoring app. They take ids, reload, and call a service; they are enqueued
after commit (``scoring.signals``) or by Celery beat (``CELERY_BEAT_SCHEDULE``: the nightly
housekeeping of ``scoring.services.housekeeping``), and run eagerly when no broker is configured.
The tasks that write run again when PostgreSQL breaks off their transaction to resolve a deadlock
or a serialization failure (``scoring.retries``). All are acknowledged late (a killed worker's task
is run again: they recompute, purge, check or take a kept task under a lock and delete it in the
transaction of its run) but ``send_password_reset``, acknowledged on receipt: its e-mail is
recorded nowhere, and run twice it would send two links."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from scoring.retries import retry_on_conflict
from scoring.services import accounts, housekeeping, queue, ratings
from scoring.signals import game_changed

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
@retry_on_conflict
def rate_game(game_id: int) -> None:
    """Bring the club's ratings up to date after a change of a finished (or once finished)
    game: incrementally for a game that just finished, from scratch otherwise."""
    ratings.rate_game(game=game_id)


@shared_task(ignore_result=True)
@retry_on_conflict
def recompute_club_ratings(club_id: int) -> None:
    ratings.recompute_club(club=club_id)


@shared_task(ignore_result=True, acks_late=False)
def send_password_reset(email: str, *, domain: str, use_https: bool, site: str = "") -> None:
    """The password-reset e-mail to every active account with ``email``, if any (asked for at
    ``/password-reset/``, whose answer must not depend on it); its link on ``site``."""
    accounts.send_password_reset(email=email, domain=domain, use_https=use_https, site=site)


@shared_task(ignore_result=True)
@retry_on_conflict
def purge_idempotency_records() -> int:
    deleted = housekeeping.purge_idempotency_records()
    log.info("purged %d idempotency records", deleted)
    return deleted


@shared_task(ignore_result=True)
def run_pending_tasks() -> int:
    """Run the tasks kept in the database while the broker did not answer."""
    done = queue.run_pending()
    if done:
        log.info("ran %d task(s) kept while the broker was down", done)
    return done


@shared_task(ignore_result=True)
def check_games(hours: float | None = None) -> int:
    """Log every cached figure that differs from its game's replay, and every rule of the apps
    built on scoring that the games break (``extensions.GAME_CHECKS``), as an error an operator
    sees: of the games changed in the last ``hours`` (by default ``CHECK_GAMES_HOURS``, a day
    and an hour of overlap with the run before), so that a night's work follows the day's
    changes, not the federation's history. ``manage.py check_games`` checks every game."""
    hours = settings.CHECK_GAMES_HOURS if hours is None else hours
    since = timezone.now() - timedelta(hours=hours)
    found = 0
    for mismatch in housekeeping.check_games(since=since):
        found += 1
        log.error("check_games: %s", mismatch)
    if found:
        log.error("check_games: %d figures differ from their replay or rules broken", found)
    return found


def rate_changed_game(sender, game_id: int, finished: bool = True, **kwargs) -> None:
    """Ratings follow every change that touches a finished game (one just finished, corrected,
    corrected back to unfinished or abandoned); hands of games still in progress are skipped
    without a query. Runs after commit (``game_changed``); without a broker the task runs
    here, and with a broker that does not answer it waits in the database
    (``scoring.services.queue``)."""
    if finished:
        queue.enqueue(rate_game, game_id)


game_changed.connect(rate_changed_game, dispatch_uid="scoring-ratings")
