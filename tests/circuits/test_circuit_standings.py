"""The circuit standings' pure rules (``tournaments.standings.circuits``): points by placement,
the default field rule on different field sizes, shared ranks, best-N, minimum attendance,
provisional events, and one person across two clubs."""

from fractions import Fraction

import pytest

from circuits.standings.circuits import (
    Event,
    Finish,
    Problem,
    check_table,
    circuit_standings,
    persons,
    placement_points,
)


def event(key, *ranks, final=True):
    """An event whose i-th finish is player ``100 * key + i`` at ``ranks[i]``; a tuple is a
    finish's (players, rank)."""
    finishes = []
    for i, rank in enumerate(ranks):
        if isinstance(rank, tuple):
            finishes.append(Finish(players=rank[0], rank=rank[1]))
        else:
            finishes.append(Finish(players=(100 * key + i,), rank=rank))
    return Event(key=key, final=final, finishes=tuple(finishes))


@pytest.mark.parametrize(
    ("rank", "entrants", "expected"),
    [
        pytest.param(1, 40, 40, id="winning-40-entries-earns-40"),
        pytest.param(1, 8, 8, id="winning-8-entries-earns-8"),
        pytest.param(8, 8, 1, id="last-of-8-earns-1"),
        pytest.param(10, 40, 31, id="10th-of-40-earns-31"),
    ],
)
def test_the_default_field_rule_scales_with_the_number_of_entrants(rank, entrants, expected):
    assert placement_points(rank, 1, entrants) == expected


def test_winning_a_big_field_is_worth_more_than_winning_a_small_one():
    rows = circuit_standings([event(1, *range(1, 41)), event(2, *range(1, 9))], person_of={})
    by_person = {row.person: row for row in rows}
    assert by_person[100].points == 40
    assert by_person[200].points == 8
    assert by_person[100].rank == 1


def test_an_organizer_table_gives_its_points_and_zero_beyond_its_end():
    table = (25, 18, 15)
    assert placement_points(1, 1, 10, table) == 25
    assert placement_points(3, 1, 10, table) == 15
    assert placement_points(4, 1, 10, table) == 0


def test_shared_ranks_share_the_points_of_the_places_they_cover():
    assert placement_points(2, 2, 8) == Fraction(13, 2)
    assert placement_points(3, 2, 4, (10, 6, 4)) == 2  # (4 + 0) / 2
    rows = circuit_standings([event(1, 1, 2, 2, 4)], person_of={})
    assert [(r.person, r.rank, r.points) for r in rows] == [
        (100, 1, 4),
        (101, 2, Fraction(5, 2)),
        (102, 2, Fraction(5, 2)),
        (103, 4, 1),
    ]


def test_best_n_counts_only_the_best_final_results():
    a = 7
    events = [
        event(1, ((a,), 1), ((8,), 2)),  # 2 points
        event(2, ((a,), 2), ((8,), 1), ((9,), 3)),  # 2 points
        event(3, ((a,), 1), ((8,), 2), ((9,), 3)),  # 3 points
    ]
    rows = circuit_standings(events, person_of={}, best_of=2)
    row = next(r for r in rows if r.person == a)
    assert row.points == 5
    assert [(r.event, r.counted) for r in row.results] == [(1, True), (2, False), (3, True)]
    assert row.events == 3


def test_below_minimum_attendance_a_person_is_listed_but_unranked():
    events = [event(1, ((1,), 1), ((2,), 2)), event(2, ((2,), 1), ((3,), 2))]
    rows = circuit_standings(events, person_of={}, min_events=2)
    assert [(r.person, r.rank, r.ranked) for r in rows] == [
        (2, 1, True),
        (1, None, False),
        (3, None, False),
    ]


def test_a_live_event_is_shown_as_provisional_and_counts_nothing():
    rows = circuit_standings([event(1, 1, 2, final=False)], person_of={}, min_events=1)
    assert all(r.points == 0 and not r.ranked and r.events == 0 for r in rows)
    assert rows[0].results[0].provisional and not rows[0].results[0].counted


