"""How bench/scale.py times an operation in its two databases (bench/scale_timing.py): the two
take turns call by call, so that a shared machine's load, as it comes and goes, weighs on both
medians alike (issue 26: ratios over target came from one database measured in a quiet minute
and the other in a busy one)."""

import pytest

from bench import scale_timing


def test_the_databases_take_turns_small_first_then_big_first():
    assert scale_timing.interleaved(4) == [
        ("small", "big"),
        ("big", "small"),
        ("small", "big"),
        ("big", "small"),
    ]
    assert scale_timing.interleaved(0) == []


@pytest.mark.django_db
def test_measure_alternates_the_databases_call_by_call(monkeypatch):
    used: list[str] = []
    calls: list[tuple[str, object]] = []
    monkeypatch.setattr(scale_timing, "use", used.append)

    def setup():
        return "argument"

    measured = scale_timing.measure(
        {
            "small": ("db_small", None, lambda argument: calls.append(("small", argument))),
            "big": ("db_big", setup, lambda argument: calls.append(("big", argument))),
        },
        4,
        quick_factor=1,
    )

    # A warm-up call in each, four timed calls each in turns, one more each for the queries.
    assert used == ["db_small", "db_big"] + ["db_small", "db_big", "db_big", "db_small"] * 2 + [
        "db_small",
        "db_big",
    ]
    assert [who for who, _argument in calls] == [name.removeprefix("db_") for name in used]
    assert {argument for who, argument in calls if who == "big"} == {"argument"}
    assert {argument for who, argument in calls if who == "small"} == {None}
    assert set(measured) == {"small", "big"}
    assert all(ms >= 0 and queries == 0 for ms, queries in measured.values())


@pytest.mark.django_db
def test_an_operation_of_a_few_milliseconds_is_called_more_often(monkeypatch):
    monkeypatch.setattr(scale_timing, "use", lambda name: None)
    calls: list[str] = []

    scale_timing.measure(
        {
            "small": ("db_small", None, lambda _argument: calls.append("small")),
            "big": ("db_big", None, lambda _argument: calls.append("big")),
        },
        4,
        quick_factor=3,
    )

    # A warm-up call and one for the queries in each, and 3 x 4 timed calls.
    assert calls.count("small") == calls.count("big") == 1 + 12 + 1
