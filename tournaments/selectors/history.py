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

import hashlib
from datetime import datetime
from typing import Any

from django.core.cache import cache

from tournaments.models import Competition, RoundStatus
from tournaments.selectors.standings import Played, played_of, standings_from

#: Seconds a competition's history stays in the cache (a newer version asks for a new key).
LIFETIME = 60 * 60


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


def compact(history: list[dict]) -> list[dict]:
    """The history as the chart and the arrows read it: each round's overall rows with only
    their entry, name, rank and whether ranked (the last round's nights too), a tenth of the
    size to keep in the cache and read back."""
    kept = []
    for index, data in enumerate(history):
        last = index == len(history) - 1
        rows = [
            {"entry": r["entry"], "name": r["name"], "rank": r["rank"], "ranked": r["ranked"]}
            | ({"nights": r.get("nights", [])} if last else {})
            for r in (data["tables"][0]["rows"] if data.get("tables") else [])
        ]
        kept.append({"after_round": data["after_round"], "tables": [{"rows": rows}]})
    return kept


def _digest(*parts: Any) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def _stamp_key(competition_id: int, stamp: tuple[int, datetime | None]) -> str:
    version, computed_at = stamp
    return f"standings-history:{competition_id}:{version}:{_digest(computed_at)}"


def history_at(competition: Competition, stamp: tuple[int, datetime | None]) -> list[dict]:
    """The standings after each round (``compact``), as they were at the snapshot ``stamp``:
    from the cache, where ``keep_history`` put it; computed and kept when it is not there."""
    key = _stamp_key(competition.pk, stamp)
    history = cache.get(key)
    if history is None:
        history = compact(standings_history(competition))
        cache.set(key, history, LIFETIME)
    return history


def keep_history(competition: Competition, stamp: tuple[int, datetime | None], data) -> None:
    """Put the history of a new snapshot (``stamp``, its ``data``) in the cache, so that no page
    view computes it (``services.store_standings``). A new version whose rows differ only in
    who can still win (the second pass of ``tasks.recompute_standings``) has the same history:
    it is found by the rows' digest (every entry's rank, points per round and figures), not
    computed again."""
    rows = data["tables"][0]["rows"] if data.get("tables") else []
    shown = [(r["entry"], r["rank"], r["points"], r["nights"], r["values"]) for r in rows]
    by_rows = f"standings-history-rows:{competition.pk}:{_digest(competition.created_at, shown, data.get('bracket'))}"
    history = cache.get(by_rows)
    if history is None:
        history = compact(standings_history(competition))
        cache.set(by_rows, history, LIFETIME)
    cache.set(_stamp_key(competition.pk, stamp), history, LIFETIME)
