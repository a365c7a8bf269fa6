"""Team standings (``tournaments.standings.teams``): the worked examples of
``docs/team-standings.md``, and every rule of the tie-breaks one by one."""

import pytest

from teams.standings.teams import (
    TEAM_TIE_BREAKS,
    BoardScore,
    MatchPoints,
    MatchRecord,
    compute,
    lot,
    match_outcome,
)

A, B, C, D, E = 1, 2, 3, 4, 5
P, Q, R, S = 11, 12, 13, 14

# Boards of the examples: (winner's games, loser's games) and their card points.
WON_2_0 = (2, 0, 150, 90)
WON_2_1 = (2, 1, 190, 170)


def board(games_home, games_away, card_home, card_away):
    return BoardScore(games_home, games_away, card_home, card_away)


def home_won(*kinds):
    """A board won by the home side, of each kind given."""
    return tuple(board(*kind) for kind in kinds)


def away_won(*kinds):
    return tuple(board(k[1], k[0], k[3], k[2]) for k in kinds)


def match(number, home, away, *boards):
    return MatchRecord(number, home, away, tuple(b for group in boards for b in group))


def two_one(number, winner, loser):
    """``winner`` beats ``loser`` 2 boards to 1 (boards 2-0 and 2-1 won, one lost 1-2)."""
    return match(number, winner, loser, home_won(WON_2_0, WON_2_1), away_won(WON_2_1))


def three_nil(number, winner, loser):
    return match(number, winner, loser, home_won(WON_2_0, WON_2_1, WON_2_0))


#: The palio of five districts (docs/team-standings.md, example 1).
PALIO = (
    two_one(1, A, B),
    two_one(2, A, C),
    three_nil(3, D, A),
    three_nil(4, E, A),
    two_one(5, B, C),
    two_one(6, B, D),
    two_one(7, E, B),
    three_nil(8, C, D),
    three_nil(9, C, E),
    two_one(10, E, D),
)

#: Four teams, two pairs tied (docs/team-standings.md, example 2).
LEAGUE = (
    two_one(1, P, Q),
    two_one(2, R, P),
    two_one(3, P, S),
    three_nil(4, Q, R),
    three_nil(5, Q, S),
    two_one(6, S, R),
)


def test_classifica_avulsa_orders_the_three_tied_teams_by_their_mini_table():
    standings = compute(PALIO, seed="palio")
    assert [(r.team, r.rank, r.match_points) for r in standings.rows] == [
        (E, 1, 3),
        (A, 2, 2),
        (B, 3, 2),
        (C, 4, 2),
        (D, 5, 1),
    ]
    a, b, c = (standings.row(t) for t in (A, B, C))
    # Overall, C won the most boards and games, A the fewest: the opposite order.
    assert (a.boards_won, b.boards_won, c.boards_won) == (4, 6, 8)
    assert (a.games_won, b.games_won, c.games_won) == (12, 16, 18)
    assert [r.values["avulsa"] for r in (a, b, c)] == [2, 1, 0]
    assert {r.decided_by for r in (a, b, c)} == {"avulsa"}
    assert not any(r.shared for r in standings.rows)
    (mini,) = standings.mini_tables
    assert mini.teams == (A, B, C)
    assert mini.points == ((A, 2), (B, 1), (C, 0))
    assert (mini.matches, mini.level) == (3, 1)
    e = standings.row(E)
    assert (e.played, e.won, e.drawn, e.lost, e.decided_by, e.values) == (4, 3, 0, 1, None, {})
    assert (e.boards_won, e.boards_lost, e.games_won, e.games_lost) == (7, 5, 17, 13)
    assert (e.card_points_for, e.card_points_against) == (1860, 1740)
    assert e.card_points_difference == 120


def test_two_teams_tied_are_separated_by_head_to_head():
    standings = compute(LEAGUE, seed="league")
    assert [(r.team, r.rank, r.match_points) for r in standings.rows] == [
        (P, 1, 2),
        (Q, 2, 2),
        (S, 3, 1),
        (R, 4, 1),
    ]
    p, q, r, s = (standings.row(t) for t in (P, Q, R, S))
    assert q.boards_won > p.boards_won  # boards would have put Q first
    assert (p.values, q.values) == ({"head_to_head": 1}, {"head_to_head": 0})
    assert (r.values, s.values) == ({"head_to_head": 0}, {"head_to_head": 1})
    assert {x.decided_by for x in (p, q, r, s)} == {"head_to_head"}
    assert standings.mini_tables == ()


