"""Double elimination: everyone but the champion goes out after exactly two losses, nobody plays
twice in one stage, and the ranking follows the bracket."""

import random
from collections import Counter

import pytest

from tournaments.scheduling.double_elimination import (
    DOUBLE,
    GRAND_FINAL,
    LOSERS,
    RESET,
    WINNERS,
    double_elimination,
    double_ranking,
    reset_needed,
    section_rounds,
)
from tournaments.scheduling.knockout import Bracket, occupant


def play(bracket, rng, *, winner_of=None):
    """Plays every stage in order with random winners (or ``winner_of(home, away)``); returns
    the outcomes and the losses of each entrant."""
    outcomes = {}
    section = {n: s for n, s, _ in bracket.labels}
    for stage in bracket.rounds:
        seated = []
        for match in stage:
            if section[match.number] == RESET and not reset_needed(bracket, outcomes):
                continue
            home, away = occupant(match.home, outcomes), occupant(match.away, outcomes)
            assert home is not None and away is not None, "a match waits for an unplayed one"
            seated += [home, away]
            won = winner_of(home, away) if winner_of else rng.choice((home, away))
            outcomes[match.number] = (won, away if won == home else home)
        assert len(seated) == len(set(seated)), "someone plays twice in one stage"
    losses = Counter(loser for _, loser in outcomes.values())
    return outcomes, losses


@pytest.mark.parametrize("n", range(2, 18))
@pytest.mark.parametrize("reset", [True, False])
def test_everyone_but_the_champion_is_out_after_exactly_two_losses(n, reset):
    bracket = double_elimination(range(100, 100 + n), reset=reset)
    assert bracket.kind == DOUBLE
    for trial in range(12):
        outcomes, losses = play(bracket, random.Random(n * 100 + trial))
        placings = double_ranking(bracket, outcomes)
        champion = placings[0].entrant
        assert all(p.decided for p in placings)
        assert losses[champion] <= 1
        runner_up = placings[1].entrant
        for entrant in bracket.entrants:
            if entrant == runner_up and not reset:
                assert losses[entrant] in (1, 2)  # the winners' champion may lose only once
            elif entrant != champion:
                assert losses[entrant] == 2
        assert [p.place for p in placings][:2] == [1, 2]


@pytest.mark.parametrize(
    ("n", "places"),
    [
        (2, [1, 2]),
        (3, [1, 2, 3]),
        (4, [1, 2, 3, 4]),
        (6, [1, 2, 3, 4, 5, 5]),
        (8, [1, 2, 3, 4, 5, 5, 7, 7]),
        (12, [1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 9]),
        (16, [1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 9, 13, 13, 13, 13]),
    ],
)
def test_places_are_shared_by_the_losers_round_of_elimination(n, places):
    bracket = double_elimination(range(1, n + 1))
    outcomes, _ = play(bracket, random.Random(n))
    assert [p.place for p in double_ranking(bracket, outcomes)] == places


def test_the_favourite_wins_without_a_reset_and_the_seeds_finish_in_order():
    bracket = double_elimination(range(1, 9))
    outcomes, losses = play(bracket, None, winner_of=min)  # the better seed always wins
    placings = double_ranking(bracket, outcomes)
    assert [(p.entrant, p.place) for p in placings][:4] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert losses[1] == 0
    assert RESET in {s for _, s, _ in bracket.labels}
    assert reset_needed(bracket, outcomes) is False
    reset = bracket.rounds[-1][0]
    assert reset.number not in outcomes


def test_the_losers_champion_winning_the_grand_final_forces_the_reset():
    bracket = double_elimination(range(1, 5))
    grand = next(m for m in bracket.rounds[-2] if (m.number, GRAND_FINAL, 1) in bracket.labels)
    assert reset_needed(bracket, {}) is None

    def upset(home, away):  # the better seed wins, except the first grand final
        return max(home, away) if len(outcomes_so_far) == grand.number - 1 else min(home, away)

    outcomes_so_far: dict = {}

    def winner_of(home, away):
        won = upset(home, away)
        outcomes_so_far[len(outcomes_so_far) + 1] = won
        return won

    outcomes, losses = play(bracket, None, winner_of=winner_of)
    assert reset_needed(bracket, outcomes) is True
    assert bracket.rounds[-1][0].number in outcomes
    assert losses[1] == 1 and losses[2] == 2  # seed 1 lost the first grand final, won the reset
    assert double_ranking(bracket, outcomes)[0].entrant == 1


def test_without_a_reset_the_grand_final_decides():
    bracket = double_elimination(range(1, 5), reset=False)
    assert reset_needed(bracket, {}) is None
    assert RESET not in {s for _, s, _ in bracket.labels}
    outcomes, _ = play(bracket, None, winner_of=max)  # the worse seed always wins
    assert reset_needed(bracket, outcomes) is None
    assert double_ranking(bracket, outcomes)[0].entrant == 4


def test_top_seeds_get_the_byes_and_sections_are_counted():
    bracket = double_elimination(range(1, 7))
    assert bracket.byes == (1, 2)
    assert section_rounds(bracket) == {WINNERS: 3, LOSERS: 4, GRAND_FINAL: 1, RESET: 1}
    first = {e for m in bracket.rounds[0] for e in (m.home.ref, m.away.ref)}
    assert first == {3, 4, 5, 6}


def test_a_winners_round_and_an_independent_losers_round_share_a_stage():
    bracket = double_elimination(range(1, 9))
    section = {n: (s, r) for n, s, r in bracket.labels}
    second_stage = {section[m.number] for m in bracket.rounds[1]}
    assert second_stage == {(WINNERS, 2), (LOSERS, 1)}


def test_the_first_drop_does_not_replay_the_match_just_played():
    bracket = double_elimination(range(1, 9))
    section = {n: (s, r) for n, s, r in bracket.labels}
    outcomes, _ = play(bracket, None, winner_of=min)
    met = {}
    for stage in bracket.rounds:
        for m in stage:
            if m.number not in outcomes:
                continue
            pair = frozenset(outcomes[m.number])
            if section[m.number] == (LOSERS, 2):
                assert pair not in met.values()
            met[m.number] = pair


def test_unplayed_entrants_share_first_place_undecided():
    bracket = double_elimination(range(1, 5))
    placings = double_ranking(bracket, {})
    assert {(p.place, p.decided) for p in placings} == {(1, False)}


def test_a_double_bracket_reads_back_from_json():
    bracket = double_elimination(range(1, 6))

    def match(m):
        return {
            "number": m.number,
            "home": [m.home.kind, m.home.ref],
            "away": [m.away.kind, m.away.ref],
        }

    stored = {
        "entrants": list(bracket.entrants),
        "rounds": [[match(m) for m in r] for r in bracket.rounds],
        "third_place": None,
        "byes": list(bracket.byes),
        "kind": bracket.kind,
        "labels": [list(label) for label in bracket.labels],
    }
    assert Bracket.from_json(stored) == bracket


def test_a_double_elimination_needs_two_entrants():
    with pytest.raises(ValueError, match="at least 2"):
        double_elimination([1])


def test_either_kind_of_bracket_is_ranked_by_its_own_rules():
    from tournaments.scheduling.double_elimination import bracket_ranking
    from tournaments.scheduling.knockout import knockout, ranking

    single = knockout([1, 2, 3, 4])
    outcomes = {1: (1, 4), 2: (2, 3), 3: (1, 2)}
    assert bracket_ranking(single, outcomes) == ranking(single, outcomes)
    double = double_elimination([1, 2, 3, 4])
    assert bracket_ranking(double, {}) == double_ranking(double, {})
