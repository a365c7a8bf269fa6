"""The records the standings read and give: a game's ``Result`` and an organizer's
``Adjustment`` in, a ``Row`` per entrant and the ``Standings`` out; and the number types
(``Value``: a ``Fraction`` or an ``int``)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

Value = Fraction | int
PlacementTable = Mapping[int, tuple[Fraction, ...]]

ZERO = Fraction(0)


@dataclass(frozen=True, slots=True)
class Result:
    """One entrant's outcome in one game."""

    entrant: int
    game: int
    group: Hashable
    place: int
    competitors: int
    score: int
    lowest_wins: bool = False
    opponents: tuple[int, ...] = ()
    hands_won: int | None = None
    card_points: int | None = None
    ruleset: str = ""

    def __post_init__(self) -> None:
        if self.competitors < 2:
            raise ValueError(f"a table has at least 2 competitors, not {self.competitors}")
        if not 1 <= self.place <= self.competitors:
            raise ValueError(f"place {self.place} is not between 1 and {self.competitors}")
        if self.entrant in self.opponents:
            raise ValueError(f"entrant {self.entrant} cannot be its own opponent")
        if len(self.opponents) >= self.competitors:
            raise ValueError(
                f"{len(self.opponents)} opponents at a table of {self.competitors} competitors"
            )


@dataclass(frozen=True, slots=True)
class Adjustment:
    """Points given (or, negative, taken) directly by the organizer, on top of the scheme's."""

    entrant: int
    group: Hashable
    points: Fraction | int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Row:
    """One entrant's line of the standings."""

    entrant: int
    rank: int | None
    ranked: bool
    points: Fraction
    games_played: int
    groups_played: int
    wins: int
    values: dict[str, Value] = field(hash=False)
    counted_groups: tuple[Hashable, ...] = ()
    #: The scheme's points of each group played, in the groups' order (counted or not).
    group_points: tuple[tuple[Hashable, Fraction], ...] = field(default=(), hash=False)


@dataclass(frozen=True, slots=True)
class Standings:
    """The standings: ``rows`` by rank (unranked last), ``columns`` the tie-breaks' (key, label)."""

    rows: tuple[Row, ...]
    columns: tuple[tuple[str, str], ...]
    scheme: str

    def row(self, entrant: int) -> Row:
        """The row of ``entrant`` (``KeyError`` when it is not in the standings)."""
        for row in self.rows:
            if row.entrant == entrant:
                return row
        raise KeyError(entrant)
