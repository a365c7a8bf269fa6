"""Team standings over the rounds: the team standings as they stood after each round played,
computed by the live team standings' own code (``selectors.compute_standings``) on the matches
of the rounds up to that one, in the shape the bump chart reads
(``tournaments.presenters.bump``: ``after_round`` and an overall table of rows with
``entry``, ``name``, ``rank`` and ``ranked``; a team's id stands for the entry)."""

from __future__ import annotations

from typing import Any

from teams import selectors
from tournaments.models import Competition


def team_standings_after(competition: Competition, n: int) -> list[dict[str, Any]] | None:
    """The rows of the team standings after round ``n`` (None: not between teams)."""
    found = team_history(competition, only=n)
    return found[0]["tables"][0]["rows"] if found else None


def team_history(competition: Competition, *, only: int | None = None) -> list[dict[str, Any]]:
    """The team standings after each round with a match played, in order (empty when the
    competition is not between teams); ``only``: after that round alone."""
    rules = selectors.rules_of(competition)
    if rules is None:
        return []
    teams = {t.pk: t for t in competition.teams.all()}
    matches = selectors.matches_of(competition)
    round_of = {m.pk: m.round_number for m in matches}
    records, _left = selectors.played_records(matches)
    numbers = sorted({round_of[r.match] for r in records})
    if only is not None:
        numbers = [n for n in numbers if n == only] or [only]
    history = []
    for n in numbers:
        upto = [r for r in records if round_of[r.match] <= n]
        standings = selectors.compute_standings(competition, rules, teams, upto)
        rows = [
            {"entry": row.team, "name": teams[row.team].name, "rank": row.rank, "ranked": True}
            for row in standings.rows
        ]
        history.append({"after_round": n, "tables": [{"key": "overall", "rows": rows}]})
    return history
