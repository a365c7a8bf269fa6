"""Standings recomputed from plain game results: the points schemes.

Every expected table below is worked out by hand in the comments next to it. Entrants are named
for readability; their ids order the display of entrants sharing a rank.
"""

from fractions import Fraction

import pytest

from tournaments.standings import SCHEMES, compute

from .standings_helpers import ANNA, BRUNO, CARLA, DARIO, game, order, played, points

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
