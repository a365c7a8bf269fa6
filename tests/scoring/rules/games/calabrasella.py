"""Calabrasella: the complete games of docs/rules/calabrasella.md §8, one row each.

Plain data, kept apart from the test module that plays them because the corrections and
``manage.py score`` tests replay them too (no test module imports another). A row is
(players, options, [(hand document, deltas, totals after, status)], ranking, card points)."""

import pytest

GAMES = [
    pytest.param(
        3,
        {"deals": 4},
        [
            (
                {"dealer": 0, "outcome": "played", "soloist": 0, "soloist_points": 21},
                [14, -7, -7],
                [14, -7, -7],
                "in_progress",
            ),
            (
                {"dealer": 1, "outcome": "played", "soloist": 1, "soloist_points": 16},
                [3, -6, 3],
                [17, -13, -4],
                "in_progress",
            ),
            ({"dealer": 2, "outcome": "passed_out"}, [0, 0, 0], [17, -13, -4], "in_progress"),
            (
                {"dealer": 0, "outcome": "played", "soloist": 2, "soloist_points": 25},
                [-15, -15, 30],
                [2, -28, 26],
                "finished",
            ),
        ],
        [{"seat": 2, "place": 1}, {"seat": 0, "place": 2}, {"seat": 1, "place": 3}],
        None,
        id="G1",
    ),
]
