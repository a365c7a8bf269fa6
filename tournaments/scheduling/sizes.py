"""Splitting the players present into tables of allowed sizes.

Byes are the last resort: first the fewest byes, then as many tables of the ideal size as
possible, then the other tables as close to the ideal as possible (smallest total deviation, then
smallest largest deviation, then more tables).
"""

from __future__ import annotations

from collections.abc import Iterable

from .base import Partition


def check_sizes(allowed_sizes: Iterable[int], ideal: int) -> tuple[int, ...]:
    """The allowed sizes, sorted and checked (at least 2 seats, the ideal among them)."""
    allowed = tuple(sorted(set(allowed_sizes)))
    if not allowed:
        raise ValueError("at least one table size must be allowed")
    if allowed[0] < 2:
        raise ValueError("a table needs at least 2 seats")
    if ideal not in allowed:
        raise ValueError(f"the ideal table size {ideal} is not among the allowed sizes {allowed}")
    return allowed


def table_sizes(n_players: int, allowed_sizes: Iterable[int], ideal: int) -> Partition:
    """Table sizes for ``n_players``: e.g. 13 players at tables of 3 or 4 (ideal 3) → ``[4, 3, 3,
    3]``, 14 → ``[4, 4, 3, 3]``, 5 → ``[4]`` and 1 bye. With a single size ``k``, ``n mod k`` byes.
    """
    allowed = check_sizes(allowed_sizes, ideal)
    if n_players < 0:
        raise ValueError("the number of players cannot be negative")
    others = [s for s in allowed if s != ideal]
    # best[v]: the best way to seat exactly v players at non-ideal tables, as a sort key and sizes
    best: list[tuple[tuple[int, int, int], tuple[int, ...]] | None] = [None] * (n_players + 1)
    best[0] = ((0, 0, 0), ())
    for value in range(1, n_players + 1):
        for size in others:
            if size <= value and best[value - size] is not None:
                (total, worst, tables), sizes = best[value - size]  # type: ignore[misc]
                deviation = abs(size - ideal)
                key = (total + deviation, max(worst, deviation), tables - 1)
                if best[value] is None or key < best[value][0]:  # type: ignore[index]
                    best[value] = (key, (*sizes, size))
    for byes in range(n_players):
        seated = n_players - byes
        for ideal_tables in range(seated // ideal, -1, -1):
            rest = best[seated - ideal_tables * ideal]
            if rest is not None:
                sizes = sorted((*rest[1], *([ideal] * ideal_tables)), reverse=True)
                return Partition(tuple(sizes), byes)
    return Partition((), n_players)
