"""Seeded knockout brackets.

The bracket has ``P`` slots, ``P`` the power of two at or above the number of entrants, in the
standard seeding order (1 v 16, 8 v 9, 4 v 13, 5 v 12, …: seeds ``s`` and ``P + 1 - s`` meet first,
and the top two seeds can only meet in the final). Slots of missing seeds are byes, so the byes go
to the top seeds; a seed with a bye enters in round 2. Matches are numbered from 1, round by round;
a later match takes the winners of two earlier matches (or a seed who had a bye), and the optional
third-place match takes the losers of the semi-finals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
    #: ``"single"``, or ``"double"`` for :mod:`.double_elimination`, whose rounds are stages.
    kind: str = "single"
    #: Double elimination: ``(match number, section, round in that section)`` for every match.
    labels: tuple[tuple[int, str, int], ...] = ()

    @property
    def final(self) -> Match:
        return self.rounds[-1][0]

    @classmethod
    def from_json(cls, data: Mapping) -> Bracket:
        """The bracket stored as JSON: ``{"entrants", "rounds": [[{"number", "home": [kind,
        ref], "away": [kind, ref]}, …], …], "third_place": match or null, "byes"}``."""

        def match(spec: Mapping, round_: int) -> Match:
            return Match(spec["number"], round_, Slot(*spec["home"]), Slot(*spec["away"]))

        third = data.get("third_place")
        rounds = data["rounds"]
        return cls(
            tuple(data["entrants"]),
            tuple(tuple(match(m, i) for m in r) for i, r in enumerate(rounds, start=1)),
            match(third, len(rounds)) if third else None,
            tuple(data.get("byes") or ()),
            data.get("kind", "single"),
            tuple((n, section, r) for n, section, r in data.get("labels") or ()),
        )


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


# --------------------------------------------------------------------------------------------
# Round names and the final ranking
# --------------------------------------------------------------------------------------------

FINAL, SEMI_FINALS, QUARTER_FINALS, ROUND_OF = "final", "semi_finals", "quarter_finals", "round_of"


def round_name(index: int, total: int) -> tuple[str, int]:
    """The name of round ``index`` (0-based) of a bracket of ``total`` rounds, as a key and the
    number of entrants that round is named after: ``("final", 2)``, ``("semi_finals", 4)``,
    ``("quarter_finals", 8)``, then ``("round_of", 16)``, ``("round_of", 32)``, … (a first round
    with byes keeps the name of its full size: 6 entrants play a quarter-final round)."""
    if not 0 <= index < total:
        raise ValueError(f"round {index} is not in a bracket of {total} rounds")
    size = 2 ** (total - index)
    names = {2: FINAL, 4: SEMI_FINALS, 8: QUARTER_FINALS}
    return names.get(size, ROUND_OF), size


@dataclass(frozen=True)
class Placing:
    """An entrant's place in the bracket's final ranking. ``place`` is shared (competition
    style: two semi-final losers without a third-place match are both 3rd, the next is 5th);
    while the bracket is played it is the best place the entrant can still reach, and
    ``decided`` says whether it is final. ``out_in`` is the 0-based round where the entrant
    lost (``None`` while it has not lost, or for the winner)."""

    entrant: int
    place: int
    decided: bool
    out_in: int | None


def ranking(bracket: Bracket, outcomes: Mapping[int, tuple[int, int]]) -> tuple[Placing, ...]:
    """The final ranking the bracket gives from ``outcomes`` (match number -> ``(winner,
    loser)``): 1 the winner of the final, 2 its loser; with a third-place match 3 its winner
    and 4 its loser, without one both semi-final losers 3; then the losers of each earlier
    round share the places that round covers (quarter-final losers 5, round-of-16 losers 9, …).
    Entrants still in the bracket share the best place they can still reach. Best first, ties
    by seed."""
    total = len(bracket.rounds)
    round_of_match = {m.number: i for i, matches in enumerate(bracket.rounds) for m in matches}
    out_in: dict[int, int] = {}
    for number, (_winner, loser) in outcomes.items():
        if number in round_of_match:
            out_in[loser] = round_of_match[number]
    third = bracket.third_place
    third_result = outcomes.get(third.number) if third is not None else None
    final_result = outcomes.get(bracket.final.number)
    placings = []
    for entrant in bracket.entrants:
        index = out_in.get(entrant)
        if index is None:
            won = final_result is not None and final_result[0] == entrant
            placings.append(Placing(entrant, 1, won, None))
            continue
        place = 2 ** (total - 1 - index) + 1
        decided = True
        if third is not None and index == total - 2:
            if third_result is None:
                decided = False
            elif third_result[1] == entrant:
                place = 4
        placings.append(Placing(entrant, place, decided, index))
    return tuple(sorted(placings, key=lambda p: (p.place, bracket.entrants.index(p.entrant))))


def occupant(slot: Slot, outcomes: Mapping[int, tuple[int, int]]) -> int | None:
    """Who holds ``slot`` given the ``outcomes`` so far (``None`` while its match is unplayed)."""
    if slot.kind == ENTRANT:
        return slot.ref
    result = outcomes.get(slot.ref)
    if result is None:
        return None
    return result[0] if slot.kind == WINNER else result[1]
