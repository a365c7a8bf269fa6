"""Double elimination: out after two losses.

The winners' bracket is the seeded knockout of :mod:`.knockout` (``P`` slots, ``P`` the power of
two at or above the number of entrants, byes to the top seeds). Whoever loses there drops into
the losers' bracket: the losers of the first winners' round play each other, then each later
winners' round sends its losers against the survivors of the losers' bracket, whose survivors
then play each other again, down to one. The grand final sets the winners' bracket champion
against the losers' bracket champion; if the latter wins it, both have lost once and a second
grand final (the bracket reset) decides, unless the organizer chose a single grand final.

Drops are ordered so that two entrants who have just met do not meet again at once where the
size allows it: the losers of winners' round 2 drop in reverse order, those of round 3 with the
two halves swapped, and so on alternately (the usual published brackets do the same).

Matches are numbered from 1 in the order they can be played; each is placed in the earliest
**stage** (a round of the competition) after the matches it waits for, so a winners' round and
the losers' round that does not depend on it share a stage. The final ranking: 1 and 2 from the
grand final, 3 the loser of the losers' final, 4 the loser of the losers' round before, then the
losers of each earlier losers' round share the places that round covers (5–6, 7–8, 9–12, 13–16…).
Sources: the structure of the double-elimination brackets of the World Series of Poker and of the
major fighting-game circuits (e.g. the Evolution Championship Series' published brackets).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .knockout import (
    ENTRANT,
    LOSER,
    WINNER,
    Bracket,
    Match,
    Placing,
    Slot,
    occupant,
    ranking,
    seeding_order,
)
from .rotation import check_players

DOUBLE = "double"
WINNERS, LOSERS, GRAND_FINAL, RESET = "winners", "losers", "grand_final", "reset"


@dataclass
class _Builder:
    """Numbers the matches as they are made and remembers each one's section and stage."""

    matches: list[tuple[Match, str, int]]
    stage_of: dict[int, int]

    def stage(self, slot: Slot | None) -> int:
        if slot is None or slot.kind == ENTRANT:
            return 0
        return self.stage_of[slot.ref]

    def play(self, home: Slot | None, away: Slot | None, section: str, section_round: int):
        """The match between two sides, or the side that passes through when the other is empty:
        ``(winner side, loser side)``."""
        if home is None or away is None:
            return (home if away is None else away), None
        number = len(self.matches) + 1
        stage = max(self.stage(home), self.stage(away)) + 1
        self.stage_of[number] = stage
        self.matches.append((Match(number, stage, home, away), section, section_round))
        return Slot(WINNER, number), Slot(LOSER, number)


def _drop_order(losers: list[Slot | None], winners_round: int) -> list[Slot | None]:
    """The order in which the losers of ``winners_round`` (1-based) meet the losers' bracket."""
    if winners_round == 1:
        return losers
    if winners_round % 2 == 0:
        return losers[::-1]
    half = len(losers) // 2
    return losers[half:] + losers[:half]


def double_elimination(seeds: Iterable[int], *, reset: bool = True) -> Bracket:
    """The double-elimination bracket for ``seeds`` (entrants best first, at least 2).

    ``rounds`` of the result are the stages (matches that can be played at once); every match is
    labelled with its section (``winners``, ``losers``, ``grand_final``, ``reset``) and its round
    in that section; the bracket reset, if asked for, is the last stage's only match and is played
    only when the losers' bracket champion wins the first grand final."""
    entrants = check_players(seeds)
    n = len(entrants)
    if n < 2:
        raise ValueError("a double elimination needs at least 2 entrants")
    size = 2
    while size < n:
        size *= 2
    build = _Builder([], {})
    slots: list[Slot | None] = [
        Slot(ENTRANT, entrants[s - 1]) if s <= n else None for s in seeding_order(size)
    ]
    byes = [s.ref for s, other in zip(slots[::2], slots[1::2], strict=True) if other is None]
    dropped: list[list[Slot | None]] = []
    winners_round = 0
    while len(slots) > 1:
        winners_round += 1
        advancing, losers = [], []
        for home, away in zip(slots[::2], slots[1::2], strict=True):
            up, down = build.play(home, away, WINNERS, winners_round)
            advancing.append(up)
            losers.append(down)
        slots = advancing
        dropped.append(_drop_order(losers, winners_round))
    champion = slots[0]

    losers_round = 0
    alive = dropped[0]
    if len(alive) > 1:  # the first winners' round's losers play each other
        losers_round += 1
        alive = [
            build.play(home, away, LOSERS, losers_round)[0]
            for home, away in zip(alive[::2], alive[1::2], strict=True)
        ]
    for incoming in dropped[1:]:
        losers_round += 1
        alive = [
            build.play(home, away, LOSERS, losers_round)[0]
            for home, away in zip(alive, incoming, strict=True)
        ]
        if len(alive) > 1:
            losers_round += 1
            alive = [
                build.play(home, away, LOSERS, losers_round)[0]
                for home, away in zip(alive[::2], alive[1::2], strict=True)
            ]
    grand, _ = build.play(champion, alive[0], GRAND_FINAL, 1)
    if reset:
        build.play(grand, Slot(LOSER, grand.ref), RESET, 1)  # type: ignore[union-attr]

    stages = max(build.stage_of.values())
    rounds = tuple(
        tuple(m for m, _, _ in build.matches if m.round == stage) for stage in range(1, stages + 1)
    )
    labels = tuple((m.number, section, r) for m, section, r in build.matches)
    return Bracket(
        entrants,
        rounds,
        None,
        tuple(sorted(byes, key=entrants.index)),
        kind=DOUBLE,
        labels=labels,
    )


