"""The points schemes (``SCHEMES``): how one result turns into points, and the placement points
by table size (``DEFAULT_PLACEMENT_POINTS``, ``fair_row``)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from .records import ZERO, PlacementTable, Result

#: What a new competition uses (a stored competition keeps what it was created with).
DEFAULT_SCHEME = "fair_placement"

DEFAULT_PLACEMENT_POINTS: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {
        2: (2, 0),
        3: (4, 2, 0),
        4: (3, 2, 1, 0),
        5: (4, 3, 2, 1, 0),
        6: (5, 4, 3, 2, 1, 0),
    }
)


@dataclass(frozen=True, slots=True)
class Scheme:
    """A way of turning one result into points.

    ``points(result, shared, table)`` gets the result, how many entrants share its place at that
    table (1 when alone) and the placement points per table size in force. ``depends_on(result,
    shared)`` names what the points depend on: results with equal keys get equal points, and
    ``points`` is called once per distinct key.
    """

    key: str
    label: str
    points: Callable[[Result, int, PlacementTable], Fraction]
    depends_on: Callable[[Result, int], Hashable]


def _placement(result: Result, shared: int, table: PlacementTable) -> Fraction:
    try:
        row = table[result.competitors]
    except KeyError:
        raise ValueError(f"no placement points for tables of {result.competitors}") from None
    covered = row[result.place - 1 : result.place - 1 + shared]
    return sum(covered, ZERO) / shared


#: What first place is worth at every table size under ``fair_placement``.
FAIR_FIRST = 100


def fair_row(size: int) -> tuple[Fraction, ...]:
    """``fair_placement`` points by place at a table of ``size``: the share of the other
    competitors beaten, out of 100 (4 seats: 100, 66 2/3, 33 1/3, 0; 3 seats: 100, 50, 0)."""
    return tuple(Fraction(FAIR_FIRST * (size - place), size - 1) for place in range(1, size + 1))


def _fair_placement(result: Result, shared: int, table: PlacementTable) -> Fraction:
    covered = fair_row(result.competitors)[result.place - 1 : result.place - 1 + shared]
    return sum(covered, ZERO) / shared


def _game_score(result: Result, shared: int, table: PlacementTable) -> Fraction:
    return Fraction(-result.score if result.lowest_wins else result.score)


def _matches_won(result: Result, shared: int, table: PlacementTable) -> Fraction:
    if result.place != 1:
        return ZERO
    return Fraction(1) if shared == 1 else Fraction(1, 2)


SCHEMES: dict[str, Scheme] = {
    scheme.key: scheme
    for scheme in (
        Scheme(
            "placement",
            "Placement points",
            _placement,
            lambda result, shared: (result.competitors, result.place, shared),
        ),
        Scheme(
            "fair_placement",
            "Placement points, fair across table sizes",
            _fair_placement,
            lambda result, shared: (result.competitors, result.place, shared),
        ),
        Scheme(
            "game_score",
            "Game score",
            _game_score,
            lambda result, shared: (result.score, result.lowest_wins),
        ),
        Scheme(
            "matches_won",
            "Games won",
            _matches_won,
            lambda result, shared: (result.place == 1, shared == 1),
        ),
    )
}
