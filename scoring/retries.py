"""Running a background task's work again when PostgreSQL broke off its transaction to resolve a
deadlock (``40P01``) or a serialization failure (``40001``): the work is a whole transaction
that changed nothing, and running it again is what PostgreSQL's documentation prescribes. The
hand writes and the rating task take their row locks in one order (docs/architecture.md,
"Locks"), so this is the net under it, not the cure.

``retry_on_conflict`` wraps the body of a Celery task (``scoring.tasks``, ``tournaments.tasks``):
it runs it again in the same process, at most ``RETRIES`` more times, after a wait that doubles
each time (``BACKOFF`` seconds at first, with jitter so that two tasks that deadlocked do not
meet again). In the same process rather than through Celery's ``retry``: the same on a worker and
eagerly (no broker, the tests) where Celery's own retry only raises. Any other error, or the
last conflict, is raised as before. Inside an outer transaction (a caller's ``atomic``) nothing
is retried: the outer transaction is broken off too, and only its owner may run it again."""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from django.db import OperationalError, connection
from psycopg import errors

log = logging.getLogger(__name__)

#: How many times the work runs again after a conflict, and the first wait (seconds).
RETRIES = 5
BACKOFF = 0.05

CONFLICTS = (errors.DeadlockDetected, errors.SerializationFailure)


def is_conflict(error: BaseException) -> bool:
    """Whether ``error`` is PostgreSQL breaking off the transaction to resolve a deadlock or a
    serialization failure (Django's ``OperationalError`` around psycopg's error)."""
    return isinstance(error, OperationalError) and isinstance(error.__cause__, CONFLICTS)


def wait(attempt: int) -> float:
    """The seconds to wait before running the work again for the ``attempt``-th time (from 1)."""
    return BACKOFF * 2 ** (attempt - 1) * random.uniform(0.5, 1.5)


def retry_on_conflict(work: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(work)
    def run(*args: Any, **kwargs: Any) -> Any:
        attempt = 0
        while True:
            try:
                return work(*args, **kwargs)
            except OperationalError as error:
                attempt += 1
                if attempt > RETRIES or not is_conflict(error) or connection.in_atomic_block:
                    raise
                delay = wait(attempt)
                log.warning(
                    "%s: %s; running it again in %.2f s (%d of %d)",
                    work.__name__,
                    type(error.__cause__).__name__,
                    delay,
                    attempt,
                    RETRIES,
                )
                time.sleep(delay)

    return run
