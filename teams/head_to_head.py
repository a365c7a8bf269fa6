"""Who beat whom in a palio (team matches): for every pair of teams, each match they played,
seen from each side: its round, the score (the row's first), won, lost or drawn, and the games
of its boards. The same matches and scores as the list of matches played on the team standings
page (``presenters.played_row``: the confirmed result, else the boards'); the teams in the
standings' order. A competition whose teams meet at mixed tables has no team matches: its
members' meetings are in the competition's own head-to-head.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from teams import presenters, selectors
from tournaments.presenters.head_to_head import SIGNS, WORDS

WON, LOST, DRAWN = "won", "lost", "drawn"


def _outcome(score: int, other: int) -> str:
    if score == other:
        return DRAWN
    return WON if score > other else LOST


def matrix_of(order: list[dict[str, Any]], played: list[dict[str, Any]]) -> dict[str, Any]:
    """``order``: the teams as ``{"team", "name"}`` in standings order; ``played``: the matches
    as ``presenters.played_row`` gives them. Pure: the pairs both ways round, meetings in round
    order."""
    meetings: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for match in sorted(played, key=lambda m: (m["round"], m["id"])):
        sides = (
            (match["home_id"], match["away_id"], match["home_score"], match["away_score"]),
            (match["away_id"], match["home_id"], match["away_score"], match["home_score"]),
        )
        for team, opponent, score, other in sides:
            meetings[team, opponent].append(
                {
                    "match": match["id"],
                    "round": match["round"],
                    "score": score,
                    "opponent_score": other,
                    "outcome": _outcome(score, other),
                    "confirmed": match["confirmed"],
                    "games": match["games"],
                }
            )
    return {
        "teams": order,
        "pairs": [
            {"team": team, "opponent": opponent, "meetings": found}
            for (team, opponent), found in sorted(meetings.items())
        ],
    }


def team_head_to_head(competition) -> dict[str, Any] | None:
    """The palio's matrix (``matrix_of``), None when the competition is not a palio of team
    matches (5 queries for the standings' order, 2 for the matches)."""
    data = selectors.team_standings(competition)
    if data is None or data["rules"].kind != "matches":
        return None
    order = [{"team": r["row"].team, "name": r["name"]} for r in data["rows"]]
    rules = data["rules"]
    played = [presenters.played_row(m, rules) for m in selectors.matches_played(competition)]
    return matrix_of(order, played)


def page_matrix(data: dict[str, Any]) -> dict[str, Any]:
    """Rows of cells for ``templates/teams/partials/team_head_to_head.html``: one row per team,
    one cell per opponent, each match a sign and a word (never colour alone) and its score."""
    pairs = {(p["team"], p["opponent"]): p["meetings"] for p in data["pairs"]}
    rows = []
    for number, team in enumerate(data["teams"], start=1):
        cells = []
        for other in data["teams"]:
            found = pairs.get((team["team"], other["team"]))
            cells.append(
                {
                    "self": other["team"] == team["team"],
                    "opponent": other["name"],
                    "meetings": [
                        m | {"sign": SIGNS[m["outcome"]], "word": WORDS[m["outcome"]]}
                        for m in found or ()
                    ],
                }
            )
        rows.append(team | {"number": number, "cells": cells})
    columns = [team | {"number": n} for n, team in enumerate(data["teams"], start=1)]
    return {"rows": rows, "columns": columns, "met": bool(pairs)}
