"""The beat check of the results e-mails (config/settings.py's RESULTS_MAIL_* settings and its
``CELERY_BEAT_SCHEDULE`` entry): every ``RESULTS_MAIL_CHECK_EVERY_SECONDS`` (60), a round closed
or a competition declared final in the last ``RESULTS_MAIL_CHECK_HOURS`` (24) whose results
e-mails are not all sent, and for which nothing happened (no e-mail sent, no re-queueing) for
``RESULTS_MAIL_STALLED_SECONDS`` (600), has its mailing task sent again
(``tournaments.services.results_mail.requeue_stalled``): a worker killed in the middle of it
delays the rest by at most that, whatever the broker's visibility timeout. Without a broker
nothing runs beat, and the mailing ran inside the request: the settings are read all the same."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def results_mail_check(integer: Callable[..., int], schedule: dict) -> dict[str, Any]:
    """The RESULTS_MAIL_* settings, read through ``integer``, and ``schedule`` (the settings'
    ``CELERY_BEAT_SCHEDULE``) with the check's entry."""
    every = integer("RESULTS_MAIL_CHECK_EVERY_SECONDS", 60, minimum=1)
    entry = {"task": "tournaments.tasks.requeue_stalled_results_mail", "schedule": every}
    return {
        "RESULTS_MAIL_CHECK_EVERY_SECONDS": every,
        "RESULTS_MAIL_STALLED_SECONDS": integer("RESULTS_MAIL_STALLED_SECONDS", 600, minimum=1),
        "RESULTS_MAIL_CHECK_HOURS": integer("RESULTS_MAIL_CHECK_HOURS", 24, minimum=1),
        "CELERY_BEAT_SCHEDULE": schedule | {"requeue-stalled-results-mail": entry},
    }
