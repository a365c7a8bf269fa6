"""Briscola chiamata: the complete games of docs/rules/briscola_chiamata.md §8, one row each.

Plain data, kept apart from the test module that plays them because the corrections and
``manage.py score`` tests replay them too (no test module imports another). A row is
(players, options, [(hand document, deltas, totals after, status)], ranking, card points)."""

import pytest

GAMES = [
    pytest.param(
        5,
        {"deals": 5},
        [
            (
                {"dealer": 0, "outcome": "played", "caller": 0, "partner": 2, "caller_points": 68},
                [2, -1, 1, -1, -1],
                [2, -1, 1, -1, -1],
                "in_progress",
            ),
            (
                {"dealer": 1, "outcome": "played", "caller": 1, "partner": 3, "caller_points": 55},
                [1, -2, 1, -1, 1],
                [3, -3, 2, -2, 0],
                "in_progress",
            ),
            (
                {
                    "dealer": 2,
                    "outcome": "played",
                    "caller": 2,
                    "partner": 2,
                    "target": 70,
                    "caller_points": 74,
                },
                [-1, -1, 4, -1, -1],
                [2, -4, 6, -3, -1],
                "in_progress",
            ),
            (
                {
                    "dealer": 3,
                    "outcome": "played",
                    "caller": 3,
                    "partner": 4,
                    "target": 85,
                    "caller_points": 90,
                },
                [-1, -1, -1, 2, 1],
                [1, -5, 5, -1, 0],
                "in_progress",
            ),
            (
                {"dealer": 4, "outcome": "played", "caller": 4, "partner": 0, "caller_points": 58},
                [-1, 1, 1, 1, -2],
                [0, -4, 6, 0, -2],
                "finished",
            ),
        ],
        [
            {"seat": 2, "place": 1},
            {"seat": 0, "place": 2},
            {"seat": 3, "place": 2},
            {"seat": 4, "place": 4},
            {"seat": 1, "place": 5},
        ],
        None,
        id="G1",
    ),
    pytest.param(
        6,
        {"deals": 3},
        [
            (
                {"dealer": 0, "outcome": "played", "caller": 1, "partner": 2, "caller_points": 61},
                [0, 2, 1, -1, -1, -1],
                [0, 2, 1, -1, -1, -1],
                "in_progress",
            ),
            (
                {"dealer": 1, "outcome": "passed_out"},
                [0, 0, 0, 0, 0, 0],
                [0, 2, 1, -1, -1, -1],
                "in_progress",
            ),
            (
                {
                    "dealer": 2,
                    "outcome": "played",
                    "caller": 3,
                    "partner": 3,
                    "target": 61,
                    "caller_points": 40,
                },
                [1, 1, 0, -4, 1, 1],
                [1, 3, 1, -5, 0, 0],
                "finished",
            ),
        ],
        [
            {"seat": 1, "place": 1},
            {"seat": 0, "place": 2},
            {"seat": 2, "place": 2},
            {"seat": 4, "place": 4},
            {"seat": 5, "place": 4},
            {"seat": 3, "place": 6},
        ],
        None,
        id="G2",
    ),
]
