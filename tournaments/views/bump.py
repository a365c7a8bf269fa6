"""The bump chart's data for the competition pages: the standings after each round
(``selectors.standings_history``), kept in the cache under the standings snapshot's version and
time like the standings table (``standings_cache``), so that a page view reads it once per
change of the standings rather than recomputing every round's standings each time."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.cache import cache

from scoring.views.access import fingerprint
from tournaments import selectors
from tournaments.models import Competition
from tournaments.presenters.bump import bump_chart, rank_moves

#: Seconds a competition's history stays in the cache (a newer version asks for a new key).
LIFETIME = 10 * 60


def history_at(competition: Competition, stamp: tuple[int, datetime | None]) -> list[dict]:
    """The standings after each round played, as they were at the snapshot ``stamp``."""
    version, computed_at = stamp
    key = f"standings-history:{competition.pk}:{version}:{fingerprint(computed_at)}"
    history = cache.get(key)
    if history is None:
        history = compact(selectors.standings_history(competition))
        cache.set(key, history, LIFETIME)
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


def bump_context(
    competition: Competition, stamp: tuple[int, datetime | None], *, mine: int | None = None
) -> dict[str, Any]:
    """What ``tournaments/partials/bump_chart.html`` needs: the chart (None with fewer than two
    rounds played) and the entry whose line is highlighted without script (``mine``)."""
    history = history_at(competition, stamp)
    return {"bump": bump_chart(history, best_of=competition.best_of), "bump_mine": mine}


def with_moves(tables: list[dict], history: list[dict]) -> list[dict]:
    """The standings tables (``presenters.standings_tables``) with, on every row of the overall
    table, ``move``: places gained since the round before (negative: lost), None when the
    entry was not ranked after both rounds, and ``move_by`` its size; and the table's
    ``moved_since``: the round compared with."""
    if not tables or len(history) < 2:
        return tables
    moves, since = rank_moves(history), history[-2]["after_round"]
    first = tables[0]
    for row in first["ranked"] + first["unranked"]:
        row["move"] = moves.get(row["entry"])
        row["move_by"] = abs(row["move"] or 0)
    first["moved_since"] = since
    return tables
