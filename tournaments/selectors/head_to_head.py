"""Who beat whom in a competition (``tournaments.standings.head_to_head``), as plain data for
the competition pages and ``GET /api/v1/competitions/<id>/head-to-head/``.

The games are read as the standings read them (``results_of``: the finished tables, forfeits
left out, in two queries whatever their number); the entries' names in one more, and their order
from the standings snapshot in one more: four queries for the whole matrix, never one per cell.
"""

from __future__ import annotations

from typing import Any

from tournaments.models import Competition, Entry, StandingsSnapshot
from tournaments.selectors.standings import results_of
from tournaments.standings.head_to_head import Pair, head_to_head, two_sided

#: ``counted_by`` of a competition whose every game had two competitors: each meeting a match.
MATCHES = "matches"
#: ``counted_by`` of one with tables of three or more: "finished ahead of" counts.
PLACES = "places"


def head_to_head_of(competition: Competition) -> dict[str, Any]:
    """The entries in standings order (``rank`` None when unranked or before any standings),
    and every ordered pair of entries that met: how often the first finished ahead, behind,
    level, and each meeting (game, round, outcome and both scores)."""
    results = results_of(competition)
    pairs = head_to_head(results)
    if results:
        kind = MATCHES if two_sided(results) else PLACES
    else:
        kind = MATCHES if competition.two_sided or competition.table_size == 2 else PLACES
    return {
        "competition": competition.pk,
        "counted_by": kind,
        "entries": _entries_in_order(competition, {entry for entry, _ in pairs}),
        "pairs": [_pair_json(pair) for pair in pairs.values()],
    }


def _entries_in_order(competition: Competition, met: set[int]) -> list[dict[str, Any]]:
    """The active entries and every entry that played, in the order of the standings (those
    the standings do not list yet after them, by entry order)."""
    names = {
        pk: (Entry.name_of(player, partner), status)
        for pk, player, partner, status in competition.entries.values_list(
            "pk", "player__display_name", "partner__display_name", "status"
        )
    }
    data = (
        StandingsSnapshot.objects.filter(competition=competition)
        .values_list("data", flat=True)
        .first()
    )
    rows = data["tables"][0]["rows"] if data and data.get("tables") else []
    rank = {row["entry"]: row["rank"] if row.get("ranked") else None for row in rows}
    position = {row["entry"]: i for i, row in enumerate(rows)}
    shown = [pk for pk, (_name, status) in names.items() if status == "active" or pk in met]
    shown.sort(key=lambda pk: position.get(pk, len(position)))
    return [{"entry": pk, "name": names[pk][0], "rank": rank.get(pk)} for pk in shown]


def _pair_json(pair: Pair) -> dict[str, Any]:
    return {
        "entry": pair.entrant,
        "opponent": pair.opponent,
        "ahead": pair.ahead,
        "behind": pair.behind,
        "level": pair.level,
        "meetings": [
            {
                "game": m.game,
                "round": m.group,
                "outcome": m.outcome,
                "score": m.score,
                "opponent_score": m.opponent_score,
            }
            for m in pair.meetings
        ],
    }
