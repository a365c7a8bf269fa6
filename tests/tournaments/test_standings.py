"""Standings recomputed from plain game results: points schemes, tie-breaks, league options.

Every expected table below is worked out by hand in the comments next to it. Entrants are named
for readability; their ids order the display of entrants sharing a rank.
"""

import dataclasses
import random
from collections import defaultdict
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.standings import (
    SCHEMES,
    TIE_BREAKS,
    Adjustment,
    Result,
    Standings,
    compute,
    ranking,
)

ANNA, BRUNO, CARLA, DARIO, ELENA, FRANCO = 1, 2, 3, 4, 5, 6
PAIR_A, PAIR_B = 10, 20  # two fixed Briscola pairs

PROPERTIES = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def game(
    game_id,
    places,
    *,
    group=1,
    scores=None,
    lowest_wins=False,
    hands_won=None,
    card_points=None,
    ruleset="",
    with_opponents=True,
):
    """The results of one game; ``places`` maps every entrant at the table to its place."""
    scores, hands_won, card_points = scores or {}, hands_won or {}, card_points or {}
    return [
        Result(
            entrant=entrant,
            game=game_id,
            group=group,
            place=place,
            competitors=len(places),
            score=scores.get(entrant, 0),
            lowest_wins=lowest_wins,
            opponents=tuple(o for o in places if o != entrant) if with_opponents else (),
            hands_won=hands_won.get(entrant),
            card_points=card_points.get(entrant),
            ruleset=ruleset,
        )
        for entrant, place in places.items()
    ]


def duel(game_id, winner, loser, *, group=1):
    """A two-sided game won by ``winner`` (placement: 2 points to 0)."""
    return game(game_id, {winner: 1, loser: 2}, group=group)


def played(*games):
    return [result for results in games for result in results]


def points(table: Standings):
    return {row.entrant: row.points for row in table.rows}


def ranks(table: Standings):
    return {row.entrant: row.rank for row in table.rows}


def order(table: Standings):
    return [row.entrant for row in table.rows]


# --------------------------------------------------------------------------------------------
# Points schemes
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (2, (2, 0)),
        (3, (4, 2, 0)),
        (4, (3, 2, 1, 0)),
        (5, (4, 3, 2, 1, 0)),
        (6, (5, 4, 3, 2, 1, 0)),
    ],
)
def test_placement_gives_the_default_points_of_each_table_size(size, expected):
    # Entrant n finishes n-th at a table of `size`.
    table = compute(game(1, {n: n for n in range(1, size + 1)}))
    assert points(table) == {n: expected[n - 1] for n in range(1, size + 1)}
    assert all(isinstance(row.points, Fraction) for row in table.rows)


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        # two competitors drawn: (2 + 0) / 2 = 1 each
        ({1: 1, 2: 1}, {1: 1, 2: 1}),
        # three seats, two share 1st: (4 + 2) / 2 = 3 each
        ({1: 1, 2: 1, 3: 3}, {1: 3, 2: 3, 3: 0}),
        # three seats, two share 2nd: (2 + 0) / 2 = 1 each
        ({1: 1, 2: 2, 3: 2}, {1: 4, 2: 1, 3: 1}),
        # three seats all tied: (4 + 2 + 0) / 3 = 2 each
        ({1: 1, 2: 1, 3: 1}, {1: 2, 2: 2, 3: 2}),
        # four seats, two share 2nd: (2 + 1) / 2 = 3/2 each
        ({1: 1, 2: 2, 3: 2, 4: 4}, {1: 3, 2: Fraction(3, 2), 3: Fraction(3, 2), 4: 0}),
        # four seats, three share 1st: (3 + 2 + 1) / 3 = 2 each
        ({1: 1, 2: 1, 3: 1, 4: 4}, {1: 2, 2: 2, 3: 2, 4: 0}),
        # five seats, 1st and 3rd shared: (4 + 3) / 2 = 7/2, (2 + 1) / 2 = 3/2
        (
            {1: 1, 2: 1, 3: 3, 4: 3, 5: 5},
            {1: Fraction(7, 2), 2: Fraction(7, 2), 3: Fraction(3, 2), 4: Fraction(3, 2), 5: 0},
        ),
        # six seats 1, 1, 3, 3, 3, 6: (5 + 4) / 2 = 9/2; (3 + 2 + 1) / 3 = 2
        (
            {1: 1, 2: 1, 3: 3, 4: 3, 5: 3, 6: 6},
            {1: Fraction(9, 2), 2: Fraction(9, 2), 3: 2, 4: 2, 5: 2, 6: 0},
        ),
        # six seats all tied: 15 / 6 = 5/2 each
        ({n: 1 for n in range(1, 7)}, {n: Fraction(5, 2) for n in range(1, 7)}),
    ],
)
def test_placement_shared_places_split_the_points_of_the_places_they_cover(places, expected):
    assert points(compute(game(1, places))) == expected


def test_placement_points_override_replaces_only_the_table_sizes_given():
    # A club that gives 3/1/0 at tables of three; tables of four keep 3/2/1/0.
    results = played(
        game(1, {ANNA: 1, BRUNO: 2, CARLA: 3}),
        game(2, {ANNA: 4, BRUNO: 3, CARLA: 2, DARIO: 1}),
    )
    table = compute(results, placement_points={3: (3, 1, 0)})
    # Anna 3 + 0, Bruno 1 + 1, Carla 0 + 2, Dario 3
    assert points(table) == {ANNA: 3, BRUNO: 2, CARLA: 2, DARIO: 3}