def section_rounds(bracket: Bracket) -> dict[str, int]:
    """How many rounds each section of a double-elimination bracket has."""
    counts: dict[str, int] = {}
    for _, section, r in bracket.labels:
        counts[section] = max(counts.get(section, 0), r)
    return counts


def _finals(bracket: Bracket) -> tuple[Match, Match | None]:
    """The grand final and the bracket reset (``None`` when there is none)."""
    section = {number: s for number, s, _ in bracket.labels}
    last = [m for stage in bracket.rounds[-2:] for m in stage]
    grand = next(m for m in last if section[m.number] == GRAND_FINAL)
    reset = next((m for m in last if section[m.number] == RESET), None)
    return grand, reset


def reset_needed(bracket: Bracket, outcomes: Mapping[int, tuple[int, int]]) -> bool | None:
    """Whether the bracket reset is played: ``None`` when there is no reset or while the first
    grand final is unplayed, else True when the losers' bracket champion won it."""
    grand, reset = _finals(bracket)
    result = outcomes.get(grand.number)
    if reset is None or result is None:
        return None
    return result[0] != occupant(grand.home, outcomes)


def _losers_places(bracket: Bracket) -> dict[int, int]:
    """The place shared by the losers of each losers' round (1-based), from the nominal bracket
    size: the last losers' round gives 3rd, the one before 4th, then 5th (two losers), 7th…"""
    size = 2
    while size < len(bracket.entrants):
        size *= 2
    counts: list[int] = []  # nominal matches of each losers' round, first to last
    width = size // 4
    if width:
        counts.append(width)
    while width:
        counts.append(width)  # survivors against the winners' round's losers
        width //= 2
        if width:
            counts.append(width)  # survivors against each other
    places, better = {}, 2
    for r in range(len(counts), 0, -1):
        places[r] = better + 1
        better += counts[r - 1]
    return places


def double_ranking(
    bracket: Bracket, outcomes: Mapping[int, tuple[int, int]]
) -> tuple[Placing, ...]:
    """The final ranking of a double-elimination bracket from ``outcomes`` (match number ->
    ``(winner, loser)``). Entrants still in the bracket share place 1, not decided; ``out_in``
    is the losers' round (0-based) where the entrant went out, ``None`` for the top two."""
    label = {number: (section, r) for number, section, r in bracket.labels}
    places = _losers_places(bracket)
    out: dict[int, tuple[int, int | None]] = {}
    for number, (_winner, loser) in outcomes.items():
        section, r = label[number]
        if section == LOSERS:
            out[loser] = (places[r], r - 1)
    grand, reset = _finals(bracket)
    deciding = reset if reset is not None and reset_needed(bracket, outcomes) else grand
    result = outcomes.get(deciding.number)
    if result is not None:
        out[result[0]] = (1, None)
        out[result[1]] = (2, None)
    placings = []
    for entrant in bracket.entrants:
        if entrant in out:
            place, index = out[entrant]
            placings.append(Placing(entrant, place, True, index))
        else:
            placings.append(Placing(entrant, 1, False, None))
    return tuple(sorted(placings, key=lambda p: (p.place, bracket.entrants.index(p.entrant))))


def bracket_ranking(
    bracket: Bracket, outcomes: Mapping[int, tuple[int, int]]
) -> tuple[Placing, ...]:
    """The ranking of either kind of bracket: :func:`double_ranking` or ``knockout.ranking``."""
    if bracket.kind == DOUBLE:
        return double_ranking(bracket, outcomes)
    return ranking(bracket, outcomes)
