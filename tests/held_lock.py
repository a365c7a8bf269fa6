"""A row lock held from a second connection while a service runs (``transaction=True`` tests).

``while_held(hold, service)``: a thread with its own connection opens a transaction, runs
``hold()`` in it (e.g. a hand being entered: its game's row locked, the hand inserted, not yet
committed), and keeps it open; then ``service()`` runs in another thread. Once the service waits
on a lock (PostgreSQL: a backend of this database waits on a ``Lock``) or has ended, the holder
commits. On SQLite the holder's IMMEDIATE transaction holds the database's one write lock, so the
service waits for it as it would for the row; the holder commits once the service thread runs.
Returns the service's outcome, ``("done", result)`` or ``("refused", exception)``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction

from scoring.rules import RuleViolation

TIMEOUT = 60


def _someone_waits() -> bool:
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND datname = current_database()"
        )
        return cursor.fetchone()[0] > 0


def while_held(hold: Callable[[], Any], service: Callable[[], Any]) -> tuple[str, Any]:
    held, release = threading.Event(), threading.Event()
    outcome: list[Any] = []
    broken: list[BaseException] = []

    def holder() -> None:
        try:
            with transaction.atomic():
                hold()
                held.set()
                release.wait(TIMEOUT)
        except BaseException as error:
            broken.append(error)
            held.set()
        finally:
            connection.close()

    def run() -> None:
        try:
            outcome.append(("done", service()))
        except RuleViolation as refusal:
            outcome.append(("refused", refusal))
        except BaseException as error:
            outcome.append(("error", error))
        finally:
            connection.close()

    holding = threading.Thread(target=holder)
    holding.start()
    held.wait(TIMEOUT)
    assert not broken, broken
    running = threading.Thread(target=run)
    running.start()
    deadline = time.monotonic() + 10  # a service that never waits is let through after this
    time.sleep(0.2)
    while running.is_alive() and not _someone_waits() and time.monotonic() < deadline:
        time.sleep(0.05)
    release.set()
    holding.join(TIMEOUT)
    running.join(TIMEOUT)
    connection.close()
    assert not broken, broken
    assert not running.is_alive(), "the service never finished"
    return outcome[0]
