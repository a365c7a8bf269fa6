"""Splitting the players present into tables of allowed sizes, nearest the preferred size.

Vocabulary: the *field* is the players present; a *split* is the table sizes they sit at plus the
byes; the *preferred* (``ideal``) size is the competition's (else the game's); the allowed sizes
are the competition's range (inside the game's ``min_seats … max_seats``). A table is *off* when
its size is not the preferred one, and its *deviation* is how far off it is.

"Nearest the preferred size" is the order of these keys, each deciding only among splits equal
on the keys before it (``docs/seating.md`` works through examples):

1. the fewest byes (a bye is the last resort: only when no split of allowed sizes seats everyone);
2. the smallest largest deviation (22 at 3 to 8, preferred 5: 6 + 6 + 5 + 5, never 7 + 5 + 5 + 5);
3. the fewest tables off the preferred size;
4. the smallest total deviation;
5. more tables (smaller ones), then the larger sizes first: only so that the answer is unique.

Searching the optimum needs only splits of a particular shape, by two exchanges that never make a
split worse by these keys: a table above the preferred size ``p`` and one below become one at
``p`` and one nearer (or two at ``p``), so the off tables of an optimum are all above ``p`` or all
below; and ``p`` tables of size ``p + d`` seat as many as ``p + d`` tables of ``p``, so an optimum
has fewer than ``p`` tables of any one off size. Those shapes are few (at most ``p`` to the power
of the number of sizes on one side), listed once per range and preferred size.

A field smaller than every allowed table cannot be seated at all: ``NoTableFits``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import product

from .base import Partition


class NoTableFits(ValueError):
    """Too few players for the smallest allowed table: no round can be drawn."""


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


def nearness(sizes: Iterable[int], ideal: int) -> tuple[int, int, int, int]:
    """Keys 2 to 5 of the module docstring for the tables ``sizes`` (smaller is nearer)."""
    sizes = tuple(sizes)
    deviations = [abs(size - ideal) for size in sizes]
    return (
        max(deviations, default=0),
        sum(1 for d in deviations if d),
        sum(deviations),
        -len(sizes),
    )


@lru_cache(maxsize=256)
def _off_tables(allowed: tuple[int, ...], ideal: int) -> dict[int, list[tuple[int, ...]]]:
    """The candidate sets of off tables (see the module docstring), by their seats modulo the
    preferred size, each list sorted nearest first, ties by the larger sizes first."""
    found: dict[int, list[tuple[tuple, int, tuple[int, ...]]]] = {}
    for side in ([s for s in allowed if s < ideal], [s for s in allowed if s > ideal]):
        for counts in product(range(ideal), repeat=len(side)):
            tables = tuple(
                sorted(
                    (s for s, c in zip(side, counts, strict=True) for _ in range(c)), reverse=True
                )
            )
            seats = sum(tables)
            found.setdefault(seats % ideal, []).append((_order(tables, ideal), seats, tables))
    return {
        residue: [(seats, tables) for _key, seats, tables in sorted(rows)]
        for residue, rows in found.items()
    }


def _order(off: tuple[int, ...], ideal: int) -> tuple:
    # The number of tables depends on the field, but the off tables alone rank the candidates
    # of one field: every candidate of a field seats the same players, so a candidate whose off
    # tables seat fewer has more tables of ``ideal`` by the same count and key 5 compares
    # ``len(off) - seats / ideal``.
    maximum, off_count, total, _tables = nearness(off, ideal)
    seats = sum(off)
    return (maximum, off_count, total, seats - len(off) * ideal, tuple(-s for s in off))


def table_sizes(n_players: int, allowed_sizes: Iterable[int], ideal: int) -> Partition:
    """Table sizes for ``n_players`` (largest first) and the byes, nearest the preferred size
    ``ideal`` (module docstring): e.g. 13 at tables of 3 or 4 (preferred 3) → ``[4, 3, 3, 3]``;
    22 at 3 to 6 (preferred 5) → ``[6, 6, 5, 5]``; 7 at 5 or 6 → ``[6]`` and 1 bye. With a
    single size ``k``, ``n mod k`` byes. ``NoTableFits`` when not even one table fills."""
    allowed = check_sizes(allowed_sizes, ideal)
    if n_players < 0:
        raise ValueError("the number of players cannot be negative")
    if n_players < allowed[0]:
        raise NoTableFits(f"{n_players} players cannot fill a table of {allowed[0]}")
    candidates = _off_tables(allowed, ideal)
    byes = 0
    while True:  # ends by ``n_players - allowed[0]`` byes at the latest: one smallest table
        seated = n_players - byes
        for seats, off in candidates.get(seated % ideal, ()):
            if seats <= seated:
                sizes = sorted((*off, *([ideal] * ((seated - seats) // ideal))), reverse=True)
                return Partition(tuple(sizes), byes)
        byes += 1