def test_an_entry_unranked_in_its_competition_earns_nothing_and_is_not_in_the_field():
    rows = circuit_standings([event(1, 1, None, 2)], person_of={})
    assert [(r.person, r.points) for r in rows] == [(100, 2), (102, 1)]


def test_a_pairs_result_goes_whole_to_each_of_its_two_players():
    rows = circuit_standings([event(1, ((1, 2), 1), ((3, 4), 2))], person_of={})
    assert {r.person: r.points for r in rows} == {1: 2, 2: 2, 3: 1, 4: 1}


def test_players_of_one_account_or_linked_by_hand_are_one_person():
    accounts = {10: 500, 20: 500, 30: None, 40: None, 50: None}
    person_of = persons(accounts, links=[(40, 30), (50, 99)])
    assert person_of == {10: 10, 20: 10, 30: 30, 40: 30, 50: 50}


def test_a_person_across_two_clubs_is_counted_once_with_both_results():
    person_of = persons({1: 77, 2: 77, 3: None, 4: None})
    events = [event(1, ((1,), 1), ((3,), 2)), event(2, ((2,), 2), ((4,), 1))]
    rows = circuit_standings(events, person_of=person_of)
    assert [(r.rank, r.person, r.points, len(r.results)) for r in rows] == [
        (1, 1, 3, 2),
        (2, 4, 2, 1),
        (3, 3, 1, 1),
    ]


def test_a_person_met_twice_in_one_event_keeps_the_better_result():
    person_of = persons({1: 5, 2: 5, 3: None})
    rows = circuit_standings([event(1, ((3,), 1), ((2,), 2), ((1,), 3))], person_of=person_of)
    assert {r.person: r.points for r in rows} == {3: 3, 1: 2}


def test_a_joined_pair_of_already_joined_players_changes_nothing():
    assert persons({1: 9, 2: 9}, links=[(1, 2)]) == {1: 1, 2: 1}


@pytest.mark.parametrize(
    ("table", "code"),
    [
        pytest.param((), "required", id="empty"),
        pytest.param((10, -1), "negative", id="negative"),
        pytest.param((5, 8, 3), "increasing", id="increasing"),
    ],
)
def test_a_bad_points_table_is_refused_naming_it(table, code):
    with pytest.raises(Problem) as refused:
        check_table(table)
    assert (refused.value.field, refused.value.code) == ("points_table", code)


def test_best_of_zero_is_refused():
    with pytest.raises(Problem) as refused:
        circuit_standings([], person_of={}, best_of=0)
    assert refused.value.field == "best_of"


def test_an_organizer_table_that_stays_level_is_accepted():
    check_table((10, 10, 0))
    check_table(None)


def test_the_worked_example_of_docs_circuits_md():
    """docs/circuits.md: Coppa Uno of 8 (Anna 1st, Bruno and Carla 2nd, Dario 4th), Coppa Due of
    40 (Elena 1st, Anna 10th)."""
    anna, bruno, carla, dario, elena = 1, 2, 3, 4, 5
    uno = [((anna,), 1), ((bruno,), 2), ((carla,), 2), ((dario,), 4)]
    uno += [((100 + i,), 5 + i) for i in range(4)]
    due = [((elena,), 1)] + [((200 + i,), 2 + i) for i in range(8)] + [((anna,), 10)]
    due += [((300 + i,), 11 + i) for i in range(30)]
    events = [event(1, *uno), event(2, *due)]
    field = {r.person: r.points for r in circuit_standings(events, person_of={})}
    assert [field[p] for p in (elena, anna, bruno, carla, dario)] == [40, 39, 13 / 2, 13 / 2, 5]
    table = {
        r.person: r.points
        for r in circuit_standings(events, person_of={}, table=(25, 18, 15, 12, 10))
    }
    assert [table[p] for p in (anna, elena, bruno, dario)] == [25, 25, 33 / 2, 12]
