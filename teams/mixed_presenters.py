"""The standings of teams at mixed tables as the page and the API show them
(``selectors.mixed_team_standings``, ``standings.mixed``): each team's total and its members'
results, the sentence that says what placed a team, the mini-tables of the classifica avulsa
and the tie-breaks' key."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from teams.standings import mixed
from tournaments.selectors.standings import as_json_number

MIXED_TIE_BREAK_LABELS = {
    "avulsa": gettext_lazy("Classifica avulsa"),
    "wins": gettext_lazy("Tables won"),
    "lots": gettext_lazy("Drawing of lots"),
}
MIXED_TIE_BREAK_HELP = {
    "avulsa": gettext_lazy(
        "Among the teams level on their total only: the duels of their members at the tables "
        "they shared (the better placed scores 2, an equal place 1 each). When it splits them, "
        "the teams still level are compared again among themselves."
    ),
    "wins": gettext_lazy("The tables won by the team's members."),
    "lots": gettext_lazy("A drawing of lots, seeded: the same seed always draws the same order."),
}


def _explanation(row: mixed.MixedRow, level_with: list[str], seed: str) -> str:
    others = ", ".join(level_with)
    if not level_with:
        return gettext("Placed by the team's total.")
    if row.decided_by is None:
        return gettext("Level with %(others)s on everything: the rank is shared.") % {
            "others": others
        }
    if row.decided_by == "lots":
        return gettext(
            "Level with %(others)s: placed by the drawing of lots (seed “%(seed)s”)."
        ) % {"others": others, "seed": seed}
    if row.decided_by == "avulsa":
        return gettext(
            "Level with %(others)s: placed by the classifica avulsa (duel points at the tables "
            "shared with the tied teams: %(value)s)."
        ) % {"others": others, "value": row.values["avulsa"]}
    return gettext("Level with %(others)s: placed by the tables won (%(value)s).") % {
        "others": others,
        "value": row.values["wins"],
    }


def mixed_standings_payload(data: dict[str, Any]) -> dict[str, Any]:
    """The team standings at mixed tables (``selectors.mixed_team_standings``) as plain data."""
    standings: mixed.MixedStandings = data["standings"]
    name, entry_name = data["team_name"], data["entry_name"]
    by_total: dict[Any, list[str]] = {}
    for row in standings.rows:
        by_total.setdefault(row.total, []).append(name[row.team])
    rows = []
    for row in standings.rows:
        level = [n for n in by_total[row.total] if n != name[row.team]]
        rows.append(
            {
                "team": row.team,
                "name": name[row.team],
                "rank": row.rank,
                "shared": row.shared,
                "total": as_json_number(row.total),
                "games": row.games,
                "wins": row.wins,
                "members": [
                    {"entry": e, "name": entry_name.get(e, "?"), "result": as_json_number(v)}
                    for e, v in row.members
                ],
                "decided_by": row.decided_by,
                "decided_by_label": str(MIXED_TIE_BREAK_LABELS[row.decided_by])
                if row.decided_by
                else None,
                "tie_break_values": dict(row.values),
                "explanation": _explanation(row, level, standings.seed),
                "level": bool(level),
            }
        )
    return {
        "lowest_wins": standings.lowest_wins,
        "rows": rows,
        "any_level": any(r["level"] for r in rows),
        "tie_breaks": [
            {
                "key": key,
                "label": str(MIXED_TIE_BREAK_LABELS[key]),
                "help": str(MIXED_TIE_BREAK_HELP[key]),
            }
            for key in mixed.MIXED_TIE_BREAKS
        ],
        "mini_tables": [
            {
                "level": m.level,
                "duels": m.matches,
                "rows": [{"name": name[t], "points": p} for t, p in m.points],
            }
            for m in standings.mini_tables
        ],
        "seed": standings.seed,
    }
