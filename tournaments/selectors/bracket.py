"""A bracket as drawn and played: the bracket stored on its first round, and the outcome of
every match settled so far (played, or forfeited with more points given to one side)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from scoring.models import GameStatus
from tournaments.models import Adjustment, Competition, RoundStatus, Table
from tournaments.scheduling import Bracket


def bracket_of(
    competition: Competition, *, up_to: int | None = None
) -> tuple[Any, dict[int, tuple[int, int]]] | None:
    """Knockout: the drawn bracket (``scheduling.Bracket``) and the outcome of every match
    settled so far, by match number; ``None`` before the first round is drawn. ``up_to``: as
    it stood after that round (``None`` too before the knockout's first round)."""
    start = competition.knockout_from
    if up_to is not None and (start is None or up_to < start):
        return None
    stored = bracket_json(competition)
    if not stored:
        return None
    return Bracket.from_json(stored), match_outcomes(competition, up_to=up_to)


def bracket_json(competition: Competition) -> dict[str, Any]:
    """The bracket as stored on its first round ({} before it is drawn)."""
    start = competition.knockout_from
    if start is None:
        return {}
    first = competition.rounds.filter(number__gte=start).order_by("number").only("bracket").first()
    return (first.bracket if first is not None else None) or {}


def _forfeit_winner(table: Table, seats: Sequence[int]) -> int | None:
    """The entry that goes through a forfeited knockout match: the one the organizer gave
    more points to (see ``forfeit_table``)."""
    given = dict.fromkeys(seats, Decimal(0))
    for entry_id, points in Adjustment.objects.filter(
        round_id=table.round_id, entry_id__in=seats
    ).values_list("entry_id", "points"):
        given[entry_id] += points
    best = max(given.values())
    leaders = [e for e, p in given.items() if p == best]
    return leaders[0] if len(leaders) == 1 else None


def match_outcomes(
    competition: Competition, *, up_to: int | None = None
) -> dict[int, tuple[int, int]]:
    """Knockout: (winner, loser) of every match played or forfeited, by match number (in the
    rounds up to ``up_to`` only, when given)."""
    outcome: dict[int, tuple[int, int]] = {}
    rounds = competition.rounds.exclude(status=RoundStatus.DRAFT)
    if up_to is not None:
        rounds = rounds.filter(number__lte=up_to)
    for round_ in rounds:
        numbers = round_.metrics.get("matches", [])
        for table in round_.tables.select_related("game").order_by("number"):
            if table.number - 1 >= len(numbers):
                continue
            seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
            if table.forfeited:
                winner = _forfeit_winner(table, seats)
                if winner is not None:
                    loser = next(e for e in seats if e != winner)
                    outcome[numbers[table.number - 1]] = (winner, loser)
                continue
            game = table.game
            if game is None or game.status != GameStatus.FINISHED:
                continue
            winner_side = next(p.seat for p in game.rules.ranking(game.state()) if p.place == 1) % 2
            winner = seats[winner_side]
            outcome[numbers[table.number - 1]] = (winner, seats[1 - winner_side])
    return outcome


def games_score(game) -> dict[str, Any] | None:
    """A match of two sides played to a number of wins (Briscola): the games each side has
    won (``home`` is the side of seat 1), whether it is over, and whether a deciding game (the
    *bella*) was played at one win short each. None for any other game, or before a hand."""
    if game is None or not game.hand_count or not game.rules.totals_are_hands_won:
        return None
    totals = list(game.totals or ())
    sides = game.rules.sides(game.options, len(totals)) if totals else None
    if not sides or len(sides) != 2:
        return None
    home, away = totals[sides[0][0]], totals[sides[1][0]]
    target = game.options.get("hands_to_win") or 0
    finished = game.status == GameStatus.FINISHED
    return {
        "home": home,
        "away": away,
        "finished": finished,
        "bella": finished and target >= 2 and sorted((home, away)) == [target - 1, target],
    }


def match_scores(competition: Competition) -> dict[int, dict[str, Any]]:
    """Knockout of Briscola: the score in games of every match with a hand played, by match
    number: ``games`` maps each side's entry to the games it won, with ``finished`` and
    ``bella`` (``games_score``)."""
    scores: dict[int, dict[str, Any]] = {}
    for round_ in competition.rounds.exclude(status=RoundStatus.DRAFT):
        numbers = round_.metrics.get("matches", [])
        for table in round_.tables.select_related("game").order_by("number"):
            if table.number - 1 >= len(numbers) or table.forfeited:
                continue
            score = games_score(table.game)
            if score is None:
                continue
            seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
            scores[numbers[table.number - 1]] = {
                "games": {seats[0]: score["home"], seats[1]: score["away"]},
                "finished": score["finished"],
                "bella": score["bella"],
            }
    return scores
