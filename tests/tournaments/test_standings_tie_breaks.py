"""Standings recomputed from plain game results: the tie-breaks, and entrants tied on
everything sharing a rank.

Every expected table below is worked out by hand in the comments next to it. Entrants are named
for readability; their ids order the display of entrants sharing a rank.
"""

import pytest

from tournaments.standings import TIE_BREAKS, Result, compute

from .standings_helpers import ANNA, BRUNO, CARLA, DARIO, ELENA, duel, game, order, played, ranks

PAIR_A, PAIR_B = 10, 20  # two fixed Briscola pairs


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
