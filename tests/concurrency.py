"""Writers racing each other with real commits, for the concurrency tests (``transaction=True``).

Every writer runs in its own thread with its own database connection (closed at its end):
``prepare()`` first (a request reading what it acts on), then a barrier releases the writers
together so that they overlap, and ``act(prepared)`` runs. PostgreSQL is where the races are real
(row locks, deadlocks); on SQLite the IMMEDIATE transactions serialise the writers and the same
tests check that whichever order they run in, the outcome is sound."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection

from scoring.rules import RuleViolation

TIMEOUT = 60

#: A writer: ``(prepare, act)``.
Writer = tuple[Callable[[], Any], Callable[[Any], Any]]


def race(*writers: Writer) -> list[tuple[str, Any]]:
    """Run the writers in threads released together; returns, in writer order, ``("done",
    result)``, ``("refused", RuleViolation)`` or ``("error", exception)`` (a database error, a
    deadlock...: the tests say whether any is acceptable; none ever is)."""
    barrier = threading.Barrier(len(writers))
    outcomes: list[Any] = [None] * len(writers)
    broken: list[BaseException] = []

    def work(index: int) -> None:
        prepare, act = writers[index]
        try:
            prepared = prepare()
            barrier.wait(timeout=TIMEOUT)
            try:
                outcomes[index] = ("done", act(prepared))
            except RuleViolation as refusal:
                outcomes[index] = ("refused", refusal)
            except Exception as error:  # returned: the test decides
                outcomes[index] = ("error", error)
        except BaseException as error:  # a broken set-up: reported below
            broken.append(error)
            barrier.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(writers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a writer never finished"
    assert not broken, broken
    return outcomes
