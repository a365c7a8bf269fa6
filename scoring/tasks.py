"""Celery tasks of the scoring app: the nightly housekeeping. They call the services in
``scoring.services.housekeeping``; Celery beat schedules them (``CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

import logging

from celery import shared_task

from scoring.services import housekeeping

log = logging.getLogger(__name__)


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