def test_a_mini_table_that_leaves_three_still_tied_recomputes_them_then_goes_on():
    # W, X, Y, Z all on 3 points. Among the four W beat everyone (3 points) while X, Y, Z beat
    # each other in a circle (1 each): W is placed; X, Y, Z are recomputed among themselves,
    # still 1 each, so the mini-table stops and the next tie-breaks (all equal) reach the lots.
    W, X, Y, Z, OUT = 21, 22, 23, 24, 25
    matches = (
        two_one(1, W, X),
        two_one(2, W, Y),
        two_one(3, W, Z),
        two_one(4, X, Y),
        two_one(5, Y, Z),
        two_one(6, Z, X),
        two_one(7, OUT, W),
        *(two_one(8 + i, team, OUT) for i, team in enumerate((X, X, Y, Y, Z, Z))),
    )
    standings = compute(matches, seed="s")
    assert {standings.row(t).match_points for t in (W, X, Y, Z)} == {3}
    first, second = standings.mini_tables
    assert (first.teams, first.level) == ((W, X, Y, Z), 1)
    assert first.points == ((W, 3), (X, 1), (Y, 1), (Z, 1))
    assert (second.teams, second.level, second.matches) == ((X, Y, Z), 2, 3)
    assert second.points == ((X, 1), (Y, 1), (Z, 1))
    assert standings.rows[0].team == W
    assert standings.row(W).decided_by == "avulsa"
    rest = standings.rows[1:4]
    assert {r.decided_by for r in rest} == {"lots"}
    assert [r.team for r in rest] == sorted((X, Y, Z), key=lambda t: -lot("s", t))
    assert [r.values["lots"] for r in rest] == [lot("s", r.team) for r in rest]
    assert compute(matches, seed="s").rows == standings.rows  # reproducible


def test_a_mini_table_that_splits_off_pairs_recomputes_each_pair_alone():
    # Among W, X, Y, Z (all on 2 points): W 2, Z 2, X 1, Y 1. Each pair is then recomputed
    # alone: Z beat W, X beat Y.
    W, X, Y, Z, OUT = 21, 22, 23, 24, 25
    matches = (
        two_one(1, W, X),
        two_one(2, W, Y),
        two_one(3, Z, W),
        two_one(4, X, Y),
        two_one(5, Y, Z),
        two_one(6, Z, X),
        two_one(7, OUT, W),
        two_one(8, OUT, X),
        two_one(9, Y, OUT),
        two_one(10, OUT, Z),
        two_one(11, X, OUT),
    )
    standings = compute(matches, seed="y")
    assert {standings.row(t).match_points for t in (W, X, Y, Z)} == {2}
    assert [r.team for r in standings.rows] == [OUT, Z, W, X, Y]
    tables = {m.teams: (m.level, m.points) for m in standings.mini_tables}
    assert tables[(W, Z, X, Y)] == (1, ((W, 2), (Z, 2), (X, 1), (Y, 1)))
    assert tables[(Z, W)] == (2, ((Z, 1), (W, 0)))
    assert tables[(X, Y)] == (2, ((X, 1), (Y, 0)))
    assert {standings.row(t).decided_by for t in (W, X, Y, Z)} == {"avulsa"}
    assert standings.row(OUT).decided_by is None


