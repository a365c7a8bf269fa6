"""Sending work to the Celery worker without ever losing it.

``enqueue_on_commit(task, *args)`` (a task or its name) is how a write asks for background work (a rating, standings,
an announcement): after the transaction commits, the task runs in this process when tasks run
eagerly (no broker configured), and is sent to the broker otherwise. When the broker does not
answer, the request still succeeds: the task is stored as a ``PendingTask`` row and the worker's
periodic ``run_pending_tasks`` (every minute, ``CELERY_BEAT_SCHEDULE``) runs it once the broker
is back. A task is only ever sent or stored, never both.
"""

from __future__ import annotations

import logging

from celery import current_app
from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

from scoring.links import request_origin
from scoring.models import PendingTask

log = logging.getLogger(__name__)

#: What a broker that does not answer raises when a task is sent.
BROKER_DOWN = (BrokerError, RedisError, OSError)


def enqueue(task, *args) -> None:
    """Run or send ``task(*args)`` now (the caller has committed): see the module docstring.
    ``task`` is the task or its name (``"tournaments.tasks.announce_round"``): a service names
    the task it asks for, so that it never imports the tasks that call it back."""
    if isinstance(task, str):
        task = current_app.tasks[task]
    if settings.CELERY_TASK_ALWAYS_EAGER:
        task.apply(args)  # as Celery runs an eager task, its retries included
        return
    try:
        task.apply_async(args, retry=False)
    except BROKER_DOWN as error:
        log.error(
            "queue: the broker does not answer (%s); %s%r kept for later", error, task.name, args
        )
        PendingTask.objects.create(name=task.name, args=list(args))


def enqueue_on_commit(task, *args) -> None:
    """``enqueue`` once the current transaction commits (at once outside a transaction)."""
    transaction.on_commit(lambda: enqueue(task, *args))


def mail_on_commit(task, *args) -> None:
    """``enqueue_on_commit`` for a task that e-mails links: the address of the request being
    answered (``scoring.links.request_origin``, ``""`` for none) is its last argument, and the
    task makes its links on it (``scoring.links.serving``), not on a default host and port."""
    enqueue_on_commit(task, *args, request_origin())


def run_pending(limit: int = 500) -> int:
    """Run the tasks kept while the broker was down, oldest first, each in this process and
    each at most once (a row is taken under a lock no other run waits for, and deleted in the
    same transaction as its run). A task that fails stays, counted, for the next run. Returns
    the number of tasks run."""
    done = 0
    for pk in PendingTask.objects.values_list("pk", flat=True)[:limit]:
        with transaction.atomic():
            row = PendingTask.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
            if row is None:
                continue
            try:
                with transaction.atomic():
                    current_app.tasks[row.name](*row.args)
            except Exception:  # a task's own failure: logged, kept for the next run
                log.exception("queue: kept task %s failed again", row)
                PendingTask.objects.filter(pk=pk).update(failures=row.failures + 1)
                continue
            row.delete()
            done += 1
    return done
