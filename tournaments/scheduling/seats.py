"""How many sit at a table of a competition: the one place that decides it.

Three things hold a part of the answer, and only :func:`table_seats` puts them together:

* the **game's bounds** (its rules: ``min_seats … max_seats`` around ``ideal_seats``, and the
  sizes at which the dealer sits out, ``dealer_sits_out_with``: Terziglio 3–4 around 3, out at 4);
* the competition's **range**, ``min_table_size … max_table_size`` (empty: the game's own), cut
  to the game's bounds;
* the competition's **preferred size**, ``table_size`` (empty, or outside the range: the size in
  range nearest the game's ideal, the smaller of two), and its **format**: a two-sided format
  (round robin, a bracket) or Briscola pairs seats two competitors a table, and a pair is two
  players, so a game of pairs has four.

``Competition.table_seats`` calls it with a competition's fields; ``table_range``,
``table_policy`` and ``game_sizes`` give parts of its answer. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Protocol


class GameBounds(Protocol):
    """What a game's rules say about its table (``scoring.rules.Ruleset``)."""

    min_seats: int
    max_seats: int
    ideal_seats: int
    dealer_sits_out_with: Collection[int]


@dataclass(frozen=True)
class TableSeats:
    """A table of a competition for one game.

    ``range``: the game's sizes cut to the competition's range (empty when they leave none: the
    services refuse such settings). ``sizes``: the table sizes a draw may use, in competitors
    (``range``, the game's whole range if that is empty, ``(2,)`` when two-sided). ``ideal``: the
    preferred one of ``sizes``. ``sitting_out``: the table size from which the dealer sits out
    (0: never). ``players``: how many players a game at such a table may have."""

    range: tuple[int, ...]
    sizes: tuple[int, ...]
    ideal: int
    sitting_out: int
    players: tuple[int, ...]


def table_seats(
    game: GameBounds,
    *,
    smallest: int | None = None,
    largest: int | None = None,
    preferred: int | None = None,
    two_sided: bool = False,
    pairs: bool = False,
) -> TableSeats:
    """The seats of a table of ``game`` in a competition with the range ``smallest …
    largest`` and the ``preferred`` size (each None: the game's), ``two_sided`` (round robin,
    brackets) or of ``pairs`` (Briscola pairs: two players a competitor)."""
    low = max(game.min_seats, smallest or game.min_seats)
    high = min(game.max_seats, largest or game.max_seats)
    cut = tuple(range(low, high + 1))
    if two_sided or pairs:
        return TableSeats(cut, (2,), 2, 0, (4,) if pairs else (2,))
    sizes = cut or tuple(range(game.min_seats, game.max_seats + 1))
    if preferred in sizes:
        ideal = preferred
    else:
        ideal = min(sizes, key=lambda size: (abs(size - game.ideal_seats), size))
    sitting_out = min(game.dealer_sits_out_with) if game.dealer_sits_out_with else 0
    return TableSeats(cut, sizes, ideal, sitting_out, sizes)
