"""The rating chart's geometry (scoring.stats.charts): pure, no database."""

from datetime import UTC, datetime, timedelta
from itertools import pairwise

from scoring.stats.charts import HEIGHT, LEFT, RIGHT, WIDTH, Series, line_chart, nice_step

DAY = datetime(2025, 3, 1, 20, tzinfo=UTC)


def test_no_point_no_chart():
    assert line_chart([]) is None
    assert line_chart([Series("club", "All games", [])]) is None


def test_a_single_game_is_one_dot_in_the_middle_with_a_grid_around_it():
    chart = line_chart([Series("club", "All games", [(DAY, 10.0)])])
    (line,) = chart["lines"]
    assert line["count"] == 1
    assert line["last"]["x"] == LEFT + (WIDTH - LEFT - RIGHT) / 2
    # One value: the grid spans a round step below and above it, the dot in the middle.
    assert [g["label"] for g in chart["grid"]] == ["9", "10", "11"]
    assert line["last"]["y"] == chart["grid"][1]["y"]
    assert 0 < line["last"]["y"] < HEIGHT


def test_series_share_the_axes_and_the_grid_uses_round_steps():
    club = Series("club", "All games", [(DAY, 5.0), (DAY + timedelta(days=10), 25.0)])
    briscola = Series("briscola", "Briscola", [(DAY + timedelta(days=5), 12.0)])
    chart = line_chart([club, briscola])
    assert [line["key"] for line in chart["lines"]] == ["club", "briscola"]
    assert chart["first"] == DAY and chart["last"] == DAY + timedelta(days=10)
    assert nice_step(20) == 5 and nice_step(0.3) == 0.1 and nice_step(0) > 0
    assert [g["label"] for g in chart["grid"]] == ["5", "10", "15", "20", "25"]
    # The earliest point is on the left edge, the latest on the right one.
    first_x = float(chart["lines"][0]["points"].split()[0].split(",")[0])
    assert first_x == LEFT and chart["lines"][0]["last"]["x"] == WIDTH - RIGHT


def test_games_of_the_same_night_are_spaced_like_any_others():
    """Issue 21, point 14: x was the date, so a night's games stood on one vertical line."""
    night = [DAY + timedelta(minutes=40 * i) for i in range(4)]
    club = Series(
        "club",
        "All games",
        [(at, float(i)) for i, at in enumerate([*night, DAY + timedelta(days=30)])],
    )
    xs = [float(p.split(",")[0]) for p in line_chart([club])["lines"][0]["points"].split()]
    gaps = {round(b - a, 1) for a, b in pairwise(xs)}
    assert xs[0] == LEFT and xs[-1] == WIDTH - RIGHT and gaps == {(WIDTH - LEFT - RIGHT) / 4}
