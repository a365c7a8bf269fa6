"""Floors under the unavoidable repeats of ``rounds`` rounds, shown to the organizer beside the
two objectives of :func:`~.rotation.rotation`:

* "fewest" — the fewest repeated meetings in all: :func:`~.rotation.repeat_floor` (pairs
  available, partners available, tables drawn from few earlier tables);
* "spread" — the fewest meetings of the pair that meets most: every pair meets at least the
  average number of times (the meetings of ``rounds`` rounds over the ``N (N - 1) / 2`` pairs),
  a player seated in every round meets his ``N - 1`` others at least his seat-partners' average,
  and once the "fewest" floor is above 0 some pair meets twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Partition
from .rotation import repeat_floor


@dataclass(frozen=True)
class RepeatBounds:
    """``fewest``: a floor under the repeated meetings in all; ``spread``: a floor under the most
    meetings of one pair (1 when nothing rules out a repeat-free schedule)."""

    fewest: int
    spread: int


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def repeat_bounds(partition: Partition, rounds: int) -> RepeatBounds:
    """Both floors for ``rounds`` rounds of ``partition`` (no history, no played rounds)."""
    n, sizes = partition.players, partition.sizes
    fewest = repeat_floor(partition, rounds)
    meetings = rounds * sum(s * (s - 1) // 2 for s in sizes)
    seated = rounds - rounds * partition.byes // n  # the player with the fewest byes
    spread = max(
        1,
        _ceil(meetings, n * (n - 1) // 2),
        _ceil(seated * (min(sizes) - 1), n - 1),
        2 if fewest else 1,
    )
    return RepeatBounds(fewest=fewest, spread=spread)
