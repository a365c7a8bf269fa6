"""Knockout brackets are well-formed for every count of entrants from 2 to 64."""

from collections import Counter

import pytest

from tournaments.scheduling import knockout
from tournaments.scheduling.knockout import ENTRANT, LOSER, WINNER, Slot, seeding_order


def test_standard_seeding_order():
    assert seeding_order(4) == [1, 4, 2, 3]
    assert seeding_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@pytest.mark.parametrize("n", range(2, 65))
def test_bracket_is_well_formed(n):
    seeds = [100 + s for s in range(n)]
    bracket = knockout(seeds, third_place=n >= 4)
    matches = [m for r in bracket.rounds for m in r]
    slots = [s for m in matches for s in (m.home, m.away)]
    # every entrant appears exactly once, in its first match
    assert sorted(s.ref for s in slots if s.kind == ENTRANT) == seeds
    # byes only to the top seeds, and just enough of them to reach a power of two
    size = 1 << (n - 1).bit_length()
    assert list(bracket.byes) == seeds[: size - n]
    # match numbers are 1, 2, … round by round
    assert [m.number for m in matches] == list(range(1, len(matches) + 1))
    assert all(m.round == i for i, r in enumerate(bracket.rounds, 1) for m in r)
    # each winner feeds exactly one later match; every match but the final is fed on
    fed = Counter(s.ref for s in slots if s.kind == WINNER)
    assert all(count == 1 for count in fed.values())
    assert sorted(fed) == [m.number for m in matches if m is not bracket.final]
    for m in matches:
        for s in (m.home, m.away):
            if s.kind == WINNER:
                assert s.ref < m.number
    # the final is unique and last
    assert len(bracket.rounds[-1]) == 1
    assert bracket.final.number == len(matches)
    # the third-place match takes the losers of the two semi-finals
    third = bracket.third_place
    if n < 4:
        assert third is None
        return
    assert third.number == len(matches) + 1
    assert {third.home.kind, third.away.kind} == {LOSER}
    semis = {s.ref for s in (bracket.final.home, bracket.final.away)}
    assert {third.home.ref, third.away.ref} == semis


def test_third_place_match_only_when_asked():
    assert knockout(range(8)).third_place is None
    assert knockout(range(8), third_place=True).third_place is not None


def test_top_seeds_meet_only_in_the_final():
    bracket = knockout([1, 2, 3, 4, 5, 6, 7, 8])
    first = [(m.home.ref, m.away.ref) for m in bracket.rounds[0]]
    assert first == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_slots_read_as_text():
    assert str(Slot(ENTRANT, 7)) == "7"
    assert str(Slot(WINNER, 3)) == "winner of match 3"
    assert str(Slot(LOSER, 5)) == "loser of match 5"


def test_three_entrants_give_the_top_seed_a_bye():
    bracket = knockout([1, 2, 3])
    assert bracket.byes == (1,)
    assert bracket.final.home == Slot(ENTRANT, 1)
    assert bracket.final.away == Slot(WINNER, 1)


@pytest.mark.parametrize(
    ("seeds", "third", "message"),
    [([1], False, "at least 2"), ([1, 2, 3], True, "at least 4"), ([1, 1], False, "twice")],
)
def test_bad_brackets_are_refused(seeds, third, message):
    with pytest.raises(ValueError, match=message):
        knockout(seeds, third_place=third)
