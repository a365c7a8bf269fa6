"""Standings over the rounds: the standings as they stood after each round, computed by the very
code of the live standings (``standings.standings_from``) on the results of the rounds up to
that one. One selector, ``standings_after``, is what the bump chart, the table's arrows and the
API's ``?after_round=N`` all read; ``standings_history`` gives every round's at once from one
reading of the games (the chart's cost: ``bench/charts.py``).

Who has a row after round N: an entry registered before round N was published (so a player
who missed the first night of a league still shows, as the live table showed them), or one
with a result or an adjustment in a round up to N. A late entrant therefore starts where it
entered. Adjustments given to no round count from the first round on; a knockout's bracket
ranks its rows only once its first round is played (``bracket_of(..., up_to=N)``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tournaments.models import Competition, RoundStatus
from tournaments.selectors.standings import Played, played_of, standings_from


def _round_facts(competition: Competition) -> tuple[list[int], dict[int, datetime | None]]:
    """The numbers of the rounds closed, and when each round was published (one query)."""
    closed, published = [], {}
    for number, status, at in competition.rounds.values_list("number", "status", "published_at"):
        published[number] = at
        if status == RoundStatus.CLOSED:
            closed.append(number)
    return closed, published


def played_rounds(competition: Competition, played: Played | None = None) -> list[int]:
    """The numbers of the rounds played so far, in order: closed, or with a game counted."""
    played = played or played_of(competition)
    closed, _published = _round_facts(competition)
    with_games = {r.group for r in played.results}
    return sorted(set(closed) | with_games | {a.group for a in played.adjustments if a.group})


def _registered(competition: Competition) -> dict[int, datetime]:
    return dict(competition.entries.values_list("pk", "registered_at"))


def _cut(
    played: Played, n: int, published: datetime | None, registered: dict[int, datetime]
) -> Played:
    """``played`` as it stood after round ``n`` (``published``: when round ``n`` was)."""
    results = [r for r in played.results if r.group <= n]
    adjustments = [a for a in played.adjustments if a.group <= n]
    took_part = {r.entrant for r in results} | {a.entrant for a in adjustments}
    entrants = [
        e
        for e in played.entrants
        if e in took_part or published is None or (e in registered and registered[e] <= published)
    ]
    return Played(played.entries, entrants, results, adjustments)


def standings_after(competition: Competition, n: int) -> dict[str, Any]:
    """The standings (``standings_of``'s shape, keys only, no outlook) after round ``n``:
    the results of rounds 1 … ``n``, the entrants that had entered by then."""
    played = played_of(competition)
    _closed, published = _round_facts(competition)
    cut = _cut(played, n, published.get(n), _registered(competition))
    data, _overall = standings_from(competition, cut, up_to=n)
    return data | {"after_round": n}


def standings_history(competition: Competition) -> list[dict[str, Any]]:
    """``standings_after`` for every round played, in order (the games read once)."""
    played = played_of(competition)
    closed, published = _round_facts(competition)
    registered = _registered(competition)
    numbers = sorted(
        set(closed)
        | {r.group for r in played.results}
        | {a.group for a in played.adjustments if a.group}
    )
    history = []
    for n in numbers:
        cut = _cut(played, n, published.get(n), registered)
        data, _overall = standings_from(competition, cut, up_to=n)
        history.append(data | {"after_round": n})
    return history
