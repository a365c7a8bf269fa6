"""The final ranking follows the bracket, and its rounds have their usual names."""

import pytest

from tournaments.scheduling import knockout
from tournaments.scheduling.knockout import (
    ENTRANT,
    LOSER,
    WINNER,
    Slot,
    occupant,
    ranking,
    round_name,
)

ANNA, BRUNO, CARLA, DARIO, ELENA, FABIO = 1, 2, 3, 4, 5, 6


def play(bracket, beats):
    """Play every match in order: ``beats(home, away)`` is True when home wins."""
    outcomes = {}
    matches = [m for r in bracket.rounds for m in r]
    if bracket.third_place:
        matches.append(bracket.third_place)
    for m in matches:
        home, away = occupant(m.home, outcomes), occupant(m.away, outcomes)
        outcomes[m.number] = (home, away) if beats(home, away) else (away, home)
    return outcomes


def places(bracket, outcomes):
    return {p.entrant: p.place for p in ranking(bracket, outcomes)}


@pytest.mark.parametrize(
    ("index", "total", "name"),
    [
        (0, 1, ("final", 2)),
        (1, 2, ("final", 2)),
        (0, 2, ("semi_finals", 4)),
        (0, 3, ("quarter_finals", 8)),
        (0, 4, ("round_of", 16)),
        (0, 6, ("round_of", 64)),
        (4, 6, ("semi_finals", 4)),
    ],
)
def test_rounds_are_named_from_the_final_back(index, total, name):
    assert round_name(index, total) == name


@pytest.mark.parametrize(("index", "total"), [(-1, 3), (3, 3)])
def test_a_round_outside_the_bracket_has_no_name(index, total):
    with pytest.raises(ValueError, match="not in a bracket"):
        round_name(index, total)


def test_issue_11_anna_beats_carla_in_the_final_elena_wins_the_third_place_match():
    # Six entrants, seeds in this order; the third-place match is played.
    bracket = knockout([ANNA, CARLA, ELENA, BRUNO, DARIO, FABIO], third_place=True)
    wins = {ANNA: 6, CARLA: 5, ELENA: 4, BRUNO: 3, DARIO: 2, FABIO: 1}
    outcomes = play(bracket, lambda home, away: wins[home] > wins[away])
    assert outcomes[bracket.final.number] == (ANNA, CARLA)
    assert outcomes[bracket.third_place.number] == (ELENA, BRUNO)
    assert places(bracket, outcomes) == {
        ANNA: 1,
        CARLA: 2,
        ELENA: 3,
        BRUNO: 4,
        DARIO: 5,
        FABIO: 5,
    }
    ranked = ranking(bracket, outcomes)
    assert [p.entrant for p in ranked] == [ANNA, CARLA, ELENA, BRUNO, DARIO, FABIO]
    assert all(p.decided for p in ranked)
    assert {p.entrant: p.out_in for p in ranked} == {
        ANNA: None,
        CARLA: 2,
        ELENA: 1,
        BRUNO: 1,
        DARIO: 0,
        FABIO: 0,
    }


def test_without_a_third_place_match_the_semi_final_losers_share_third_and_5_to_8_share_fifth():
    bracket = knockout(range(1, 9))
    outcomes = play(bracket, lambda home, away: home < away)  # the better seed always wins
    assert places(bracket, outcomes) == {1: 1, 2: 2, 3: 3, 4: 3, 5: 5, 6: 5, 7: 5, 8: 5}


def test_sixteen_entrants_place_round_of_16_losers_ninth():
    bracket = knockout(range(1, 17), third_place=True)
    outcomes = play(bracket, lambda home, away: home < away)
    got = places(bracket, outcomes)
    assert [got[s] for s in range(1, 17)] == [1, 2, 3, 4] + [5] * 4 + [9] * 8


def test_an_upset_ranks_the_winner_and_a_bye_counts_as_no_match():
    # Three entrants: seed 1 has a bye, seed 3 beats seed 2, then beats seed 1 in the final.
    bracket = knockout([10, 20, 30])
    assert bracket.byes == (10,)
    outcomes = play(bracket, lambda home, away: home == 30 or (away != 30 and home < away))
    assert places(bracket, outcomes) == {30: 1, 10: 2, 20: 3}


def test_while_the_bracket_is_played_each_entrant_shows_the_best_place_still_reachable():
    bracket = knockout(range(1, 9), third_place=True)
    first_round = {m.number: (m.home.ref, m.away.ref) for m in bracket.rounds[0]}
    ranked = ranking(bracket, first_round)  # the home sides (the better seeds) won
    assert {p.entrant: (p.place, p.decided) for p in ranked} == {
        1: (1, False),
        2: (1, False),
        3: (1, False),
        4: (1, False),
        5: (5, True),
        6: (5, True),
        7: (5, True),
        8: (5, True),
    }
    semis = {
        m.number: (min(pair), max(pair))
        for m, pair in zip(bracket.rounds[1], [(1, 4), (2, 3)], strict=True)
    }
    ranked = ranking(bracket, first_round | semis)
    assert {p.entrant: (p.place, p.decided) for p in ranked if p.place < 5} == {
        1: (1, False),
        2: (1, False),
        3: (3, False),
        4: (3, False),
    }


def test_outcomes_of_unknown_matches_are_ignored_and_slots_resolve_from_outcomes():
    bracket = knockout([1, 2])
    assert places(bracket, {99: (1, 2)}) == {1: 1, 2: 1}
    assert occupant(Slot(ENTRANT, 7), {}) == 7
    assert occupant(Slot(WINNER, 1), {}) is None
    assert occupant(Slot(WINNER, 1), {1: (2, 1)}) == 2
    assert occupant(Slot(LOSER, 1), {1: (2, 1)}) == 1


@pytest.mark.parametrize("third_place", [False, True])
def test_a_bracket_stored_as_json_reads_back_the_same(third_place):
    bracket = knockout(range(1, 7), third_place=third_place)

    def match(m):
        return {
            "number": m.number,
            "home": [m.home.kind, m.home.ref],
            "away": [m.away.kind, m.away.ref],
        }

    stored = {
        "entrants": list(bracket.entrants),
        "rounds": [[match(m) for m in r] for r in bracket.rounds],
        "third_place": match(bracket.third_place) if bracket.third_place else None,
        "byes": list(bracket.byes),
    }
    assert type(bracket).from_json(stored) == bracket
