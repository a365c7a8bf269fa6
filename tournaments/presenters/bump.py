"""The bump chart: every entry's rank after each round, drawn on the server as inline SVG geometry
(``tournaments/partials/bump_chart.html`` writes it), like the player page's rating chart
(``scoring.stats.charts``): no chart library, nothing needed in the browser.

Read from ``selectors.standings_history`` (the standings after each round, computed by the live
standings' own code), so the chart, the table's arrows (``rank_moves``) and the API agree.

Vocabulary: a *column* is a round played (a league's night), a *line* one entry's ranks over
the columns. Entries tied share a rank, so their points sit at the same height; an entry not
ranked after a round (too few nights, outside a knockout's bracket) or not entered yet has no
point there: its line starts where it entered and breaks where it was not ranked. In a league
where only the best N nights count, each night the entry played is marked as the final
standings count it: a filled dot counted, a hollow one dropped.

The leaders at the end (``FEATURED``) are drawn in colours that pass contrast on the page and
differ by their dash pattern too, with their names at both ends; the others are thin grey
lines, named when highlighted (the reader's own entry, or a name tapped: static/js/bump.js).
Pure Python, no Django.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

#: How many of the final leaders get a colour, a dash pattern and their names at both ends.
FEATURED = 6
#: Line colours, each at least 4.5:1 against the page's white cards (tests/tournaments/
#: test_bump_chart.py checks it), Okabe–Ito hues darkened where they were too light.
COLOURS = ("#000000", "#0060A0", "#B33C00", "#00704F", "#A3347A", "#6E5600")
#: Dash patterns, one per colour: the lines differ without colour too (and in print).
DASHES = ("", "8 4", "2 3", "10 3 2 3", "5 5", "14 3 3 3 3 3")
#: The other entries' lines (4.8:1 on white).
OTHER = "#6B7280"
STEP, LEFT, RIGHT, TOP, BOTTOM = 56, 112, 112, 34, 14
#: At most this wide, the chart is drawn at a phone's width (``fits``); wider, it scrolls there.
FITS = 430
#: The height of a rank: roomy for a small field, squeezed for a big one (labels stay legible:
#: only the featured and highlighted lines are named).
ROOMY, ROOMY_UP_TO, TALLEST = 24, 16, 420
#: The labels' font size (static/css/bump.css, ``.bump .label``) and the least distance between
#: two labels' middles at one end of the chart: more than a line of text, so none overlap.
FONT, LABEL_GAP = 13, 15


@dataclass(frozen=True)
class Column:
    number: int
    ranks: dict[int, int]  # entry -> its rank after this round (ranked entries only)


def columns_of(history: Sequence[dict[str, Any]]) -> list[Column]:
    """Each round's ranks (``standings_history``'s overall tables)."""
    columns = []
    for data in history:
        rows = data["tables"][0]["rows"] if data.get("tables") else []
        ranks = {r["entry"]: r["rank"] for r in rows if r["ranked"] and r["rank"] is not None}
        columns.append(Column(data["after_round"], ranks))
    return columns


def rank_moves(history: Sequence[dict[str, Any]]) -> dict[int, int]:
    """entry -> places gained since the round before the last (positive up, negative down);
    only entries ranked after both rounds."""
    columns = columns_of(history)
    if len(columns) < 2:
        return {}
    before, now = columns[-2].ranks, columns[-1].ranks
    return {e: before[e] - rank for e, rank in now.items() if e in before}


def _spread(wanted: list[tuple[float, int, int]], low: float, high: float) -> dict[int, float]:
    """Label heights at one end of the chart, ``wanted`` as (line's height, order, entry): each
    label at its line's height where it has room; labels that would come closer than
    ``LABEL_GAP`` (ties share a height) are set that far apart, as a block centred on their
    lines (in the standings' order, top to bottom), kept between ``low`` and ``high`` where
    the block fits (a block taller than the chart starts at ``low``)."""
    blocks: list[dict[str, Any]] = []  # each: its entries, the sum of their heights, its top

    def top_of(total: float, count: int) -> float:
        centred = total / count - LABEL_GAP * (count - 1) / 2
        return max(low, min(centred, high - LABEL_GAP * (count - 1)))

    for y, _order, entry in sorted(wanted):
        blocks.append({"entries": [entry], "sum": y, "top": top_of(y, 1)})
        while len(blocks) > 1:
            above, below = blocks[-2], blocks[-1]
            if above["top"] + LABEL_GAP * len(above["entries"]) <= below["top"]:
                break
            entries, total = above["entries"] + below["entries"], above["sum"] + below["sum"]
            blocks[-2:] = [{"entries": entries, "sum": total, "top": top_of(total, len(entries))}]
    return {
        entry: round(block["top"] + LABEL_GAP * i, 1)
        for block in blocks
        for i, entry in enumerate(block["entries"])
    }


def _segments(points: list[dict[str, Any]]) -> list[str]:
    """The SVG ``points`` of each run of consecutive ranked points."""
    runs, run, last_index = [], [], None
    for point in points:
        if last_index is not None and point["index"] != last_index + 1:
            runs.append(run)
            run = []
        run.append(f"{point['x']},{point['y']}")
        last_index = point["index"]
    runs.append(run)
    return [" ".join(run) for run in runs if len(run) > 1]


def _nights(final_rows: Iterable[dict[str, Any]]) -> dict[int, dict[int, bool]]:
    """entry -> {night: counted} of a best-N league (from the final standings)."""
    return {r["entry"]: {n: counted for n, _p, counted in r.get("nights", ())} for r in final_rows}


def _line(entry, row, index, columns, x, y, nights, tied) -> dict[str, Any]:
    points = []
    for i, column in enumerate(columns):
        rank = column.ranks.get(entry)
        if rank is None:
            continue
        played = nights.get(column.number)
        points.append(
            {
                "index": i,
                "x": x(i),
                "y": y(rank),
                "rank": rank,
                "round": column.number,
                "tied": (column.number, rank) in tied,
                "counted": played,  # None: not a best-N league, or not played that night
            }
        )
    featured = index < FEATURED
    return {
        "entry": entry,
        "name": row["name"],
        "featured": featured,
        "colour": COLOURS[index] if featured else OTHER,
        "dash": DASHES[index] if featured else "",
        "points": points,
        "segments": _segments(points) if points else [],
        "first": points[0] if points else None,
        "last": points[-1] if points else None,
    }


def bump_chart(
    history: Sequence[dict[str, Any]], *, best_of: int | None = None, mine: int | None = None
) -> dict | None:
    """The chart's geometry: its size, a column per round (its x and number), a line per entry
    in the order of the last standings (featured leaders first), the rank ticks, and the label
    heights at both ends, set apart where they would overlap (``_spread``: the featured lines'
    and the reader's own, ``mine``); None with fewer than two rounds played."""
    columns = columns_of(history)
    if len(columns) < 2:
        return None
    final_rows = history[-1]["tables"][0]["rows"]
    order = [r for r in final_rows]
    seen = {r["entry"] for r in order}
    # Entries ranked in an earlier round but not in the last standings' rows (rare): at the end.
    for data in history:
        for r in data["tables"][0]["rows"]:
            if r["entry"] not in seen:
                seen.add(r["entry"])
                order.append(r)
    deepest = max((max(c.ranks.values(), default=1) for c in columns), default=1)
    gap = ROOMY if deepest <= ROOMY_UP_TO else max(4.0, TALLEST / max(deepest - 1, 1))
    width = LEFT + RIGHT + STEP * (len(columns) - 1)
    height = TOP + BOTTOM + round(gap * (deepest - 1))

    def x(i: int) -> float:
        return LEFT + STEP * i

    def y(rank: int) -> float:
        return round(TOP + gap * (rank - 1), 1)

    tied = {
        (c.number, rank) for c in columns for rank, n in Counter(c.ranks.values()).items() if n > 1
    }
    nights = _nights(final_rows) if best_of else {}
    lines = [
        _line(r["entry"], r, i, columns, x, y, nights.get(r["entry"], {}), tied)
        for i, r in enumerate(order)
    ]
    drawn = [line for line in lines if line["points"]]
    named = [line for line in drawn if line["featured"]]
    # The labels shown together: the featured lines' and the reader's own (``mine``); a name
    # tapped hides the others (bump.js), so its label has the chart's end to itself.
    shown = [(i, line) for i, line in enumerate(drawn) if line["featured"] or line["entry"] == mine]
    low, high = TOP - 6, height - BOTTOM  # ``high``: the lowest rank's height
    left = _spread([(line["first"]["y"], i, line["entry"]) for i, line in shown], low, high)
    right = _spread([(line["last"]["y"], i, line["entry"]) for i, line in shown], low, high)
    for line in drawn:
        line["left_y"] = left.get(line["entry"], line["first"]["y"])
        line["right_y"] = right.get(line["entry"], line["last"]["y"])
    # A block of labels taller than the chart (a small field, most of it featured): the
    # chart grows to hold its last label.
    height = max(height, round(max([*left.values(), *right.values(), 0]) + FONT))
    every = 1 if deepest <= ROOMY_UP_TO else (5 if deepest <= 60 else 10)
    ticks = [{"rank": r, "y": y(r)} for r in range(1, deepest + 1) if r == 1 or r % every == 0]
    return {
        "width": width,
        "height": height,
        "fits": width <= FITS,
        "left": LEFT,
        "right": width - RIGHT,
        "top": TOP,
        "gap": gap,
        "bottom": high,
        "columns": [{"number": c.number, "x": x(i)} for i, c in enumerate(columns)],
        "ticks": ticks,
        # Grey lines first, so that the featured ones are drawn over them.
        "lines": [line for line in drawn if not line["featured"]] + named,
        # the legend: the featured lines, leader first
        "keys": named,
        "table": _table(columns, order, tied),
        "best_of": best_of,
        "deepest": deepest,
        "any_tied": bool(tied),
    }


def _table(columns: list[Column], order: list[dict[str, Any]], tied) -> list[dict[str, Any]]:
    """The chart's data as a table: each entry's rank after each round (``=`` marks a tie)."""
    return [
        {
            "entry": r["entry"],
            "name": r["name"],
            "ranks": [
                {
                    "rank": c.ranks.get(r["entry"]),
                    "tied": (c.number, c.ranks.get(r["entry"])) in tied,
                }
                for c in columns
            ],
        }
        for r in order
    ]
