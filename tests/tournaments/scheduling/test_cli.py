"""The pure core of ``manage.py schedule``: data for players 0 … N-1, and its text."""

import json

import pytest

from tournaments.scheduling.cli import build, render


def test_rotation_json_shape():
    data = build(15, 3, 7)
    assert set(data) == {"rounds", "byes", "metrics"}
    assert len(data["rounds"]) == len(data["byes"]) == 7
    assert all(len(table) == 3 for r in data["rounds"] for table in r)
    assert data["metrics"]["repeated_pairs"] == 0
    assert data["metrics"]["max_meetings"] == 1
    assert data["metrics"]["lower_bound"] == 7
    json.dumps(data)


def test_byes_are_listed_per_round():
    data = build(14, 3, 2)
    assert [len(b) for b in data["byes"]] == [2, 2]
    assert "byes:" in render(data)


def test_round_robin_cycles_through_the_double_round_robin():
    data = build(4, 2, 7, fmt="round_robin")
    assert data["rounds"][6] == data["rounds"][0]
    assert data["rounds"][3] == [table[::-1] for table in data["rounds"][0]]
    assert data["metrics"]["repeated_pairs"] == 6 + 1 * 2


def test_swiss_rounds_avoid_repeats_while_they_can():
    data = build(9, 3, 4, fmt="swiss")
    assert data["metrics"]["repeated_pairs"] == 0
    assert build(7, 2, 3, fmt="swiss")["metrics"]["byes_per_player"] == [0, 1]


def test_text_lists_rounds_then_the_figures():
    text = render(build(9, 3, 4))
    lines = text.splitlines()
    assert lines[0].startswith("Round 1: [")
    assert "Repeated pairs: 0" in text
    assert "lower bound): 4" in text
    assert "All 4 rounds are repeat-free." in text


def test_text_says_when_repeats_cannot_be_avoided():
    assert "cannot be avoided" in render(build(9, 3, 5))


def test_text_says_when_a_perfect_schedule_was_not_found():
    data = build(9, 3, 4)
    data["metrics"] |= {"perfect": False, "repeated_pairs": 3}
    assert "none was found" in render(data)


def test_the_seed_changes_the_schedule():
    assert build(15, 3, 7, seed=1)["rounds"] != build(15, 3, 7)["rounds"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((2, 3, 1), "cannot fill"),
        ((5, 1, 1), "at least 2 seats"),
        ((6, 3, 0), "at least one round"),
        ((6, 3, 2, "round_robin"), "tables of 2"),
        ((6, 3, 2, "league"), "unknown format"),
    ],
)
def test_bad_arguments_give_clear_errors(args, message):
    with pytest.raises(ValueError, match=message):
        build(*args)
