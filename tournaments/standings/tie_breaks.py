"""The tie-breaks (``TIE_BREAKS``): what separates entrants tied on points, computed from a
``Tally`` of everyone's figures."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .records import ZERO, Value

#: Tie-breaks that separate entrants tied on points (``points`` itself separates nobody).
DEFAULT_TIE_BREAKS = ("wins", "opponents_strength")
#: Tie-breaks whose figures are in the game's own units: summed over different games they add
#: unlike things (Briscola hands won to Terziglio points). Hands won and card points exist
#: for Briscola only, and are compared between Briscola games alone.
GAME_UNIT_TIE_BREAKS = frozenset({"game_score"})


@dataclass(frozen=True, slots=True)
class Tally:
    """What the tie-breaks are computed from, for every entrant of the standings.

    For speed, points are also held as integers over one common denominator, ``scale``:
    ``scaled_points[e] == points[e] * scale``. ``meetings[e]`` has one ``(points earned * scale,
    opponents)`` pair per game ``e`` played; ``opponents_met[e]`` every opponent ``e`` met, once
    per meeting.
    """

    scale: int
    points: Mapping[int, Fraction]
    scaled_points: Mapping[int, int]
    game_score: Mapping[int, int]
    wins: Mapping[int, int]
    hands_won: Mapping[int, int]
    card_points: Mapping[int, int]
    games_played: Mapping[int, int]
    meetings: Mapping[int, tuple[tuple[int, tuple[int, ...]], ...]]
    opponents_met: Mapping[int, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class TieBreak:
    """A tie-break: ``value(tally, tied)`` gives the value of each of the ``tied`` entrants.

    ``tied`` is a group of entrants still tied when the tie-break is applied; only
    ``head_to_head`` depends on it. Higher values rank higher.
    """

    key: str
    label: str
    value: Callable[[Tally, Sequence[int]], Mapping[int, Value]]


def _lookup(attribute: str) -> Callable[[Tally, Sequence[int]], Mapping[int, Value]]:
    def value(tally: Tally, tied: Sequence[int]) -> Mapping[int, Value]:
        table = getattr(tally, attribute)
        return {entrant: table[entrant] for entrant in tied}

    return value


def _head_to_head(tally: Tally, tied: Sequence[int]) -> Mapping[int, Value]:
    members = set(tied)
    if len(members) < 2:
        return dict.fromkeys(tied, ZERO)
    return {
        entrant: Fraction(
            sum(
                points
                for points, opponents in tally.meetings[entrant]
                if not members.isdisjoint(opponents)
            ),
            tally.scale,
        )
        for entrant in tied
    }


def _opponents_strength(tally: Tally, tied: Sequence[int]) -> Mapping[int, Value]:
    """Per game, the mean of the opponents' final points (normalised by the table's size, so
    that a seat at a larger table does not count more opponents); summed over the games."""
    strength = tally.scaled_points.get
    return {
        entrant: sum(
            (
                Fraction(sum(strength(o, 0) for o in opponents), len(opponents) * tally.scale)
                for _points, opponents in tally.meetings[entrant]
                if opponents
            ),
            ZERO,
        )
        for entrant in tied
    }


TIE_BREAKS: dict[str, TieBreak] = {
    tie_break.key: tie_break
    for tie_break in (
        TieBreak("points", "Points", _lookup("points")),
        TieBreak("game_score", "Game score", _lookup("game_score")),
        TieBreak("wins", "Wins", _lookup("wins")),
        TieBreak("head_to_head", "Head to head", _head_to_head),
        TieBreak("opponents_strength", "Opponents' strength", _opponents_strength),
        TieBreak("hands_won", "Hands won", _lookup("hands_won")),
        TieBreak("card_points", "Card points", _lookup("card_points")),
        TieBreak("games_played", "Games played", _lookup("games_played")),
    )
}
