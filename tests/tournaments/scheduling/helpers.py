"""Checks shared by the scheduling tests."""

from collections import Counter
from itertools import combinations

from tournaments.scheduling import Round


def assert_valid_round(round_: Round, players, allowed_sizes) -> None:
    """Every player seated or on a bye exactly once, nobody else, every table of an allowed size."""
    everyone = [p for table in round_.tables for p in table] + list(round_.byes)
    assert sorted(everyone) == sorted(players)
    assert all(len(table) in set(allowed_sizes) for table in round_.tables)


def assert_fair_byes(rounds, players) -> None:
    """Nobody gets a bye while a seated player has had fewer byes."""
    had = Counter()
    for round_ in rounds:
        seated = [p for table in round_.tables for p in table]
        if round_.byes and seated:
            assert max(had[p] for p in round_.byes) <= min(had[p] for p in seated)
        had.update(round_.byes)


def meetings(rounds) -> Counter:
    return Counter(
        tuple(sorted(pair)) for r in rounds for table in r.tables for pair in combinations(table, 2)
    )
