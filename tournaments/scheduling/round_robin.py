"""Round robins for two-sided play (players or pairs): everyone meets everyone once, or twice.

Berger tables by the circle method (:func:`~.designs.berger`): with an odd count a dummy entrant is
added and whoever meets it has a bye. Seat 0 of each table is the side that deals or plays first;
it alternates round by round as much as possible, and in a double round robin the second half
repeats the first with the sides swapped, so each pair has each side first once.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import replace

from .base import Round, Schedule, measure
from .designs import berger
from .rotation import check_players


def round_robin(entrants: Iterable[int], *, double: bool = False) -> Schedule:
    """All the rounds of a (double) round robin of ``entrants``: n - 1 rounds for an even count,
    n rounds with one bye each for an odd count (twice as many when ``double``)."""
    started = time.perf_counter()
    entrants = check_players(entrants)
    n = len(entrants)
    if n < 2:
        raise ValueError("a round robin needs at least 2 entrants")
    rounds = []
    for games in berger(n + n % 2):
        tables, byes = [], []
        for first, second in games:
            if n in (first, second):
                byes.append(entrants[first + second - n])
            else:
                tables.append((entrants[first], entrants[second]))
        rounds.append(Round(tuple(tables), tuple(byes)))
    if double:
        rounds += [Round(tuple(t[::-1] for t in r.tables), r.byes) for r in rounds]
    metrics = replace(measure(rounds, entrants), seconds=time.perf_counter() - started)
    return Schedule(tuple(rounds), metrics, entrants, "circle method (Berger tables)")
