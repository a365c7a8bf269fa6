"""Helpers shared by the standings tests (test_standings_*.py): entrants by name, the results of
one game, and the points, ranks and order of a table."""

from tournaments.standings import Result, Standings

ANNA, BRUNO, CARLA, DARIO, ELENA, FRANCO = 1, 2, 3, 4, 5, 6


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
