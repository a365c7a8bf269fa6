"""What a Celery worker that dies costs (config/settings.py imports these in one line; see
deploy/README.md "When a worker dies").

- ``CELERY_VISIBILITY_TIMEOUT_SECONDS`` (300, at least 30): how long the Redis broker keeps a
  task a worker took and did not acknowledge before it gives it to another worker (Redis's own
  default is an hour). Longer than our longest acknowledged-late task, or the broker would hand
  a running task to a second worker.
- The broker looks for such tasks every ``RESTORE_EVERY_SECONDS`` (10): kombu's default sweep
  runs one scan in ten of its 10-second ticks, so a task waited up to 100 s beyond the timeout.
- The beat check of the results e-mails: every ``RESULTS_MAIL_CHECK_EVERY_SECONDS`` (60), a
  round closed or a competition declared final in the last ``RESULTS_MAIL_CHECK_HOURS`` (24)
  whose results e-mails are not all sent, and for which nothing happened (no e-mail sent, no
  re-queueing) for ``RESULTS_MAIL_STALLED_SECONDS`` (600), has its mailing task sent again
  (``tournaments.services.results_mail.requeue_stalled``). Without a broker nothing runs beat
  and the mailing ran inside the request: the settings are read all the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

RESTORE_EVERY_SECONDS = 10


def worker_settings(integer: Callable[..., int], schedule: dict) -> dict[str, Any]:
    """The settings above, read through ``integer``, the broker's transport options, and
    ``schedule`` (the settings' ``CELERY_BEAT_SCHEDULE``) with the check's entry."""
    visibility = integer("CELERY_VISIBILITY_TIMEOUT_SECONDS", 300, minimum=30)
    every = integer("RESULTS_MAIL_CHECK_EVERY_SECONDS", 60, minimum=1)
    entry = {"task": "tournaments.tasks.requeue_stalled_results_mail", "schedule": every}
    return {
        "CELERY_VISIBILITY_TIMEOUT_SECONDS": visibility,
        # A request tries a broker that does not answer twice within 0.5 s, then keeps the task
        # in the database (scoring/services/queue.py).
        "CELERY_BROKER_TRANSPORT_OPTIONS": {
            "max_retries": 1,
            "interval_start": 0,
            "interval_step": 0.2,
            "visibility_timeout": visibility,
            "unacked_restore_interval": RESTORE_EVERY_SECONDS,
            "unacked_restore_throttle": 1,
        },
        "RESULTS_MAIL_CHECK_EVERY_SECONDS": every,
        "RESULTS_MAIL_STALLED_SECONDS": integer("RESULTS_MAIL_STALLED_SECONDS", 600, minimum=1),
        "RESULTS_MAIL_CHECK_HOURS": integer("RESULTS_MAIL_CHECK_HOURS", 24, minimum=1),
        "CELERY_BEAT_SCHEDULE": schedule | {"requeue-stalled-results-mail": entry},
    }
