"""Who can still win a league between teams (issue 25, point 5): the matches left of a round
robin, each won, drawn or lost, put to the league outlook (``outlook.outlook``) as nights of one
table of two whose seats score match points: first alone a win, first shared a draw, second a
loss. A drawn match is always possible (a board may end level), so every outcome the league
outlook tries is one the teams can play. As in the leagues, a tie on match points counts as
first place: the tie-breaks of the matches left are not known yet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from tournaments.standings.outlook import Night, Outlook, outlook


def team_outlook(
    points: Mapping[int, int],
    matches: Sequence[tuple[int, int]],
    *,
    win: int,
    draw: int,
    loss: int,
    budget: int = 3_000,
) -> dict[int, Outlook]:
    """The outlook of every team of ``points`` (team -> match points so far) over the
    ``matches`` left (home, away), with the match points of a won, drawn and lost match."""
    rows = {2: {(1, 1): Fraction(win), (1, 2): Fraction(draw), (2, 1): Fraction(loss)}}
    nights = [Night(index, tables=(match,)) for index, match in enumerate(matches)]
    played = {team: [total] for team, total in points.items()}
    return outlook(played, nights, rows=rows, budget=budget)
