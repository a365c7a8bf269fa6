"""Who beat whom in a competition, from the same plain ``Result`` records as the standings.

Two entrants *met* in a game when both have a result in it. Each meeting is seen from one side
(``entrant``) against the other (``opponent``): its place and score beside the opponent's. At a
two-sided table (Briscola singles or pairs: two competitors) a meeting is a match, won, lost or
drawn, with its score; at a table of three or more it only says who finished ahead of whom
(places shared in competition style count as level). Pure and deterministic: the same records in
any order give the same pairs, meetings in game order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from .records import Result

WON, LOST, DRAWN = "won", "lost", "drawn"


@dataclass(frozen=True)
class Meeting:
    """One game where ``Pair.entrant`` met ``Pair.opponent``, seen from the entrant."""

    game: int
    group: Hashable
    place: int
    opponent_place: int
    score: int | Fraction | None
    opponent_score: int | Fraction | None
    competitors: int

    @property
    def outcome(self) -> str:
        """``won`` (finished ahead), ``lost`` (behind) or ``drawn`` (sharing the place)."""
        if self.place < self.opponent_place:
            return WON
        return LOST if self.place > self.opponent_place else DRAWN


@dataclass(frozen=True)
class Pair:
    """Every meeting of ``entrant`` with ``opponent``, in game order."""

    entrant: int
    opponent: int
    meetings: tuple[Meeting, ...]

    def count(self, outcome: str) -> int:
        return sum(1 for m in self.meetings if m.outcome == outcome)

    @property
    def ahead(self) -> int:
        """The games where the entrant finished ahead of the opponent."""
        return self.count(WON)

    @property
    def behind(self) -> int:
        return self.count(LOST)

    @property
    def level(self) -> int:
        return self.count(DRAWN)


def head_to_head(results: Iterable[Result]) -> dict[tuple[int, int], Pair]:
    """Every ordered pair ``(entrant, opponent)`` that met, both ways round."""
    by_game: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        by_game[result.game].append(result)
    meetings: dict[tuple[int, int], list[Meeting]] = defaultdict(list)
    for game in sorted(by_game):
        seated = by_game[game]
        for one in seated:
            for other in seated:
                if one.entrant != other.entrant:
                    meetings[one.entrant, other.entrant].append(_meeting(one, other))
    return {
        key: Pair(key[0], key[1], tuple(sorted(found, key=_order)))
        for key, found in sorted(meetings.items())
    }


def _meeting(one: Result, other: Result) -> Meeting:
    return Meeting(
        game=one.game,
        group=one.group,
        place=one.place,
        opponent_place=other.place,
        score=one.score,
        opponent_score=other.score,
        competitors=one.competitors,
    )


def _order(meeting: Meeting) -> tuple:
    return (repr(meeting.group), meeting.game)


def two_sided(results: Iterable[Result]) -> bool:
    """Whether every game of these results was between two competitors (a match)."""
    return all(r.competitors == 2 for r in results)
