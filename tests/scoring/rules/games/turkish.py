"""Turkish: the complete games of docs/rules/turkish.md §8, one row each.

Plain data, kept apart from the test module that plays them because the corrections and
``manage.py score`` tests replay them too (no test module imports another). A row is
(players, options, [(hand document, deltas, totals after, status)], ranking, card points)."""

import pytest

GAMES = [
    pytest.param(
        4,
        {"deals": 4},
        [
            (
                {
                    "dealer": 0,
                    "went_out": 0,
                    "cards_left": [
                        {"seat": 1, "court": 2, "tens": 1, "other": 3},
                        {"seat": 2, "court": 0, "tens": 0, "other": 2},
                        {"seat": 3, "court": 1, "tens": 1, "other": 4},
                    ],
                },
                [0, 55, 10, 50],
                [0, 55, 10, 50],
                "in_progress",
            ),
            (
                {
                    "dealer": 1,
                    "went_out": 1,
                    "cards_left": [
                        {"seat": 0, "court": 1, "tens": 1, "other": 1},
                        {"seat": 2, "court": 1, "tens": 0, "other": 2},
                        {"seat": 3, "court": 0, "tens": 0, "other": 3},
                    ],
                },
                [35, 0, 20, 15],
                [35, 55, 30, 65],
                "in_progress",
            ),
            (
                {
                    "dealer": 2,
                    "went_out": 2,
                    "cards_left": [
                        {"seat": 0, "court": 0, "tens": 0, "other": 1},
                        {"seat": 1, "court": 0, "tens": 2, "other": 0},
                        {"seat": 3, "court": 3, "tens": 1, "other": 4},
                    ],
                },
                [5, 40, 0, 70],
                [40, 95, 30, 135],
                "in_progress",
            ),
            (
                {
                    "dealer": 3,
                    "went_out": 0,
                    "cards_left": [
                        {"seat": 1, "court": 0, "tens": 1, "other": 1},
                        {"seat": 2, "court": 3, "tens": 0, "other": 0},
                        {"seat": 3, "court": 0, "tens": 0, "other": 2},
                    ],
                },
                [0, 25, 30, 10],
                [40, 120, 60, 145],
                "finished",
            ),
        ],
        [
            {"seat": 0, "place": 1},
            {"seat": 2, "place": 2},
            {"seat": 1, "place": 3},
            {"seat": 3, "place": 4},
        ],
        None,
        id="G1",
    ),
]