def test_placement_points_override_accepts_fractions_and_splits_them():
    # two tied 1st at a table of two with 1/0 points: 1/2 each
    table = compute(game(1, {ANNA: 1, BRUNO: 1}), placement_points={2: (1, 0)})
    assert points(table) == {ANNA: Fraction(1, 2), BRUNO: Fraction(1, 2)}


def test_placement_points_of_the_wrong_length_are_rejected():
    with pytest.raises(ValueError, match="a table of 3 needs 3 placement points"):
        compute([], placement_points={3: (4, 2)})


def test_placement_for_a_table_size_without_points_is_rejected():
    results = game(1, {n: n for n in range(1, 8)})  # seven competitors
    with pytest.raises(ValueError, match="no placement points for tables of 7"):
        compute(results)
    # ... unless the organizer gives them
    table = compute(results, placement_points={7: (6, 5, 4, 3, 2, 1, 0)})
    assert points(table)[1] == 6


def test_game_score_sums_the_games_own_totals():
    # Terziglio: Anna 31 + 12 = 43, Bruno 20 + 31 = 51, Carla 5 + 0 = 5
    results = played(
        game(1, {ANNA: 1, BRUNO: 2, CARLA: 3}, scores={ANNA: 31, BRUNO: 20, CARLA: 5}),
        game(2, {BRUNO: 1, ANNA: 2, CARLA: 3}, scores={ANNA: 12, BRUNO: 31, CARLA: 0}),
    )
    table = compute(results, scheme="game_score")
    assert points(table) == {ANNA: 43, BRUNO: 51, CARLA: 5}
    assert order(table) == [BRUNO, ANNA, CARLA]


def test_game_score_counts_turkish_penalty_totals_negatively_so_fewest_ranks_first():
    # Turkish, lowest total wins. Anna 12 + 30 = 42, Bruno 40 + 10 = 50, Carla 25 + 28 = 53
    # penalty points, so -42, -50, -53: Anna first although her raw total is the lowest.
    results = played(
        game(
            1,
            {ANNA: 1, CARLA: 2, BRUNO: 3},
            scores={ANNA: 12, BRUNO: 40, CARLA: 25},
            lowest_wins=True,
            ruleset="turkish",
        ),
        game(
            2,
            {BRUNO: 1, CARLA: 2, ANNA: 3},
            scores={ANNA: 30, BRUNO: 10, CARLA: 28},
            lowest_wins=True,
            ruleset="turkish",
        ),
    )
    table = compute(results, scheme="game_score")
    assert points(table) == {ANNA: -42, BRUNO: -50, CARLA: -53}
    assert order(table) == [ANNA, BRUNO, CARLA]
    assert [row.rank for row in table.rows] == [1, 2, 3]


def test_matches_won_gives_one_per_game_won_alone_and_a_half_per_shared_first_place():
    results = played(
        game(1, {ANNA: 1, BRUNO: 2, CARLA: 3}),  # Anna 1
        game(2, {ANNA: 1, BRUNO: 1, CARLA: 3}),  # Anna 1/2, Bruno 1/2
        game(3, {ANNA: 1, BRUNO: 1, CARLA: 1}),  # a three-way draw: still 1/2 each
        game(4, {BRUNO: 2, CARLA: 1}),  # Carla 1
    )
    table = compute(results, scheme="matches_won")
    # Anna 1 + 1/2 + 1/2 = 2, Bruno 1/2 + 1/2 = 1, Carla 1/2 + 1 = 3/2
    assert points(table) == {ANNA: 2, BRUNO: 1, CARLA: Fraction(3, 2)}
    assert order(table) == [ANNA, CARLA, BRUNO]


def test_a_league_may_mix_rulesets_under_placement_points():
    # Terziglio (highest wins) and Turkish (lowest wins): places alone decide the points.
    results = played(
        game(1, {ANNA: 1, BRUNO: 2, CARLA: 3}, scores={ANNA: 31, BRUNO: 9, CARLA: 2}),
        game(2, {BRUNO: 1, ANNA: 2}, scores={ANNA: 80, BRUNO: 20}, lowest_wins=True),
    )
    # Anna 4 + 0, Bruno 2 + 2, Carla 0
    assert points(compute(results)) == {ANNA: 4, BRUNO: 4, CARLA: 0}


def test_the_schemes_registry_lists_every_scheme_with_a_label():
    assert set(SCHEMES) == {"placement", "fair_placement", "game_score", "matches_won"}
    assert all(scheme.key == key and scheme.label for key, scheme in SCHEMES.items())


def test_an_unknown_scheme_is_rejected():
    with pytest.raises(ValueError, match="unknown points scheme 'elo'"):
        compute([], scheme="elo")


# --------------------------------------------------------------------------------------------
# Tie-breaks
# --------------------------------------------------------------------------------------------


def test_points_rank_before_every_tie_break_and_may_be_named_as_one():
    # Tables of four, 3/2/1/0.
    # game 1: Bruno 1st 3, Anna 2nd 2, Carla 3rd 1, Dario 4th 0
    # game 2: Carla 1st 3, Anna 2nd 2, Dario 3rd 1, Bruno 4th 0
    # Anna 4 (no win), Carla 4 (1 win), Bruno 3 (1 win), Dario 1.
    results = played(
        game(1, {BRUNO: 1, ANNA: 2, CARLA: 3, DARIO: 4}),
        game(2, {CARLA: 1, ANNA: 2, DARIO: 3, BRUNO: 4}),
    )
    table = compute(results, tie_breaks=("wins", "points"))
    # Bruno has more wins than Anna but fewer points: points come first.
    assert order(table) == [CARLA, ANNA, BRUNO, DARIO]
    assert ranks(table) == {CARLA: 1, ANNA: 2, BRUNO: 3, DARIO: 4}
    assert all(row.values["points"] == row.points for row in table.rows)
    assert table.columns == (("wins", "Wins"), ("points", "Points"))


