"""Standings as the pages show them: the snapshot's tables with localized figures, and "how
these standings are computed" with the competition's own numbers."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.utils import formats
from django.utils.translation import gettext, gettext_lazy

from tournaments import standings as pure
from tournaments.labels import SCHEME_LABELS, TIE_BREAK_LABELS
from tournaments.models import Competition


def format_figure(value, *, comma: bool | None = None) -> str:
    """A standings figure: localized for a page, ``comma``/point for a CSV file."""
    if value is None or value == "":
        return ""
    if comma is None:
        return formats.number_format(value, use_l10n=True)
    text = format(Decimal(str(value)).normalize(), "f") if isinstance(value, float) else str(value)
    return text.replace(".", ",") if comma else text


def standings_columns(table: dict) -> list[tuple[str, str]]:
    """A standings table's tie-break columns as (key, label): the points have their own column."""
    columns = [(key, str(TIE_BREAK_LABELS.get(key, label))) for key, label in table["columns"]]
    return [c for c in columns if c[0] != "points"]


OUTLOOK_LABELS = {
    "clinched": gettext_lazy("clinched first place"),
    "can_win": gettext_lazy("can still win"),
    "cannot_win": gettext_lazy("cannot win"),
}


def outlook_view(outlook: dict | None) -> dict | None:
    """An entry's outlook (``selectors.outlook_of``) as the pages show it: the status's words,
    the final ranks still possible ("3rd to 7th"), and whether it is only a safe bound."""
    if not outlook:
        return None
    best, worst = outlook["best"], outlook["worst"]
    if best is None:
        ranks = gettext("Not ranked: too few nights left to play")
    elif worst is None:  # people may still join without limit: no worst rank is known
        ranks = gettext("Final rank %(best)s or below") % {"best": best}
    elif best == worst:
        ranks = gettext("Final rank: %(best)s") % {"best": best}
    else:
        ranks = gettext("Final rank between %(best)s and %(worst)s") % {
            "best": best,
            "worst": worst,
        }
    return {
        "status": outlook["status"],
        "label": OUTLOOK_LABELS[outlook["status"]],
        "ranks": ranks,
        "exact": outlook["exact"],
        "ranks_exact": outlook["ranks_exact"],
    }


def standings_tables(data: dict) -> list[dict]:
    """The snapshot's tables ready for a template: tie-break columns (the points have their own
    column), ranked rows then unranked ones, figures formatted."""
    tables = []
    for index, table in enumerate(data.get("tables", [])):
        columns = standings_columns(table)
        rows = [
            row
            | {
                "points_text": format_figure(row["points"]),
                "cells": [format_figure(row["values"].get(key)) for key, _label in columns],
                "nights": [
                    {
                        "number": number,
                        "points": points,
                        "text": format_figure(points),
                        "counted": counted,
                    }
                    for number, points, counted in row.get("nights", ())
                ],
                "outlook": outlook_view(row.get("outlook")),
            }
            for row in table["rows"]
        ]
        tables.append(
            {
                "key": table["key"],
                "title": table["title"],
                "columns": columns,
                "ranked": [r for r in rows if r["ranked"]],
                "unranked": [r for r in rows if not r["ranked"]],
                # The overall table of a knockout is ranked by the bracket, not by the points.
                "by_bracket": index == 0 and bool(data.get("bracket")),
                "outlook": any(r["outlook"] for r in rows),
                "outlook_estimated": any(r["outlook"] and not r["outlook"]["exact"] for r in rows),
            }
        )
    return tables


TIE_BREAK_HELP = {
    "points": gettext_lazy("The points again: separates nobody already tied on points."),
    "game_score": gettext_lazy("The sum of the games' own scores (lowest-wins games inverted)."),
    "wins": gettext_lazy("The number of games won (first place, shared ones included)."),
    "head_to_head": gettext_lazy(
        "The points earned in the games where the tied players sat together."
    ),
    "opponents_strength": gettext_lazy(
        "For each game, the average points of the opponents at that table, added up over "
        "the games: a larger table counts no more than a smaller one."
    ),
    "hands_won": gettext_lazy("The number of hands won (Briscola)."),
    "card_points": gettext_lazy("The sum of card points taken (Briscola)."),
    "games_played": gettext_lazy("The number of games played: more ranks higher."),
}


def points_by_table_size(competition: Competition) -> list[dict]:
    """The points of each place at each table size, under the competition's scheme (placement
    schemes only; an empty list for the others)."""
    if competition.scheme == "fair_placement":
        rows = {size: pure.fair_row(size) for size in pure.DEFAULT_PLACEMENT_POINTS}
    elif competition.scheme == "placement":
        overrides = {int(k): v for k, v in (competition.placement_points or {}).items()}
        rows = {
            size: tuple(Fraction(str(p)) for p in points)
            for size, points in ({**pure.DEFAULT_PLACEMENT_POINTS, **overrides}).items()
        }
    else:
        return []

    def shown(value: Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 2)

    return [
        {"size": size, "points": [format_figure(shown(p)) for p in rows[size]]}
        for size in sorted(rows)
    ]


def standings_explained(competition: Competition, data: dict) -> dict:
    """What the "how these standings are computed" page shows, with this competition's own
    numbers: the scheme and its points per table size, best-N and attendance, the tie-breaks
    in order, and the leader's line worked out night by night."""
    tables = standings_tables(data)
    overall = tables[0] if tables else None
    example = None
    if overall and overall["ranked"]:
        leader = overall["ranked"][0]
        nights_sum = sum(n["points"] for n in leader["nights"] if n["counted"])
        example = leader | {
            "counted": [n for n in leader["nights"] if n["counted"]],
            "dropped": [n for n in leader["nights"] if not n["counted"]],
            "adjusted": round(float(leader["points"]) - float(nights_sum), 2) != 0,
        }
    return {
        "scheme_label": SCHEME_LABELS.get(competition.scheme, competition.scheme),
        "sizes": points_by_table_size(competition),
        "tie_breaks": [
            {"label": label, "help": TIE_BREAK_HELP.get(key, "")}
            for key, label in (overall["columns"] if overall else [])
        ],
        "example": example,
        "bracket": bool(data.get("bracket")),
    }
