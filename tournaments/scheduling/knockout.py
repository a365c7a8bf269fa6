"""Seeded knockout brackets.

The bracket has ``P`` slots, ``P`` the power of two at or above the number of entrants, in the
standard seeding order (1 v 16, 8 v 9, 4 v 13, 5 v 12, …: seeds ``s`` and ``P + 1 - s`` meet first,
and the top two seeds can only meet in the final). Slots of missing seeds are byes, so the byes go
to the top seeds; a seed with a bye enters in round 2. Matches are numbered from 1, round by round;
a later match takes the winners of two earlier matches (or a seed who had a bye), and the optional
third-place match takes the losers of the semi-finals.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .rotation import check_players

ENTRANT, WINNER, LOSER = "entrant", "winner", "loser"


@dataclass(frozen=True)
class Slot:
    """One side of a match: an entrant (``ref`` is the entrant) or the winner or loser of match
    number ``ref``."""

    kind: str
    ref: int

    def __str__(self) -> str:
        return str(self.ref) if self.kind == ENTRANT else f"{self.kind} of match {self.ref}"


@dataclass(frozen=True)
class Match:
    number: int
    round: int
    home: Slot
    away: Slot


@dataclass(frozen=True)
class Bracket:
    """``entrants`` by seed (best first), ``rounds`` of matches (the last holds the final), the
    third-place match if asked for, and the entrants whose first match is in round 2."""

    entrants: tuple[int, ...]
    rounds: tuple[tuple[Match, ...], ...]
    third_place: Match | None
    byes: tuple[int, ...]

    @property
    def final(self) -> Match:
        return self.rounds[-1][0]


def seeding_order(size: int) -> list[int]:
    """Seeds 1 … size in bracket order: ``[1, 4, 2, 3]`` for 4, ``[1, 8, 4, 5, 2, 7, 3, 6]``
    for 8 (``size`` a power of two)."""
    order = [1]
    while len(order) < size:
        order = [x for s in order for x in (s, 2 * len(order) + 1 - s)]
    return order


def knockout(seeds: Iterable[int], *, third_place: bool = False) -> Bracket:
    """The bracket for ``seeds`` (entrants best first, at least 2; a third-place match needs 4)."""
    entrants = check_players(seeds)
    n = len(entrants)
    if n < 2:
        raise ValueError("a knockout needs at least 2 entrants")
    if third_place and n < 4:
        raise ValueError("a third-place match needs at least 4 entrants")
    size = 1
    while size < n:
        size *= 2
    slots = [Slot(ENTRANT, entrants[s - 1]) if s <= n else None for s in seeding_order(size)]
    rounds: list[tuple[Match, ...]] = []
    byes = []
    number = 0
    while len(slots) > 1:
        matches, advancing = [], []
        for home, away in zip(slots[::2], slots[1::2], strict=True):
            if away is None:
                byes.append(home.ref)  # type: ignore[union-attr]
                advancing.append(home)
                continue
            number += 1
            matches.append(Match(number, len(rounds) + 1, home, away))  # type: ignore[arg-type]
            advancing.append(Slot(WINNER, number))
        rounds.append(tuple(matches))
        slots = advancing
    third = None
    if third_place:
        semis = rounds[-2]
        third = Match(
            number + 1, len(rounds), Slot(LOSER, semis[0].number), Slot(LOSER, semis[1].number)
        )
    return Bracket(entrants, tuple(rounds), third, tuple(sorted(byes, key=entrants.index)))