def test_game_score_breaks_a_tie_on_points():
    # Terziglio at three, 4/2/0. Anna 4 + 2 = 6, Bruno 2 + 4 = 6, Carla 0.
    # Game totals: Anna 31 + 10 = 41, Bruno 20 + 40 = 60: Bruno ahead on game score.
    results = played(
        game(1, {ANNA: 1, BRUNO: 2, CARLA: 3}, scores={ANNA: 31, BRUNO: 20, CARLA: 5}),
        game(2, {BRUNO: 1, ANNA: 2, CARLA: 3}, scores={ANNA: 10, BRUNO: 40, CARLA: 0}),
    )
    table = compute(results, tie_breaks=("game_score",))
    assert order(table) == [BRUNO, ANNA, CARLA]
    assert table.row(BRUNO).values == {"game_score": 60}
    assert table.row(ANNA).values == {"game_score": 41}


def test_game_score_tie_break_inverts_turkish_totals():
    # Turkish at three, 4/2/0. Anna 4 + 2 = 6, Bruno 2 + 4 = 6.
    # Penalty totals: Anna 10 + 40 = 50, Bruno 30 + 5 = 35: Bruno has fewer, so -35 > -50.
    results = played(
        game(
            1,
            {ANNA: 1, BRUNO: 2, CARLA: 3},
            scores={ANNA: 10, BRUNO: 30, CARLA: 50},
            lowest_wins=True,
        ),
        game(
            2,
            {BRUNO: 1, ANNA: 2, CARLA: 3},
            scores={ANNA: 40, BRUNO: 5, CARLA: 60},
            lowest_wins=True,
        ),
    )
    table = compute(results, tie_breaks=("game_score",))
    assert order(table) == [BRUNO, ANNA, CARLA]
    assert table.row(BRUNO).values["game_score"] == -35
    assert table.row(ANNA).values["game_score"] == -50


def test_wins_break_a_tie_on_points():
    # Tables of four. Anna 1st (3) then 4th (0) = 3 with 1 win;
    # Bruno 2nd (2) then 3rd (1) = 3 with no win.
    results = played(
        game(1, {ANNA: 1, BRUNO: 2, CARLA: 3, DARIO: 4}),
        game(2, {CARLA: 1, DARIO: 2, BRUNO: 3, ANNA: 4}),
    )
    # Carla 1 + 3 = 4, Dario 0 + 2 = 2
    table = compute(results, tie_breaks=("wins",))
    assert order(table) == [CARLA, ANNA, BRUNO, DARIO]
    assert table.row(ANNA).wins == 1
    assert table.row(BRUNO).wins == 0


def test_wins_count_shared_first_places():
    table = compute(game(1, {ANNA: 1, BRUNO: 1, CARLA: 3}), tie_breaks=("wins",))
    assert {row.entrant: row.values["wins"] for row in table.rows} == {
        ANNA: 1,
        BRUNO: 1,
        CARLA: 0,
    }


def test_head_to_head_counts_only_games_between_the_entrants_tied():
    # Duels, 2 points a win.
    # g1 Anna beats Bruno, g2 Bruno beats Carla, g3 Bruno beats Dario,
    # g4 Anna beats Dario, g5 Carla beats Anna.
    # Anna 2 + 2 = 4, Bruno 2 + 2 = 4, Carla 2, Dario 0; Anna and Bruno have 2 wins each.
    # Among the tied {Anna, Bruno} only g1 counts: Anna 2, Bruno 0. (Over all their games
    # both would have 4 and stay tied.) Carla and Dario are alone: 0.
    results = played(
        duel(1, ANNA, BRUNO),
        duel(2, BRUNO, CARLA),
        duel(3, BRUNO, DARIO),
        duel(4, ANNA, DARIO),
        duel(5, CARLA, ANNA),
    )
    table = compute(results, tie_breaks=("wins", "head_to_head"))
    assert ranks(table) == {ANNA: 1, BRUNO: 2, CARLA: 3, DARIO: 4}
    h2h = {row.entrant: row.values["head_to_head"] for row in table.rows}
    assert h2h == {ANNA: 2, BRUNO: 0, CARLA: 0, DARIO: 0}


# A cycle of duels: Anna beats Bruno, Bruno beats Carla, Carla beats Anna: 2 points each.
# Game totals: Anna 10 + 5 = 15, Bruno 5 + 10 = 15, Carla 9 + 30 = 39.
CYCLE = played(
    game(1, {ANNA: 1, BRUNO: 2}, scores={ANNA: 10, BRUNO: 5}),
    game(2, {BRUNO: 1, CARLA: 2}, scores={BRUNO: 10, CARLA: 9}),
    game(3, {CARLA: 1, ANNA: 2}, scores={CARLA: 30, ANNA: 5}),
)


def test_head_to_head_after_an_earlier_tie_break_looks_only_at_those_still_tied():
    # Game score first: Carla 39 goes ahead; Anna and Bruno stay tied on 15.
    # Head to head among {Anna, Bruno} only: g1, Anna 2, Bruno 0.
    table = compute(CYCLE, tie_breaks=("game_score", "head_to_head"))
    assert order(table) == [CARLA, ANNA, BRUNO]
    assert ranks(table) == {CARLA: 1, ANNA: 2, BRUNO: 3}
    assert table.row(CARLA).values["head_to_head"] == 0  # alone by then


