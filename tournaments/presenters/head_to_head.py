"""The head-to-head matrix of a competition page (``selectors.head_to_head``): one row per entry
in standings order, one cell per opponent, each meeting a link to its game.

A two-sided competition (``MATCHES``) shows every match of the row's entry against the column's:
won, lost or drawn as a sign and a word (never by colour alone) and the score, row's first. One
with tables of three or more (``PLACES``) shows how often the row's entry finished ahead of the
column's, behind it, and level, with the games as links by round.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments.selectors.head_to_head import MATCHES

#: The largest matrix drawn: beyond it, the top of the standings only (the API has them all).
MATRIX_MAX = 30

SIGNS = {"won": "✓", "lost": "✗", "drawn": "="}
WORDS = {"won": _("won"), "lost": _("lost"), "drawn": _("drawn")}


def head_to_head_matrix(data: dict[str, Any]) -> dict[str, Any]:
    """Rows of cells for ``templates/tournaments/partials/head_to_head.html``."""
    entries = data["entries"]
    shown = entries[:MATRIX_MAX]
    pairs = {(p["entry"], p["opponent"]): p for p in data["pairs"]}
    matches = data["counted_by"] == MATCHES
    rows = []
    for number, entry in enumerate(shown, start=1):
        cells = []
        for other in shown:
            pair = pairs.get((entry["entry"], other["entry"]))
            cells.append(
                {
                    "self": other["entry"] == entry["entry"],
                    "opponent": other["name"],
                    "pair": pair and (_match_cell(pair) if matches else _places_cell(pair)),
                }
            )
        rows.append(entry | {"number": number, "cells": cells})
    return {
        "matches": matches,
        "rows": rows,
        "columns": [entry | {"number": n} for n, entry in enumerate(shown, start=1)],
        "left_out": len(entries) - len(shown),
        "met": bool(pairs),
    }


def _match_cell(pair: dict[str, Any]) -> dict[str, Any]:
    return {
        "meetings": [
            {
                "game": m["game"],
                "round": m["round"],
                "sign": SIGNS[m["outcome"]],
                "word": WORDS[m["outcome"]],
                "outcome": m["outcome"],
                "score": f"{m['score']}–{m['opponent_score']}",
            }
            for m in pair["meetings"]
        ]
    }


def _places_cell(pair: dict[str, Any]) -> dict[str, Any]:
    return {
        "ahead": pair["ahead"],
        "behind": pair["behind"],
        "level": pair["level"],
        "meetings": [
            {"game": m["game"], "round": m["round"], "outcome": m["outcome"]}
            for m in pair["meetings"]
        ],
    }
