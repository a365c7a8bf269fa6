"""Player statistics (scoring.stats) on a built set of five games, every figure worked out by
hand in the comments. Pure: no database."""

from datetime import UTC, datetime

from scoring.rules import RULESETS
from scoring.stats import players as stats
from scoring.stats.ratings import PlayedGame, PlayedHand, matches_of

A, B, C, D, E = 1, 2, 3, 4, 5


def game(id_, ruleset, day, players, hands, options=None):
    rules = RULESETS[ruleset]
    hands = tuple(PlayedHand(doc, tuple(deltas), points) for doc, deltas, points in hands)
    totals = tuple(sum(h.deltas[s] for h in hands) for s in range(len(players)))
    return PlayedGame(
        id=id_,
        ruleset=ruleset,
        options=rules.resolve_options(options or {}, len(players)),
        finished_at=day,
        players=players,
        totals=totals,
        hand_count=len(hands),
        hands=hands,
    )


def played(doc, deltas, points=None):
    return (doc, deltas, points)


T = {"outcome": "played"}
GAMES = [
    # Terziglio: A solo made, a pass, A chiamo failed, B chiamo swept by A and C.
    # Totals 8, -13, 7: A first, C second, B third.
    game(1, "terziglio", datetime(2025, 1, 10, 20, tzinfo=UTC), (A, B, C), [
        played(T | {"dealer": 0, "soloist": 0, "contract": "solo", "soloist_points": 8, "sweep": "none"}, (4, -2, -2)),
        played({"dealer": 1, "outcome": "passed_out"}, (0, 0, 0)),
        played(T | {"dealer": 2, "soloist": 0, "contract": "chiamo", "soloist_points": 3, "sweep": "none"}, (-2, 1, 1)),
        played(T | {"dealer": 0, "soloist": 1, "contract": "chiamo", "soloist_points": 0, "sweep": "opponents"}, (6, -12, 6)),
    ]),
    # Briscola, A against D, to two hands: 70-50, 40-80, 65-55; A wins 2-1.
    game(2, "briscola", datetime(2025, 1, 11, 20, tzinfo=UTC), (A, D), [
        played({"dealer": 0, "points": [70, 50]}, (1, 0), (70, 50)),
        played({"dealer": 1, "points": [40, 80]}, (0, 1), (40, 80)),
        played({"dealer": 0, "points": [65, 55]}, (1, 0), (65, 55)),
    ]),
    # Briscola pairs: A and C (seats 0, 2) lose 0-2 to B and D: 50-70, 30-90.
    game(3, "briscola", datetime(2025, 2, 14, 20, tzinfo=UTC), (A, B, C, D), [
        played({"dealer": 0, "points": [50, 70]}, (0, 1, 0, 1), (50, 70)),
        played({"dealer": 1, "points": [30, 90]}, (0, 1, 0, 1), (30, 90)),
    ]),
    # Turkish, B A E: A goes out first in deal 1, then takes 25. Totals 10, 25, 35: B, A, E.
    game(4, "turkish", datetime(2025, 2, 15, 20, tzinfo=UTC), (B, A, E), [
        played({"dealer": 0, "went_out": 1}, (10, 0, 30)),
        played({"dealer": 1, "went_out": 0}, (0, 25, 5)),
    ]),
    # Chiamata: A calls D and makes it, then calls himself alone and fails.
    # Totals -2, 0, 0, 2, 0: D first; B, C, E second; A fifth.
    game(5, "briscola_chiamata", datetime(2025, 2, 16, 20, tzinfo=UTC), (A, B, C, D, E), [
        played(T | {"dealer": 0, "caller": 0, "partner": 3, "target": 61, "caller_points": 70}, (2, -1, -1, 1, -1)),
        played(T | {"dealer": 1, "caller": 0, "partner": 0, "target": 61, "caller_points": 40}, (-4, 1, 1, 1, 1)),
    ]),
]  # fmt: skip


def test_results_give_each_game_the_players_place_from_the_rules_ranking():
    rows = stats.results(A, GAMES)
    assert [(r.game, r.place, r.n, r.total, r.won) for r in rows] == [
        (1, 1, 3, 8, True),
        (2, 1, 2, 2, True),
        (3, 2, 4, 0, False),
        (4, 2, 3, 25, False),
        (5, 5, 5, -2, False),
    ]


def test_streaks_count_the_current_run_and_the_longest_runs():
    assert stats.streaks(stats.results(A, GAMES)) == stats.Streaks(
        current_won=False, current=3, longest_won=2, longest_without_win=3
    )
    assert stats.streaks([]) == stats.Streaks(None, 0, 0, 0)


def test_activity_counts_games_per_month_oldest_first():
    months = [g.finished_at.strftime("%Y-%m") for g in reversed(GAMES)]
    assert stats.activity(months) == [("2025-01", 2), ("2025-02", 3)]