def test_the_organizers_order_of_tie_breaks_changes_the_ranking():
    # Head to head first, among all three: each has 2 (one win each within the cycle),
    # so nobody is separated; then game score: Carla 39, Anna 15 = Bruno 15, shared 2nd.
    table = compute(CYCLE, tie_breaks=("head_to_head", "game_score"))
    assert order(table) == [CARLA, ANNA, BRUNO]
    assert ranks(table) == {CARLA: 1, ANNA: 2, BRUNO: 2}
    assert {row.entrant: row.values["head_to_head"] for row in table.rows} == {
        ANNA: 2,
        BRUNO: 2,
        CARLA: 2,
    }
    # ... whereas game score first then head to head separates Anna from Bruno (test above).


def test_opponents_strength_sums_the_final_points_of_every_opponent_once_per_meeting():
    # Duels: g1 Anna beats Carla, g2 Bruno beats Dario, g3 and g4 Carla beats Elena twice.
    # Points: Carla 4, Anna 2, Bruno 2, Dario 0, Elena 0.
    # Opponents' strength: Anna met Carla (4) = 4; Bruno met Dario (0) = 0;
    # Elena met Carla twice = 8; Dario met Bruno = 2; Carla met Anna, Elena, Elena = 2.
    results = played(
        duel(1, ANNA, CARLA),
        duel(2, BRUNO, DARIO),
        duel(3, CARLA, ELENA),
        duel(4, CARLA, ELENA),
    )
    table = compute(results, tie_breaks=("opponents_strength",))
    assert order(table) == [CARLA, ANNA, BRUNO, ELENA, DARIO]
    assert ranks(table) == {CARLA: 1, ANNA: 2, BRUNO: 3, ELENA: 4, DARIO: 5}
    strength = {row.entrant: row.values["opponents_strength"] for row in table.rows}
    assert strength == {CARLA: 2, ANNA: 4, BRUNO: 0, ELENA: 8, DARIO: 2}


def test_opponents_are_inferred_from_the_game_when_not_given():
    results = played(
        game(1, {ANNA: 1, CARLA: 2}, with_opponents=False),
        game(2, {BRUNO: 1, DARIO: 2}, with_opponents=False),
        game(3, {CARLA: 1, ELENA: 2}, with_opponents=False),
    )
    explicit = played(
        duel(1, ANNA, CARLA),
        duel(2, BRUNO, DARIO),
        duel(3, CARLA, ELENA),
    )
    assert compute(results) == compute(explicit)
    # Anna met Carla (2 points) = 2, Bruno met Dario (0) = 0
    assert compute(results).row(ANNA).values["opponents_strength"] == 2


def test_opponents_outside_the_standings_count_nothing():
    # Anna's recorded opponent 99 has no result of its own in these standings.
    result = Result(ANNA, 1, 1, place=1, competitors=2, score=0, opponents=(99,))
    table = compute([result], tie_breaks=("opponents_strength",))
    assert table.row(ANNA).values["opponents_strength"] == 0


def test_opponents_strength_is_fair_across_table_sizes():
    # Games won: Anna wins a table of 4 (opponents 11, 12, 13), Bruno a table of 3 (21, 22);
    # each of those opponents then wins a duel against a newcomer (31…35): all have 1 win.
    # Per game, the mean of the opponents: Anna 1, Bruno 1, a tie as it should be. Summed per
    # opponent (the old way) Anna would have 3 and Bruno 2: the larger table would decide.
    results = played(
        game(1, {ANNA: 1, 11: 2, 12: 3, 13: 4}),
        game(2, {BRUNO: 1, 21: 2, 22: 3}),
        *(duel(10 + i, winner, 31 + i) for i, winner in enumerate((11, 12, 13, 21, 22))),
    )
    table = compute(results, scheme="matches_won", tie_breaks=("opponents_strength",))
    anna, bruno = table.row(ANNA), table.row(BRUNO)
    assert anna.points == bruno.points == 1
    assert anna.values["opponents_strength"] == bruno.values["opponents_strength"] == 1
    assert anna.rank == bruno.rank


# Briscola for pairs: two fixed pairs, one win each (2 points each).
# g1 pair A wins: hands 7 to 3, card points 70 to 50.
# g2 pair B wins: hands 6 to 4, card points 75 to 45.
# Pair A: hands 7 + 4 = 11, card points 70 + 45 = 115.
# Pair B: hands 3 + 6 = 9, card points 50 + 75 = 125.
BRISCOLA = played(
    game(
        1,
        {PAIR_A: 1, PAIR_B: 2},
        hands_won={PAIR_A: 7, PAIR_B: 3},
        card_points={PAIR_A: 70, PAIR_B: 50},
        ruleset="briscola",
    ),
    game(
        2,
        {PAIR_B: 1, PAIR_A: 2},
        hands_won={PAIR_A: 4, PAIR_B: 6},
        card_points={PAIR_A: 45, PAIR_B: 75},
        ruleset="briscola",
    ),
)


def test_hands_won_breaks_a_tie_between_briscola_pairs():
    table = compute(BRISCOLA, tie_breaks=("wins", "hands_won", "card_points"))
    assert order(table) == [PAIR_A, PAIR_B]
    assert table.row(PAIR_A).values == {"wins": 1, "hands_won": 11, "card_points": 115}
    assert table.row(PAIR_B).values == {"wins": 1, "hands_won": 9, "card_points": 125}


