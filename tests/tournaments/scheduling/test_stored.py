"""Every design kept as data is what it claims: resolvable, no pair twice, as many rounds as the
counting bound allows."""

import pytest

from tournaments.scheduling import rotation
from tournaments.scheduling.stored import design_of, entries, stored

from .test_resolvable import assert_every_pair_once


def assert_repeat_free(design, v, k, rounds):
    met = set()
    for tables in design:
        assert sorted(x for t in tables for x in t) == list(range(v))
        assert {len(t) for t in tables} == {k}
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    assert frozenset((a, b)) not in met
                    met.add(frozenset((a, b)))
    assert len(design) == rounds


@pytest.mark.parametrize("entry", entries(), ids=lambda e: f"{e['v']}-{e['k']}")
def test_every_stored_design_is_repeat_free_for_the_most_rounds(entry):
    v, k = entry["v"], entry["k"]
    assert entry["found"]
    design = design_of(entry)
    if v % (k * (k - 1)) == k:  # a complete resolvable design: every pair exactly once
        assert_every_pair_once(design, v, k)
    else:
        assert_repeat_free(design, v, k, (v - 1) // (k - 1))


def test_nearly_kirkman_systems_are_stored_for_several_orders():
    orders = {e["v"] for e in entries() if e["k"] == 3 and e["v"] % 6 == 0}
    assert {36, 42, 48} <= orders


def test_nothing_is_stored_for_an_order_without_an_entry():
    assert list(stored(13, 3)) == []


def test_the_rotation_draws_36_players_17_rounds_at_tables_of_3_from_the_stored_nkts():
    schedule = rotation(range(36), sizes={3}, ideal=3, rounds=17)
    assert schedule.metrics.repeated_pairs == 0
    assert "NKTS(36)" in schedule.method


def test_an_entry_kept_as_whole_rounds_is_read_as_is(monkeypatch):
    from tournaments.scheduling import stored as module

    rounds = [[[0, 1, 2], [3, 4, 5], [6, 7, 8]], [[0, 3, 6], [1, 4, 7], [2, 5, 8]]]
    entry = {"v": 9, "k": 3, "name": "by SAT", "found": "test", "rounds": rounds}
    monkeypatch.setattr(module, "entries", lambda: (entry,))
    assert list(module.stored(9, 3)) == [("by SAT", rounds)]


def test_nearly_kirkman_systems_up_to_96_players_are_stored():
    orders = {e["v"] for e in entries() if e["k"] == 3 and e["v"] % 6 == 0}
    assert {24, 66, 78, 84, 96} <= orders


@pytest.mark.parametrize("n", [66, 78, 84, 96])
def test_the_rotation_draws_a_stored_nkts_perfectly(n):
    schedule = rotation(range(n), sizes={3}, ideal=3, rounds=(n - 2) // 2)
    assert schedule.metrics.repeated_pairs == 0
    assert f"NKTS({n})" in schedule.method


def test_the_rotation_draws_65_players_at_tables_of_5_for_16_rounds_from_a_1_rotational_design():
    schedule = rotation(range(65), sizes={5}, ideal=5, rounds=16)
    assert schedule.metrics.repeated_pairs == 0
    assert schedule.method == (
        "resolvable (65,5,1) design, 1-rotational over Z_8 x Z_8, stored base blocks"
    )


@pytest.mark.parametrize(
    ("players", "size", "rounds", "name"),
    [
        (18, 3, 8, "NKTS(18)"),
        (69, 3, 34, "KTS(69)"),
        (85, 5, 21, "packing of PG(3,4)"),
        (90, 3, 44, "NKTS(90)"),
        (100, 4, 33, "(100,4,1)"),
    ],
)
def test_the_rotation_draws_the_stored_designs_repeat_free(players, size, rounds, name):
    schedule = rotation(range(players), sizes={size}, ideal=size, rounds=rounds)
    assert schedule.metrics.repeated_pairs == 0
    assert len(schedule.rounds) == rounds
    assert name in schedule.method
