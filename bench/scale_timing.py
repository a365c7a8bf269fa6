"""How bench/scale.py times an operation in its two databases: each database has its own
connection, kept open while the other is used (``use``), and the two take turns call by call
(``measure``), so that both medians are taken over the same minutes of a shared machine.

Imported by bench/scale.py (by its own name, as a script's sibling is).
"""

from __future__ import annotations

import gc
import statistics
import time

#: An operation whose warm-up calls both took under this many milliseconds is called
#: ``QUICK_FACTOR`` times as often: a call of a few milliseconds is mostly a commit, whose flush
#: under a CI run's load on the same server took 2, 4 or 9 ms by turns in both databases (80
#: purges each: the same median, as many slow ones), so that medians of 15 fell 1.3 apart.
QUICK_MS = 10.0
QUICK_FACTOR = 3

#: Django's connection to each database, kept open while the other is used (``use``).
_connections: dict[str, object] = {}
#: The cache's key prefix before ``use`` gave each database its own.
_prefix: list[str] = []


def use(name: str) -> None:
    """Point Django's default connection at database ``name``: its own connection, made the
    first time and kept while the other database is used (switching back and forth between two
    measures reconnects nobody: a service's calls keep their server process, as they would in a
    worker), and its own keys in the cache (the two databases' users and tokens share ids)."""
    from django.core.cache import cache
    from django.db import connections

    if not _connections:
        connections["default"].close()  # setup_django's, to the big database
    if name not in _connections:
        wrapper = connections.create_connection("default")
        wrapper.settings_dict = {**wrapper.settings_dict, "NAME": name}
        _connections[name] = wrapper
    connections["default"] = _connections[name]
    if not _prefix:
        _prefix.append(cache.key_prefix)
    cache.key_prefix = f"{_prefix[0]}:{name}"


def close_all() -> None:
    """Close the connection to each database (before they are dropped)."""
    for wrapper in _connections.values():
        wrapper.close()


def interleaved(runs: int) -> list[tuple[str, str]]:
    """The order of the two databases in each of ``runs`` rounds of a measure: small then big,
    then big then small, and so on. The two medians are taken over the same minutes, so that
    a neighbour's load, as it comes and goes on a shared machine, weighs on both alike."""
    return [("small", "big") if i % 2 == 0 else ("big", "small") for i in range(runs)]


def measure(
    calls: dict[str, tuple], runs: int, *, quick_factor: int = QUICK_FACTOR
) -> dict[str, tuple[float, int]]:
    """``calls``: for "small" and "big", the database's name, the set-up (None, or returning the
    timed call's argument) and the timed call. Returns for each the median milliseconds of
    ``runs`` calls (``quick_factor`` times as many when the warm-up calls took under
    ``QUICK_MS``), the databases taking turns call by call (``interleaved``) after one warm-up
    call in each, and the queries of one more call."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    def once(key: str) -> float:
        name, setup, call = calls[key]
        use(name)
        argument = setup() if setup else None
        connection.ensure_connection()
        started = time.perf_counter()
        call(argument)
        return (time.perf_counter() - started) * 1000

    warm_up = [once(key) for key in calls]
    if max(warm_up) < QUICK_MS:
        runs *= quick_factor
    gc.collect()
    times: dict[str, list[float]] = {key: [] for key in calls}
    for order in interleaved(runs):
        for key in order:
            times[key].append(once(key))
    measured = {}
    for key, (name, setup, call) in calls.items():
        use(name)
        argument = setup() if setup else None
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            call(argument)
        measured[key] = (statistics.median(times[key]), len(captured.captured_queries))
    return measured