def test_card_points_break_a_tie_between_briscola_pairs_when_listed_first():
    # The same games, the other order: card points now decide.
    table = compute(BRISCOLA, tie_breaks=("wins", "card_points", "hands_won"))
    assert order(table) == [PAIR_B, PAIR_A]
    assert ranks(table) == {PAIR_B: 1, PAIR_A: 2}


def test_results_without_briscola_statistics_count_zero_hands_and_card_points():
    table = compute(duel(1, ANNA, BRUNO), tie_breaks=("hands_won", "card_points"))
    assert table.row(ANNA).values == {"hands_won": 0, "card_points": 0}


def test_more_games_played_ranks_higher():
    # Duels: g1 Anna beats Carla, g2 Dario beats Anna, g3 Bruno beats Elena.
    # Anna, Bruno and Dario have 2 points each; Anna played 2 games, Bruno and Dario 1.
    results = played(duel(1, ANNA, CARLA), duel(2, DARIO, ANNA), duel(3, BRUNO, ELENA))
    table = compute(results, tie_breaks=("games_played",))
    assert order(table) == [ANNA, BRUNO, DARIO, CARLA, ELENA]
    assert ranks(table) == {ANNA: 1, BRUNO: 2, DARIO: 2, CARLA: 4, ELENA: 4}
    assert table.row(ANNA).games_played == 2


def test_the_tie_breaks_registry_lists_every_tie_break_with_a_label():
    assert list(TIE_BREAKS) == [
        "points",
        "game_score",
        "wins",
        "head_to_head",
        "opponents_strength",
        "hands_won",
        "card_points",
        "games_played",
    ]
    assert all(tie_break.key == key and tie_break.label for key, tie_break in TIE_BREAKS.items())


def test_columns_list_the_requested_tie_breaks_with_their_labels_in_order():
    table = compute([], tie_breaks=("head_to_head", "card_points"))
    assert table.columns == (("head_to_head", "Head to head"), ("card_points", "Card points"))
    assert table.scheme == "placement"


def test_an_unknown_tie_break_is_rejected():
    with pytest.raises(ValueError, match="unknown tie-break 'coin_toss'"):
        compute([], tie_breaks=("wins", "coin_toss"))


def test_a_tie_break_listed_twice_is_rejected():
    with pytest.raises(ValueError, match="more than once"):
        compute([], tie_breaks=("wins", "wins"))


# --------------------------------------------------------------------------------------------
# Shared ranks
# --------------------------------------------------------------------------------------------


def test_entrants_tied_on_everything_share_a_rank_and_the_next_rank_is_skipped():
    # Entrants 5, 7, 3, 9 (Elena, 7, Carla, 9). Duels:
    # 5 beats 7, 5 beats 3, 7 beats 9, 3 beats 9.
    # Points 5: 4; 3: 2; 7: 2; 9: 0. 3 and 7: 1 win each, opponents 5 (4) + 9 (0) = 4 each,
    # 2 games each, no game score, never met each other: tied on every tie-break.
    results = played(duel(1, 5, 7), duel(2, 5, 3), duel(3, 7, 9), duel(4, 3, 9))
    table = compute(results, tie_breaks=tuple(TIE_BREAKS))
    assert [(row.entrant, row.rank) for row in table.rows] == [(5, 1), (3, 2), (7, 2), (9, 4)]
    assert table.row(3).values == table.row(7).values


# --------------------------------------------------------------------------------------------
# League options
# --------------------------------------------------------------------------------------------

# Three club nights, one table of four each (3/2/1/0):
# night 1: Bruno 3, Anna 2, Carla 1, Dario 0
# night 2: Bruno 3, Anna 2, Dario 1, Carla 0
# night 3: Carla 3, Anna 2, Dario 1, Bruno 0
# Totals: Anna 2 + 2 + 2 = 6, Bruno 3 + 3 + 0 = 6, Carla 1 + 0 + 3 = 4, Dario 0 + 1 + 1 = 2.
NIGHTS = played(
    game(1, {BRUNO: 1, ANNA: 2, CARLA: 3, DARIO: 4}, group=1),
    game(2, {BRUNO: 1, ANNA: 2, DARIO: 3, CARLA: 4}, group=2),
    game(3, {CARLA: 1, ANNA: 2, DARIO: 3, BRUNO: 4}, group=3),
)


def test_every_group_counts_without_best_of():
    table = compute(NIGHTS, tie_breaks=("wins",))
    # Anna and Bruno 6: Bruno has 2 wins, Anna none.
    assert order(table) == [BRUNO, ANNA, CARLA, DARIO]
    assert points(table) == {ANNA: 6, BRUNO: 6, CARLA: 4, DARIO: 2}
    assert all(row.counted_groups == (1, 2, 3) for row in table.rows)
    assert all(row.groups_played == 3 for row in table.rows)


def test_best_of_counts_only_each_entrants_best_groups():
    # Best 2 of 3: Anna 2 + 2 = 4 (all nights equal: the earliest two count),
    # Bruno 3 + 3 = 6, Carla 3 + 1 = 4 (nights 1 and 3), Dario 1 + 1 = 2 (nights 2 and 3).
    # Anna and Carla tied on 4: Carla has a win (night 3), Anna none.
    table = compute(NIGHTS, best_of=2, tie_breaks=("wins",))
    assert points(table) == {ANNA: 4, BRUNO: 6, CARLA: 4, DARIO: 2}
    assert order(table) == [BRUNO, CARLA, ANNA, DARIO]
    counted = {row.entrant: row.counted_groups for row in table.rows}
    assert counted == {ANNA: (1, 2), BRUNO: (1, 2), CARLA: (1, 3), DARIO: (2, 3)}
    # Attendance, games and statistics still cover every night.
    assert table.row(ANNA).groups_played == 3
    assert table.row(BRUNO).games_played == 3


