"""Briscola: the complete games of docs/rules/briscola.md §8, one row each.

Plain data, kept apart from the test module that plays them because the corrections and
``manage.py score`` tests replay them too (no test module imports another). A row is
(players, options, [(hand document, deltas, totals after, status)], ranking, card points)."""

import pytest

GAMES = [
    pytest.param(
        2,
        {},
        [
            ({"dealer": 0, "points": [70, 50]}, [1, 0], [1, 0], "in_progress"),
            ({"dealer": 1, "points": [60, 60]}, [0, 0], [1, 0], "in_progress"),
            ({"dealer": 0, "points": [56, 64]}, [0, 1], [1, 1], "in_progress"),
            ({"dealer": 1, "points": [81, 39]}, [1, 0], [2, 1], "finished"),
        ],
        [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}],
        [267, 213],
        id="G1",
    ),
    pytest.param(
        4,
        {},
        [
            ({"dealer": 0, "points": [70, 50]}, [1, 0, 1, 0], [1, 0, 1, 0], "in_progress"),
            ({"dealer": 1, "points": [40, 80]}, [0, 1, 0, 1], [1, 1, 1, 1], "in_progress"),
            ({"dealer": 2, "points": [90, 30]}, [1, 0, 1, 0], [2, 1, 2, 1], "finished"),
        ],
        [
            {"seat": 0, "place": 1},
            {"seat": 2, "place": 1},
            {"seat": 1, "place": 2},
            {"seat": 3, "place": 2},
        ],
        [200, 160],
        id="G2",
    ),
    pytest.param(
        3,
        {"hands_to_win": 1, "variant": "famiglia_prini"},
        [
            ({"dealer": 0, "points": [40, 40, 40]}, [0, 0, 0], [0, 0, 0], "in_progress"),
            ({"dealer": 1, "points": [30, 62, 28]}, [0, 1, 0], [0, 1, 0], "finished"),
        ],
        [{"seat": 1, "place": 1}, {"seat": 0, "place": 2}, {"seat": 2, "place": 2}],
        [70, 102, 68],
        id="G3",
    ),
]
