"""The bump chart's names at both ends do not overlap (issue 35 polish): entries tied (one
height) or at adjacent ranks of a big field (ranks closer than a line of text) get their labels
set apart, at least the font's height between two, centred on their lines and inside the chart;
the reader's own line, named beside the leaders, is set apart from them too. Pure: no database."""

from __future__ import annotations

from itertools import combinations

from tournaments.presenters import bump


def history(*rounds: dict[int, int]) -> list[dict]:
    """Standings after each round from {entry: rank}; entry 1 is named "E1", and so on."""
    return [
        {
            "after_round": number,
            "tables": [
                {
                    "rows": [
                        {"entry": e, "name": f"E{e}", "rank": r, "ranked": True}
                        for e, r in sorted(ranks.items(), key=lambda item: (item[1], item[0]))
                    ]
                }
            ],
        }
        for number, ranks in enumerate(rounds, start=1)
    ]


def labels(chart: dict, end: str, mine: int | None = None) -> dict[int, float]:
    """entry -> the height of its label at one end ("left_y" or "right_y"), for the labels
    shown without a tap: the featured lines' and the reader's own."""
    return {
        line["entry"]: line[end]
        for line in chart["lines"]
        if line["featured"] or line["entry"] == mine
    }


def assert_apart(heights: dict[int, float], chart: dict) -> None:
    for (a, ya), (b, yb) in combinations(heights.items(), 2):
        assert abs(ya - yb) >= bump.FONT, (a, ya, b, yb)
    assert all(bump.FONT / 2 <= y <= chart["height"] - bump.FONT / 2 for y in heights.values())


def line_y(chart: dict, entry: int, end: str) -> float:
    line = next(line for line in chart["lines"] if line["entry"] == entry)
    return (line["first"] if end == "left_y" else line["last"])["y"]


def test_the_gap_between_labels_is_more_than_the_font_height():
    assert bump.LABEL_GAP >= bump.FONT


def test_labels_with_room_stay_at_their_lines_height():
    chart = bump.bump_chart(history({1: 1, 2: 2, 3: 3, 4: 4}, {1: 2, 2: 1, 3: 4, 4: 3}))
    for end in ("left_y", "right_y"):
        assert all(y == line_y(chart, e, end) for e, y in labels(chart, end).items())


def test_two_entries_tied_have_their_labels_set_apart_centred_on_their_line():
    chart = bump.bump_chart(history({1: 1, 2: 2, 3: 3, 4: 4}, {1: 1, 2: 3, 3: 3, 4: 4}))
    right = labels(chart, "right_y")
    assert_apart(right, chart)
    assert right[2] < right[3]  # in the standings' order, top to bottom
    assert (right[2] + right[3]) / 2 == line_y(chart, 2, "right_y")  # centred on the tie
    # The ones beside the tie keep their room or are pushed out of its way, not into it.
    assert right[1] == line_y(chart, 1, "right_y")


def test_six_leaders_tied_first_and_last_all_fit_in_the_chart():
    first = {e: 1 for e in range(1, 7)}
    last = {e: 6 for e in range(1, 7)} | {7: 1}
    chart = bump.bump_chart(history(first, last))
    for end in ("left_y", "right_y"):
        assert_apart(labels(chart, end), chart)


def test_adjacent_ranks_of_a_big_field_and_the_readers_own_line_do_not_overlap():
    # 40 entries: a rank is about 10.8 px high, less than a line of text.
    ranks = {e: e for e in range(1, 41)}
    moved = {e: 41 - e for e in range(1, 41)}
    chart = bump.bump_chart(history(moved, ranks), mine=7)
    assert chart["gap"] < bump.FONT
    for end in ("left_y", "right_y"):
        shown = labels(chart, end, mine=7)
        assert 7 in shown and len(shown) == 7
        assert_apart(shown, chart)
    # Without the reader's line the leaders' labels are as before: their own room.
    alone = bump.bump_chart(history(moved, ranks))
    assert 7 not in labels(alone, "right_y")
    assert_apart(labels(alone, "right_y"), alone)


def test_a_chart_whose_labels_need_more_room_than_its_ranks_grows_to_hold_them():
    # Three entries tied first twice: one rank high, three labels.
    chart = bump.bump_chart(history({1: 1, 2: 1, 3: 1}, {1: 1, 2: 1, 3: 1}))
    right = labels(chart, "right_y")
    assert max(right.values()) > chart["bottom"]  # below the last rank's line
    assert_apart(right, chart)  # and still inside the picture