def test_best_of_more_than_the_groups_played_counts_them_all():
    table = compute(NIGHTS, best_of=5)
    assert points(table) == {ANNA: 6, BRUNO: 6, CARLA: 4, DARIO: 2}


def test_best_of_breaks_ties_between_groups_that_cannot_be_compared_by_their_repr():
    # Groups "night-a" and 2 cannot be sorted together; by repr "'night-a'" comes before "2".
    results = played(duel(1, ANNA, BRUNO, group=2), duel(2, ANNA, BRUNO, group="night-a"))
    table = compute(results, best_of=1)
    assert table.row(ANNA).counted_groups == ("night-a",)
    assert table.row(ANNA).points == 2
    assert compute(results).row(ANNA).counted_groups == ("night-a", 2)


def test_best_of_must_be_positive():
    with pytest.raises(ValueError, match="best_of must be at least 1"):
        compute(NIGHTS, best_of=0)


def test_entrants_below_the_minimum_attendance_are_listed_last_unranked():
    # Elena plays twice on night 1 only, beating Franco both times: 4 points, more than Dario,
    # but one night is below the minimum of two.
    results = NIGHTS + played(duel(4, ELENA, FRANCO), duel(5, ELENA, FRANCO))
    table = compute(results, min_groups=2, tie_breaks=("wins",))
    assert order(table) == [BRUNO, ANNA, CARLA, DARIO, ELENA, FRANCO]
    assert [row.rank for row in table.rows] == [1, 2, 3, 4, None, None]
    assert [row.ranked for row in table.rows] == [True, True, True, True, False, False]
    assert table.row(ELENA).points == 4
    assert table.row(ELENA).groups_played == 1


def test_minimum_attendance_cannot_be_negative():
    with pytest.raises(ValueError, match="min_groups cannot be negative"):
        compute(NIGHTS, min_groups=-1)


def test_listed_entrants_without_results_appear_with_nothing():
    table = compute(duel(1, ANNA, BRUNO), entrants=[CARLA, ANNA])
    row = table.row(CARLA)
    assert (row.points, row.games_played, row.groups_played, row.wins) == (0, 0, 0, 0)
    assert row.counted_groups == ()
    assert row.values == {"points": 0, "wins": 0, "opponents_strength": 0}
    # Bruno lost his duel: 0 points and no win, like Carla; but his opponent Anna has
    # 2 points (opponents' strength 2 against Carla's 0), so Bruno is ahead.
    assert order(table) == [ANNA, BRUNO, CARLA]
    assert ranks(table) == {ANNA: 1, BRUNO: 2, CARLA: 3}


def test_entrants_without_results_are_unranked_when_attendance_is_required():
    table = compute(duel(1, ANNA, BRUNO), entrants=[CARLA], min_groups=1)
    assert ranks(table) == {ANNA: 1, BRUNO: 2, CARLA: None}


# --------------------------------------------------------------------------------------------
# Adjustments
# --------------------------------------------------------------------------------------------


def test_adjustments_are_added_on_top_of_the_schemes_points():
    # Duels: Anna beats Bruno (2), Bruno beats Carla (2).
    # The organizer gives Carla 2 for a forfeit, takes 1 from Bruno, and gives Anna 1/2 twice.
    # Anna 2 + 1/2 + 1/2 = 3, Bruno 2 - 1 = 1, Carla 0 + 2 = 2.
    results = played(duel(1, ANNA, BRUNO), duel(2, BRUNO, CARLA))
    adjustments = [
        Adjustment(CARLA, 1, 2, "forfeit: Dario did not show"),
        Adjustment(BRUNO, 1, -1, "late"),
        Adjustment(ANNA, 1, Fraction(1, 2), "fair play"),
        Adjustment(ANNA, 2, Fraction(1, 2), "fair play"),
    ]
    table = compute(results, adjustments=adjustments)
    assert points(table) == {ANNA: 3, BRUNO: 1, CARLA: 2}
    assert order(table) == [ANNA, CARLA, BRUNO]
    # Adjustments are not games: Carla still played one game.
    assert table.row(CARLA).games_played == 1


def test_an_adjustment_alone_puts_an_entrant_in_the_standings():
    table = compute([], adjustments=[Adjustment(DARIO, "night 1", 3, "forfeit")])
    assert [(row.entrant, row.points, row.games_played) for row in table.rows] == [(DARIO, 3, 0)]


def test_adjustments_are_never_dropped_by_best_of():
    # Best 2 of 3 gives Dario 2 (test above); a 1-point penalty on night 2 still counts.
    table = compute(NIGHTS, best_of=2, adjustments=[Adjustment(DARIO, 2, -1, "penalty")])
    assert table.row(DARIO).points == 1


# --------------------------------------------------------------------------------------------
# Corrections
# --------------------------------------------------------------------------------------------


