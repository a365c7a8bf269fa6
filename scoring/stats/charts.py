"""The rating chart of a player page, drawn on the server as inline SVG geometry.

No chart library: one line chart of a few series needs the coordinates of their points, a few
horizontal grid lines with their values and the first and last dates — a page of arithmetic,
while a library would mean JavaScript (drawn in the browser, nothing without it) or a Python
plotting package far heavier than the app. The template (``scoring/partials/rating_chart.html``)
writes the SVG from :func:`line_chart`'s answer; pure Python, no Django.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

WIDTH, HEIGHT = 640, 280
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 28
#: Line colours, distinct for colour-blind readers (Okabe–Ito), the first for the club-wide line.
COLOURS = ("#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00")


@dataclass(frozen=True)
class Series:
    key: str
    label: str
    points: Sequence[tuple[datetime, float]]


def nice_step(span: float, lines: int = 4) -> float:
    """A round step (1, 2 or 5 × a power of ten) giving about ``lines`` grid lines."""
    raw = max(span, 1e-9) / lines
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def line_chart(series: Sequence[Series]) -> dict | None:
    """Coordinates of every series (``points`` as an SVG ``points`` string, the last point for a
    dot), the grid lines with their values, the first and last dates; None with no point. Games
    are spaced evenly on the x axis in the order they were played."""
    drawn = [s for s in series if s.points]
    if not drawn:
        return None
    moments = [at for s in drawn for at, _ in s.points]
    values = [v for s in drawn for _, v in s.points]
    first, last = min(moments), max(moments)
    span = max(values) - min(values)
    # One value (a single game, or ratings that did not move): a step of about a quarter of it,
    # and the grid a step below and above, so the dot sits in the middle of the chart.
    step = nice_step(span if span > 0 else max(1.0, abs(max(values)) / 4))
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step
    if high == low:
        low, high = low - step, high + step
    # The x axis is the order of the games, evenly spaced, not the calendar: a night of five
    # games would otherwise be five points on one vertical line, weeks of nothing a flat run.
    order = {at: index for index, at in enumerate(sorted(set(moments)))}
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(at: datetime) -> float:
        if len(order) == 1:
            return LEFT + inner_w / 2
        return round(LEFT + inner_w * order[at] / (len(order) - 1), 1)

    def y(value: float) -> float:
        return round(TOP + inner_h * (high - value) / (high - low), 1)

    grid = []
    value = low
    while value <= high + step / 2:
        grid.append({"y": y(value), "label": f"{value:g}"})
        value += step
    lines = []
    for index, s in enumerate(drawn):
        coords = [(x(at), y(v)) for at, v in s.points]
        lines.append(
            {
                "key": s.key,
                "label": s.label,
                "colour": COLOURS[index % len(COLOURS)],
                "points": " ".join(f"{cx},{cy}" for cx, cy in coords),
                "last": {"x": coords[-1][0], "y": coords[-1][1], "value": s.points[-1][1]},
                "count": len(coords),
            }
        )
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "bottom": HEIGHT - BOTTOM,
        "grid": grid,
        "lines": lines,
        "first": first,
        "last": last,
    }
