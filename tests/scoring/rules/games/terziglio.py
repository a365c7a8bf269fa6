"""Terziglio: the complete games of docs/rules/terziglio.md §8, one row each.

Plain data, kept apart from the test module that plays them because the corrections and
``manage.py score`` tests replay them too (no test module imports another). A row is
(players, options, [(hand document, deltas, totals after, status)], ranking, card points)."""

import pytest

GAMES = [
    pytest.param(
        3,
        {},
        [
            (
                {
                    "dealer": 0,
                    "outcome": "played",
                    "soloist": 0,
                    "contract": "chiamo",
                    "soloist_points": 7,
                },
                [2, -1, -1],
                [2, -1, -1],
                "in_progress",
            ),
            ({"dealer": 1, "outcome": "passed_out"}, [0, 0, 0], [2, -1, -1], "in_progress"),
            (
                {
                    "dealer": 2,
                    "outcome": "played",
                    "soloist": 1,
                    "contract": "solo",
                    "soloist_points": 4,
                },
                [2, -4, 2],
                [4, -5, 1],
                "in_progress",
            ),
            (
                {
                    "dealer": 0,
                    "outcome": "played",
                    "soloist": 2,
                    "contract": "solissimo",
                    "soloist_points": 9,
                },
                [-4, -4, 8],
                [0, -9, 9],
                "in_progress",
            ),
            (
                {
                    "dealer": 1,
                    "outcome": "played",
                    "soloist": 0,
                    "contract": "dividete",
                    "soloist_points": 6,
                },
                [16, -8, -8],
                [16, -17, 1],
                "in_progress",
            ),
            (
                {
                    "dealer": 2,
                    "outcome": "played",
                    "soloist": 2,
                    "contract": "chiamo",
                    "soloist_points": 11,
                },
                [-3, -3, 6],
                [13, -20, 7],
                "in_progress",
            ),
            (
                {
                    "dealer": 0,
                    "outcome": "played",
                    "soloist": 0,
                    "contract": "solo",
                    "soloist_points": 11,
                    "sweep": "soloist",
                },
                [24, -12, -12],
                [37, -32, -5],
                "finished",
            ),
        ],
        [{"seat": 0, "place": 1}, {"seat": 2, "place": 2}, {"seat": 1, "place": 3}],
        None,
        id="G1",
    ),
    pytest.param(
        3,
        {},
        [
            (
                {
                    "dealer": 0,
                    "outcome": "played",
                    "soloist": 2,
                    "contract": "scegliete",
                    "soloist_points": 5,
                },
                [16, 16, -32],
                [16, 16, -32],
                "in_progress",
            ),
            (
                {
                    "dealer": 1,
                    "outcome": "played",
                    "soloist": 1,
                    "contract": "chiamo",
                    "soloist_points": 7,
                },
                [-1, 2, -1],
                [15, 18, -33],
                "in_progress",
            ),
            (
                {
                    "dealer": 2,
                    "outcome": "played",
                    "soloist": 2,
                    "contract": "solo",
                    "soloist_points": 5,
                },
                [2, 2, -4],
                [17, 20, -37],
                "in_progress",
            ),
            (
                {
                    "dealer": 0,
                    "outcome": "played",
                    "soloist": 2,
                    "contract": "solissimo",
                    "soloist_points": 3,
                },
                [4, 4, -8],
                [21, 24, -45],
                "finished",
            ),
        ],
        [{"seat": 1, "place": 1}, {"seat": 0, "place": 2}, {"seat": 2, "place": 3}],
        None,
        id="G2",
    ),
    pytest.param(
        3,
        {},
        [
            (
                {
                    "dealer": 0,
                    "outcome": "played",
                    "soloist": 2,
                    "contract": "scegliete",
                    "soloist_points": 5,
                },
                [16, 16, -32],
                [16, 16, -32],
                "in_progress",
            ),
            (
                {
                    "dealer": 1,
                    "outcome": "played",
                    "soloist": 2,
                    "contract": "solo",
                    "soloist_points": 4,
                },
                [2, 2, -4],
                [18, 18, -36],
                "in_progress",
            ),
            (
                {
                    "dealer": 2,
                    "outcome": "played",
                    "soloist": 2,
                    "contract": "solissimo",
                    "soloist_points": 2,
                },
                [4, 4, -8],
                [22, 22, -44],
                "in_progress",
            ),
            (
                {
                    "dealer": 0,
                    "outcome": "played",
                    "soloist": 0,
                    "contract": "chiamo",
                    "soloist_points": 6,
                },
                [2, -1, -1],
                [24, 21, -45],
                "finished",
            ),
        ],
        [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}, {"seat": 2, "place": 3}],
        None,
        id="G3",
    ),
    pytest.param(
        3,
        {"tie_at_target": "shared"},
        [
            (
                {
                    "dealer": 0,
                    "outcome": "played",
                    "soloist": 2,
                    "contract": "scegliete",
                    "soloist_points": 5,
                },
                [16, 16, -32],
                [16, 16, -32],
                "in_progress",
            ),
            (
                {
                    "dealer": 1,
                    "outcome": "played",
                    "soloist": 2,
                    "contract": "solo",
                    "soloist_points": 4,
                },
                [2, 2, -4],
                [18, 18, -36],
                "in_progress",
            ),
            (
                {
                    "dealer": 2,
                    "outcome": "played",
                    "soloist": 2,
                    "contract": "solissimo",
                    "soloist_points": 2,
                },
                [4, 4, -8],
                [22, 22, -44],
                "finished",
            ),
        ],
        [{"seat": 0, "place": 1}, {"seat": 1, "place": 1}, {"seat": 2, "place": 3}],
        None,
        id="G4",
    ),
    pytest.param(
        3,
        {"max_hands": 3},
        [
            (
                {
                    "dealer": 0,
                    "outcome": "played",
                    "soloist": 0,
                    "contract": "chiamo",
                    "soloist_points": 7,
                },
                [2, -1, -1],
                [2, -1, -1],
                "in_progress",
            ),
            ({"dealer": 1, "outcome": "passed_out"}, [0, 0, 0], [2, -1, -1], "in_progress"),
            (
                {
                    "dealer": 2,
                    "outcome": "played",
                    "soloist": 1,
                    "contract": "solo",
                    "soloist_points": 8,
                },
                [-2, 4, -2],
                [0, 3, -3],
                "finished",
            ),
        ],
        [{"seat": 1, "place": 1}, {"seat": 0, "place": 2}, {"seat": 2, "place": 3}],
        None,
        id="G5",
    ),
    pytest.param(
        4,
        {},
        [
            (
                {
                    "dealer": 0,
                    "outcome": "played",
                    "soloist": 1,
                    "contract": "solo",
                    "soloist_points": 7,
                },
                [0, 4, -2, -2],
                [0, 4, -2, -2],
                "in_progress",
            ),
            (
                {
                    "dealer": 1,
                    "outcome": "played",
                    "soloist": 3,
                    "contract": "chiamo",
                    "soloist_points": 5,
                },
                [1, 0, 1, -2],
                [1, 4, -1, -4],
                "in_progress",
            ),
            (
                {
                    "dealer": 2,
                    "outcome": "played",
                    "soloist": 0,
                    "contract": "solissimo",
                    "soloist_points": 8,
                },
                [8, -4, 0, -4],
                [9, 0, -1, -8],
                "in_progress",
            ),
            (
                {
                    "dealer": 3,
                    "outcome": "played",
                    "soloist": 2,
                    "contract": "chiamo",
                    "soloist_points": 6,
                },
                [-1, -1, 2, 0],
                [8, -1, 1, -8],
                "in_progress",
            ),
        ],
        [
            {"seat": 0, "place": 1},
            {"seat": 2, "place": 2},
            {"seat": 1, "place": 3},
            {"seat": 3, "place": 4},
        ],
        None,
        id="G6",
    ),
]