def test_a_corrected_result_flows_through_to_the_standings():
    # g1 Anna beats Carla, g2 Anna beats Bruno, g3 Bruno beats Carla: Anna 4, Bruno 2, Carla 0.
    # Game 2 was entered wrongly: the corrected sheet says Bruno won it. Anna 2, Bruno 4.
    wrong = played(duel(1, ANNA, CARLA), duel(2, ANNA, BRUNO), duel(3, BRUNO, CARLA))
    before = compute(wrong)
    assert ranks(before) == {ANNA: 1, BRUNO: 2, CARLA: 3}

    corrected = [
        dataclasses.replace(r, place=2 if r.entrant == ANNA else 1) if r.game == 2 else r
        for r in wrong
    ]
    after = compute(corrected)
    assert points(after) == {ANNA: 2, BRUNO: 4, CARLA: 0}
    assert ranks(after) == {BRUNO: 1, ANNA: 2, CARLA: 3}
    # Carla's opponents' strength follows too: Anna + Bruno = 4 + 2 before, 2 + 4 after.
    assert before.row(CARLA).values["opponents_strength"] == 6
    assert after.row(CARLA).values["opponents_strength"] == 6
    assert before.row(ANNA).values["opponents_strength"] == 2  # Carla 0 + Bruno 2
    assert after.row(ANNA).values["opponents_strength"] == 4  # Carla 0 + Bruno 4


# --------------------------------------------------------------------------------------------
# Records and validation
# --------------------------------------------------------------------------------------------


def test_records_in_and_out_are_frozen_and_rows_hashable():
    table = compute(duel(1, ANNA, BRUNO))
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.rows[0].points = Fraction(99)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.rows = ()  # type: ignore[misc]
    assert len({*table.rows}) == 2


def test_looking_up_an_entrant_not_in_the_standings_raises_key_error():
    with pytest.raises(KeyError):
        compute(duel(1, ANNA, BRUNO)).row(CARLA)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"competitors": 1, "place": 1}, "at least 2 competitors"),
        ({"place": 0}, "place 0 is not between 1 and 2"),
        ({"place": 3}, "place 3 is not between 1 and 2"),
        ({"opponents": (ANNA,)}, "its own opponent"),
        ({"opponents": (BRUNO, CARLA)}, "2 opponents at a table of 2"),
    ],
)
def test_an_impossible_result_is_rejected(fields, message):
    base = {"entrant": ANNA, "game": 1, "group": 1, "place": 1, "competitors": 2, "score": 0}
    with pytest.raises(ValueError, match=message):
        Result(**{**base, **fields})


@pytest.mark.parametrize(
    ("results", "message"),
    [
        (
            game(1, {ANNA: 1, BRUNO: 2}) + game(1, {CARLA: 1, DARIO: 2}),
            "4 results at a table of 2",
        ),
        (
            game(1, {ANNA: 1, BRUNO: 2, CARLA: 3})[:2] + game(1, {ANNA: 1, BRUNO: 2, CARLA: 3})[:1],
            "more than one result",
        ),
        (  # Anna at a table of two, Bruno at a table of three
            game(1, {ANNA: 1, BRUNO: 2})[:1] + game(1, {ANNA: 1, BRUNO: 2, CARLA: 3})[1:2],
            "disagree",
        ),
        (  # the same game in two club nights
            game(1, {ANNA: 1, BRUNO: 2}, group=1)[:1] + game(1, {ANNA: 1, BRUNO: 2}, group=2)[1:],
            "disagree",
        ),
        (  # Turkish for one, not for the other
            game(1, {ANNA: 1, BRUNO: 2})[:1] + game(1, {ANNA: 1, BRUNO: 2}, lowest_wins=True)[1:],
            "disagree",
        ),
        (game(1, {ANNA: 1, BRUNO: 3, CARLA: 3}), "2 entrants share place 3"),
    ],
)
def test_results_of_one_game_that_contradict_each_other_are_rejected(results, message):
    with pytest.raises(ValueError, match=message):
        compute(results)


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------


@st.composite
def competitions(draw):
    """Random games (every seat filled, places from random totals) and league options."""
    pool = list(range(1, draw(st.integers(2, 8)) + 1))
    six = st.lists(st.integers(0, 4), min_size=6, max_size=6)
    tables = st.tuples(
        st.integers(2, min(6, len(pool))),  # table size
        st.permutations(pool),  # seating: the first `size` sit
        six,  # game totals, few values so that places are often shared
        st.booleans(),  # lowest wins
        st.integers(1, 4),  # group
        st.one_of(st.none(), st.tuples(six, six)),  # Briscola hands won and card points
    )
    results = []
    for game_id, (size, seating, totals, lowest_wins, group, briscola) in enumerate(
        draw(st.lists(tables, max_size=12))
    ):
        seated, totals = seating[:size], totals[:size]
        for seat, (entrant, total) in enumerate(zip(seated, totals, strict=True)):
            better = sum(1 for t in totals if (t < total if lowest_wins else t > total))
            results.append(
                Result(
                    entrant=entrant,
                    game=game_id,
                    group=group,
                    place=1 + better,
                    competitors=size,
                    score=total,
                    lowest_wins=lowest_wins,
                    opponents=tuple(o for o in seated if o != entrant),
                    hands_won=briscola[0][seat] if briscola else None,
                    card_points=briscola[1][seat] * 30 if briscola else None,
                )
            )
    entrants = draw(st.lists(st.integers(1, 10), max_size=3))
    adjustments = draw(
        st.lists(
            st.builds(
                Adjustment,
                entrant=st.integers(1, 10),
                group=st.integers(1, 4),
                points=st.fractions(-3, 3, max_denominator=4),
            ),
            max_size=3,
        )
    )
    options = {
        "scheme": draw(st.sampled_from(sorted(SCHEMES))),
        "tie_breaks": tuple(draw(st.permutations(list(TIE_BREAKS)))[: draw(st.integers(0, 8))]),
        "best_of": draw(st.one_of(st.none(), st.integers(1, 3))),
        "min_groups": draw(st.integers(0, 2)),
        "adjustments": adjustments,
        "entrants": entrants,
    }
    return results, options