def test_later_tie_breaks_in_order():
    # U and V never met, same points: boards, then games, then card points decide.
    U, V, OUT = 51, 52, 53
    boards_first = (
        match(1, U, OUT, home_won(WON_2_0, WON_2_0, WON_2_0)),
        match(2, V, OUT, home_won(WON_2_0, WON_2_0), away_won(WON_2_0)),
    )
    s = compute(boards_first)
    assert [r.team for r in s.rows][:2] == [U, V]
    assert s.row(U).decided_by == "boards_won"
    games_next = (
        match(1, U, OUT, home_won(WON_2_0, WON_2_0), away_won(WON_2_1)),
        match(2, V, OUT, home_won(WON_2_0, WON_2_0), away_won(WON_2_0)),
    )
    s = compute(games_next)
    assert [r.team for r in s.rows][:2] == [U, V]
    assert s.row(V).decided_by == "games_won"
    cards_last = (
        match(1, U, OUT, home_won((2, 0, 200, 40)), away_won(WON_2_0)),
        match(2, V, OUT, home_won(WON_2_0), away_won(WON_2_0)),
    )
    s = compute(cards_last, result_by="games", points=MatchPoints(win=2, draw=1, loss=0))
    assert s.row(U).match_points == s.row(V).match_points == 1  # two drawn matches, 2-2 games
    assert [r.team for r in s.rows][1:] == [U, V]
    assert s.row(U).decided_by == "card_points_difference"


def test_teams_tied_on_everything_listed_share_a_rank():
    U, V, OUT = 61, 62, 63
    matches = (
        match(1, U, OUT, home_won(WON_2_0)),
        match(2, V, OUT, home_won(WON_2_0)),
    )
    s = compute(matches, teams=(U, V, OUT, 64), tie_breaks=("boards_won",))
    assert [(r.team, r.rank, r.shared, r.decided_by) for r in s.rows] == [
        (U, 1, True, None),
        (V, 1, True, None),
        (OUT, 3, True, None),
        (64, 3, True, None),
    ]
    assert s.row(64).played == 0
    with pytest.raises(KeyError):
        s.row(99)


def test_match_outcome_by_each_measure_and_draws():
    record = match(1, A, B, home_won((2, 0, 130, 110)), away_won((2, 1, 250, 110)))
    points = MatchPoints(win=3, draw=1, loss=0)
    by_boards = match_outcome(record, result_by="boards", points=points)
    assert (by_boards.home_score, by_boards.away_score, by_boards.winner) == (1, 1, None)
    assert (by_boards.home_points, by_boards.away_points) == (1, 1)
    by_games = match_outcome(record, result_by="games", points=points)
    assert (by_games.home_score, by_games.away_score, by_games.winner) == (3, 2, "home")
    assert (by_games.home_points, by_games.away_points) == (3, 0)
    by_cards = match_outcome(record, result_by="card_points", points=points)
    assert (by_cards.home_score, by_cards.away_score, by_cards.winner) == (240, 360, "away")
    assert (by_cards.home_points, by_cards.away_points) == (0, 3)
    drawn_board = BoardScore(1, 1, 120, 120)
    assert drawn_board.winner is None
    s = compute([record], result_by="boards", points=points)
    assert (s.row(A).drawn, s.row(B).drawn, s.row(A).match_points) == (1, 1, 1)
    s = compute([record], result_by="card_points", points=points)
    assert (s.row(A).lost, s.row(B).won) == (1, 1)


def test_lots_are_reproducible_and_depend_on_the_seed():
    assert lot("a", 1) == lot("a", 1)
    assert lot("a", 1) != lot("b", 1)
    assert (
        compute([], teams=(1, 2, 3), seed="a").rows == compute([], teams=(3, 2, 1), seed="a").rows
    )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: compute([], tie_breaks=("nope",)), "unknown tie-break"),
        (lambda: compute([], tie_breaks=("lots", "lots")), "more than once"),
        (lambda: compute([two_one(1, A, B), two_one(1, A, C)]), "given twice"),
        (lambda: compute([two_one(1, A, B)], result_by="nope"), "unknown match result"),
        (lambda: MatchPoints(win=0, draw=1), "at least a draw"),
        (lambda: BoardScore(-1, 0), "negative"),
        (lambda: MatchRecord(1, A, A, (BoardScore(2, 0),)), "itself"),
        (lambda: MatchRecord(1, A, B, ()), "at least one board"),
    ],
)
def test_bad_input_is_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_every_tie_break_has_a_label():
    from teams.standings.teams import TIE_BREAK_LABELS

    assert set(TIE_BREAK_LABELS) == set(TEAM_TIE_BREAKS)
