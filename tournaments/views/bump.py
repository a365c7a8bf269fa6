"""The bump chart's data for the competition pages: the standings after each round, read from
the cache where storing the standings put them (``selectors.history_at``), and the arrows of
the standings table drawn from the same history."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tournaments.models import Competition
from tournaments.presenters.bump import bump_chart, rank_moves
from tournaments.selectors.history import history_at


def bump_context(
    competition: Competition, stamp: tuple[int, datetime | None], *, mine: int | None = None
) -> dict[str, Any]:
    """What ``tournaments/partials/bump_chart.html`` needs: the chart (None with fewer than two
    rounds played), the entry whose line is highlighted without script (``mine``) and the
    standings' version it shows (``bump_version``: a region of the stream, ``data-version``)."""
    history = history_at(competition, stamp)
    return {
        "bump": bump_chart(history, best_of=competition.best_of, mine=mine),
        "bump_mine": mine,
        "bump_version": stamp[0] if stamp else None,
    }


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