def sort_key(row, tie_breaks):
    return (row.points, *(row.values[key] for key in tie_breaks))


@PROPERTIES
@given(competitions())
def test_property_every_entrant_appears_exactly_once(competition):
    results, options = competition
    table = compute(results, **options)
    expected = (
        {r.entrant for r in results}
        | set(options["entrants"])
        | {a.entrant for a in options["adjustments"]}
    )
    assert sorted(order(table)) == sorted(expected)


@PROPERTIES
@given(competitions())
def test_property_ranks_are_a_competition_ranking_with_unranked_last(competition):
    results, options = competition
    table = compute(results, **options)
    ranked = [row for row in table.rows if row.ranked]
    unranked = table.rows[len(ranked) :]
    assert all(not row.ranked and row.rank is None for row in unranked)
    for i, row in enumerate(ranked):
        if i == 0:
            assert row.rank == 1
        else:
            assert row.rank in (ranked[i - 1].rank, i + 1)
    for row in table.rows:
        assert row.ranked == (row.groups_played >= options["min_groups"])


@PROPERTIES
@given(competitions(), st.randoms(use_true_random=False))
def test_property_recomputation_is_deterministic_whatever_the_order_of_records(
    competition, rng: random.Random
):
    results, options = competition
    first = compute(results, **options)
    assert compute(results, **options) == first
    shuffled = results[:]
    rng.shuffle(shuffled)
    adjustments = options["adjustments"][:]
    rng.shuffle(adjustments)
    assert compute(shuffled, **{**options, "adjustments": adjustments}) == first


@PROPERTIES
@given(competitions())
def test_property_rows_are_sorted_by_points_then_the_tie_break_values(competition):
    results, options = competition
    table = compute(results, **options)
    tie_breaks = options["tie_breaks"]
    assert all(list(row.values) == list(tie_breaks) for row in table.rows)
    ranked = [row for row in table.rows if row.ranked]
    unranked = [row for row in table.rows if not row.ranked]
    for rows in (ranked, unranked):
        for above, below in pairwise(rows):
            assert sort_key(above, tie_breaks) >= sort_key(below, tie_breaks)
    for above, below in pairwise(ranked):
        same_key = sort_key(above, tie_breaks) == sort_key(below, tie_breaks)
        assert same_key == (above.rank == below.rank)
        if same_key:
            assert above.entrant < below.entrant


@PROPERTIES
@given(competitions())
def test_property_placement_points_are_neither_created_nor_lost_by_shared_places(competition):
    results, _ = competition
    table = compute(results)
    seats_points = {2: 2, 3: 6, 4: 6, 5: 10, 6: 15}  # the sum of each table size's points
    per_game = {r.game: r.competitors for r in results}
    assert sum(points(table).values()) == sum(seats_points[size] for size in per_game.values())


def recount(results, options):
    """Every entrant's figures counted the plain way, in fractions, game by game: the yardstick
    of ``compute``'s faster bookkeeping (integers over a common denominator)."""
    scheme, table = SCHEMES[options["scheme"]], ranking._placement_table(None)
    by_game = defaultdict(list)
    for r in results:
        by_game[r.game].append(r)
    per_group = defaultdict(lambda: defaultdict(Fraction))
    counts = defaultdict(lambda: dict.fromkeys(["games_played", "wins", "game_score", "hands_won",
                                                "card_points"], 0))  # fmt: skip
    met = defaultdict(list)
    for game_results in by_game.values():
        for r in game_results:
            shared = sum(1 for other in game_results if other.place == r.place)
            per_group[r.entrant][r.group] += scheme.points(r, shared, table)
            figures = counts[r.entrant]
            figures["games_played"] += 1
            figures["wins"] += r.place == 1
            figures["game_score"] += -r.score if r.lowest_wins else r.score
            figures["hands_won"] += r.hands_won or 0
            figures["card_points"] += r.card_points or 0
            met[r.entrant].append(r.opponents)
    everyone = set(per_group) | set(options["entrants"])
    everyone |= {a.entrant for a in options["adjustments"]}
    totals = {}
    for entrant in everyone:
        groups = sorted(per_group[entrant], key=lambda g: (-per_group[entrant][g], g))
        counted = groups[: options["best_of"]] if options["best_of"] else groups
        totals[entrant] = sum(per_group[entrant][g] for g in counted) + sum(
            Fraction(a.points) for a in options["adjustments"] if a.entrant == entrant
        )
    return {
        entrant: counts[entrant]
        | {
            "points": totals[entrant],
            "groups_played": len(per_group[entrant]),
            # One term per game: the mean of that table's opponents (fair across table sizes).
            "opponents_strength": sum(
                (
                    Fraction(sum(totals.get(o, 0) for o in opponents), len(opponents))
                    for opponents in met[entrant]
                    if opponents
                ),
                Fraction(0),
            ),
        }
        for entrant in everyone
    }


@PROPERTIES
@given(competitions())
def test_property_every_figure_matches_a_plain_recount(competition):
    results, options = competition
    expected = recount(results, options)
    for row in compute(results, **options).rows:
        figures = expected[row.entrant]
        assert (row.points, row.games_played, row.wins, row.groups_played) == (
            figures["points"],
            figures["games_played"],
            figures["wins"],
            figures["groups_played"],
        )
        for key, value in row.values.items():
            if key != "head_to_head":
                assert value == figures[key], key