def test_terziglio_counts_bids_and_made_by_contract_and_sweeps_of_the_players_side():
    figures = stats.per_game(A, GAMES)["terziglio"]
    assert figures == {
        "games": 1,
        "bids": 2,
        "made": 1,
        "contracts": [
            {"contract": "chiamo", "bid": 1, "made": 0},
            {"contract": "solo", "bid": 1, "made": 1},
        ],
        "sweeps": 1,  # as an opponent of B, whose opponents took every trick
    }


def test_briscola_counts_hands_and_matches_won_and_averages_the_sides_card_points():
    # Hands won 2 + 0; matches won 1 of 2; card points (70 + 40 + 65 + 50 + 30) / 5 = 51.
    assert stats.per_game(A, GAMES)["briscola"] == {
        "games": 2,
        "hands_won": 2,
        "matches": 2,
        "matches_won": 1,
        "average_card_points": 51.0,
    }


def test_turkish_averages_the_penalty_per_deal_and_counts_times_out_first():
    # Penalties 0 and 25 in two deals: 12.5; out first once.
    assert stats.per_game(A, GAMES)["turkish"] == {
        "games": 1,
        "deals": 2,
        "average_penalty": 12.5,
        "out_first": 1,
    }


def test_chiamata_counts_calls_with_a_partner_and_alone_and_their_success():
    assert stats.per_game(A, GAMES)["briscola_chiamata"] == {
        "games": 1,
        "calls": 2,
        "with_partner": 1,
        "with_partner_made": 1,
        "alone": 1,
        "alone_made": 0,
    }


def test_head_to_head_counts_partners_and_opponents_over_the_rated_matches():
    versus = stats.head_to_head(A, GAMES)
    partners = {v.other: (v.matches, v.wins, v.losses) for v in versus.partners}
    opponents = {v.other: (v.matches, v.wins, v.losses) for v in versus.opponents}
    # Partners: C in the Briscola pairs (lost), D in chiamata hand 1 (won).
    assert partners == {C: (1, 0, 1), D: (1, 1, 0)}
    # B: beaten in Terziglio and chiamata hand 1; lost to in the pairs, Turkish, hand 2.
    # C: beaten in Terziglio and hand 1, lost to in hand 2. D: beaten at Briscola, lost to in
    # the pairs and hand 2. E: beaten in Turkish and hand 1, lost to in hand 2.
    assert opponents == {B: (5, 2, 3), C: (3, 2, 1), D: (3, 1, 2), E: (3, 2, 1)}
    assert [v.other for v in versus.best_partners()] == [D]
    assert [v.other for v in versus.toughest_opponents()] == [B, D, C, E]
    assert versus.opponents[0].draws == 0


def test_matches_follow_the_sides_the_rules_give():
    pairs, chiamata = matches_of(GAMES[2]), matches_of(GAMES[4])
    assert [(m.teams, m.ranks) for m in pairs] == [(((A, C), (B, D)), (2, 1))]
    assert [(m.teams, m.ranks) for m in chiamata] == [
        (((A, D), (B, C, E)), (1, 2)),
        (((A,), (B, C, D, E)), (2, 1)),
    ]
    one_against_one = matches_of(GAMES[1])
    assert [(m.teams, m.ranks) for m in one_against_one] == [(((A,), (D,)), (1, 2))]
    turkish = matches_of(GAMES[3])  # the lowest total first
    assert [(m.teams, m.ranks) for m in turkish] == [(((B,), (A,), (E,)), (1, 2, 3))]


# -- the edges --------------------------------------------------------------------------------


def test_a_player_in_no_team_of_a_match_has_no_head_to_head_from_it():
    """A passed chiamata hand is no match at all; a player who was not at the table is in no
    team of the played one."""
    day = datetime(2025, 4, 1, 20, tzinfo=UTC)
    chiamata = game(
        7,
        "briscola_chiamata",
        day,
        (A, B, C, D, E),
        [
            played({"dealer": 0, "outcome": "passed_out"}, (0, 0, 0, 0, 0)),
            played(
                {
                    "dealer": 1,
                    "outcome": "played",
                    "caller": 2,
                    "partner": 3,
                    "target": 61,
                    "caller_points": 70,
                },
                (0, 0, 2, 1, 0),
            ),
        ],
    )
    assert len(matches_of(chiamata)) == 1
    outsider = stats.head_to_head(99, [chiamata])
    assert (outsider.partners, outsider.opponents) == ([], [])


def test_soloist_stats_skip_the_hands_a_player_sat_out_and_briscola_hands_without_points():
    day = datetime(2025, 4, 2, 20, tzinfo=UTC)
    four = game(
        8,
        "terziglio",
        day,
        (A, B, C, D),
        [
            # D deals and sits out; A makes a chiamo against B and C.
            played(
                T
                | {
                    "dealer": 3,
                    "soloist": 0,
                    "contract": "chiamo",
                    "soloist_points": 7,
                    "sweep": "none",
                },
                (2, -1, -1, 0),
            ),
        ],
    )
    assert stats.soloist_stats(D, [four])["sweeps"] == 0
    no_points = game(
        9, "briscola", day, (A, B), [played({"dealer": 0, "points": [61, 59]}, (1, 0))]
    )
    figures = stats.briscola_stats(A, [no_points])
    assert figures["average_card_points"] is None
