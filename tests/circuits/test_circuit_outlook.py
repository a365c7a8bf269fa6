"""Who can still win a circuit (``tournaments.standings.circuit_outlook``): checked against a
brute force that plays every completion of the competitions left, joiners and newcomers
included, through the circuit's own standings (``circuits.circuit_standings``), on small
circuits (hypothesis); and worked examples."""

from __future__ import annotations

from itertools import combinations, product

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from circuits.standings.circuit_outlook import (
    OPEN,
    Upcoming,
    circuit_outlook,
    fubini,
)
from circuits.standings.circuits import Event, Finish, circuit_standings
from tournaments.standings.outlook import BUDGET, CAN_WIN, CANNOT_WIN, CLINCHED, orders

SETTINGS = settings(deadline=None)
NEWCOMER = -100


def final(key, *ranked):
    """A final event: each argument the players of one entry, ranked in that order."""
    return Event(
        key=key,
        final=True,
        finishes=tuple(Finish(players=p, rank=i) for i, p in enumerate(ranked, start=1)),
    )


# -- brute force ------------------------------------------------------------------------------


def _fields(upcoming, known, person_of):
    """Every field a competition left may end with: its entries, plus known persons not
    entered and newcomers, as many as its room allows."""
    listed = {person_of.get(p, p) for e in upcoming.entries for p in e}
    free = [p for p in known if p not in listed]
    for joiners in range(upcoming.room + 1):
        for chosen in combinations(free, joiners):
            for newcomers in range(upcoming.room - joiners + 1):
                yield [
                    *upcoming.entries,
                    *((p,) for p in chosen),
                    *((NEWCOMER - upcoming.key * 10 - i,) for i in range(newcomers)),
                ]


def brute_force(events, upcoming, person_of, table, best_of, min_events):
    """Each known person: (can win, clinched, best rank, worst rank), over every completion,
    the standings computed by ``circuit_standings``."""
    known = sorted(
        {person_of.get(p, p) for e in events for f in e.finishes for p in f.players}
        | {person_of.get(p, p) for u in upcoming for e in u.entries for p in e}
        | set(person_of.values())
    )
    per_event = []
    for u in upcoming:
        outcomes = []
        for field in _fields(u, known, person_of):
            for order in orders(len(field)):
                finishes = tuple(
                    Finish(players=players, rank=rank)
                    for players, (rank, _shared) in zip(field, order, strict=True)
                )
                outcomes.append(Event(key=1000 + u.key, final=True, finishes=finishes))
        per_event.append(outcomes)
    seen = {p: [False, True, None, None] for p in known}
    for completion in product(*per_event):
        rows = circuit_standings(
            [*events, *completion],
            person_of=person_of,
            table=table,
            best_of=best_of,
            min_events=min_events,
        )
        ranked = {r.person: r.points for r in rows if r.ranked}
        for p in known:
            if p not in ranked:
                seen[p][1] = False
                continue
            above = sum(v > ranked[p] for v in ranked.values())
            level = sum(v >= ranked[p] for q, v in ranked.items() if q != p)
            got = seen[p]
            got[0] = got[0] or above == 0
            got[1] = got[1] and level == 0
            got[2] = above + 1 if got[2] is None else min(got[2], above + 1)
            got[3] = level + 1 if got[3] is None else max(got[3], level + 1)
    return {p: tuple(v) for p, v in seen.items()}


@st.composite
def circuits(draw, room=False):
    persons = list(range(1, draw(st.integers(2, 4)) + 1))
    table = draw(
        st.one_of(
            st.none(),
            st.lists(st.integers(0, 6), min_size=1, max_size=4).map(
                lambda t: sorted(t, reverse=True)
            ),
        )
    )
    events = []
    for key in range(draw(st.integers(0, 2))):
        field = draw(st.permutations(persons))[: draw(st.integers(1, len(persons)))]
        ranks = sorted(draw(st.lists(st.integers(1, 3), min_size=len(field), max_size=len(field))))
        events.append(
            Event(
                key=key,
                final=True,
                finishes=tuple(
                    Finish(players=(p,), rank=r) for p, r in zip(field, ranks, strict=True)
                ),
            )
        )
    upcoming = []
    for key in range(draw(st.integers(1, 2))):
        field = draw(st.permutations(persons))[: draw(st.integers(0, 3))]
        upcoming.append(
            Upcoming(
                key=key,
                entries=tuple((p,) for p in field),
                room=draw(st.integers(0, 1)) if room else 0,
            )
        )
    best_of = draw(st.one_of(st.none(), st.integers(1, 2)))
    min_events = draw(st.integers(0, 2))
    return events, upcoming, {p: p for p in persons}, table, best_of, min_events


def _ranks_events(events):
    """Competition-style ranks (1, 2, 2, 4) as the standings write them."""
    fixed = []
    for event in events:
        ranks = [f.rank for f in event.finishes]
        written = [1 + sum(r < own for r in ranks) for own in ranks]
        fixed.append(
            Event(
                key=event.key,
                final=True,
                finishes=tuple(
                    Finish(players=f.players, rank=r)
                    for f, r in zip(event.finishes, written, strict=True)
                ),
            )
        )
    return fixed


def _check_safe(got, truth):
    for person, (can_win, clinched, best, worst) in truth.items():
        o = got[person]
        if can_win:
            assert o.status != CANNOT_WIN, (person, o, truth[person])
        if o.status == CLINCHED:
            assert clinched, (person, o, truth[person])
        if o.status == CANNOT_WIN:
            assert not can_win, (person, o, truth[person])
        if o.exact and o.status == CAN_WIN:
            assert can_win and not clinched, (person, o, truth[person])
        if best is not None:
            assert o.best is not None and o.best <= best, (person, o, truth[person])
            assert o.worst is None or o.worst >= worst, (person, o, truth[person])
        if o.ranks_exact:
            assert (o.best, o.worst) == (best, worst), (person, o, truth[person])


# Chosen from a few hundred drawn cases to reach every branch the property reaches: the
# coverage gate of `make test` (100 % on the standings' code) must not depend on the draw.
@SETTINGS
@given(circuits())
@example(
    (
        [
            Event(
                key=0,
                final=True,
                finishes=(
                    Finish(players=(1,), rank=1),
                    Finish(players=(2,), rank=2),
                    Finish(players=(3,), rank=3),
                ),
            ),
            Event(key=1, final=True, finishes=(Finish(players=(1,), rank=3),)),
        ],
        [Upcoming(key=0, entries=((1,), (3,), (4,)), room=0), Upcoming(key=1, entries=(), room=0)],
        {1: 1, 2: 2, 3: 3, 4: 4},
        [6, 2, 1, 0],
        None,
        2,
    )
)
@example(
    (
        [
            Event(key=0, final=True, finishes=(Finish(players=(2,), rank=3),)),
            Event(
                key=1,
                final=True,
                finishes=(Finish(players=(2,), rank=1), Finish(players=(1,), rank=3)),
            ),
        ],
        [Upcoming(key=0, entries=((1,),), room=0), Upcoming(key=1, entries=(), room=0)],
        {1: 1, 2: 2},
        None,
        2,
        0,
    )
)
@example(
    (
        [Event(key=0, final=True, finishes=(Finish(players=(4,), rank=2),))],
        [
            Upcoming(key=0, entries=((1,), (4,), (3,)), room=0),
            Upcoming(key=1, entries=((2,),), room=0),
        ],
        {1: 1, 2: 2, 3: 3, 4: 4},
        [3],
        None,
        1,
    )
)
def test_closed_fields_played_out_are_exact(case):
    events, upcoming, person_of, table, best_of, min_events = case
    events = _ranks_events(events)
    truth = brute_force(events, upcoming, person_of, table, best_of, min_events)
    got = circuit_outlook(
        events,
        upcoming,
        person_of=person_of,
        table=table,
        best_of=best_of,
        min_events=min_events,
        budget=10**6,
    )
    for person, (can_win, clinched, best, worst) in truth.items():
        o = got[person]
        assert o.exact and o.ranks_exact
        expected = CLINCHED if clinched else CAN_WIN if can_win else CANNOT_WIN
        assert (o.status, o.best, o.worst) == (expected, best, worst), person


# Chosen from a few hundred drawn cases to reach every branch the property reaches: the
# coverage gate of `make test` (100 % on the standings' code) must not depend on the draw.
@SETTINGS
@given(circuits(room=True))
@example(
    (
        [
            Event(
                key=0,
                final=True,
                finishes=(
                    Finish(players=(1,), rank=2),
                    Finish(players=(3,), rank=2),
                    Finish(players=(2,), rank=3),
                ),
            ),
            Event(
                key=1,
                final=True,
                finishes=(
                    Finish(players=(1,), rank=1),
                    Finish(players=(2,), rank=2),
                    Finish(players=(3,), rank=2),
                    Finish(players=(4,), rank=3),
                ),
            ),
        ],
        [Upcoming(key=0, entries=((3,),), room=0), Upcoming(key=1, entries=((1,), (2,)), room=1)],
        {1: 1, 2: 2, 3: 3, 4: 4},
        [5, 0],
        None,
        0,
    )
)
@example(
    (
        [
            Event(
                key=0,
                final=True,
                finishes=(
                    Finish(players=(2,), rank=1),
                    Finish(players=(3,), rank=2),
                    Finish(players=(1,), rank=2),
                ),
            )
        ],
        [Upcoming(key=0, entries=((2,),), room=0)],
        {1: 1, 2: 2, 3: 3},
        None,
        None,
        2,
    )
)
@example(
    (
        [Event(key=0, final=True, finishes=(Finish(players=(4,), rank=1),))],
        [
            Upcoming(key=0, entries=((4,),), room=1),
            Upcoming(key=1, entries=((3,), (1,), (2,)), room=0),
        ],
        {1: 1, 2: 2, 3: 3, 4: 4},
        None,
        1,
        0,
    )
)
def test_bounds_and_witnesses_are_safe(case):
    """Without playing every completion out (budget 0, or fields still open), never "cannot"
    for a person who can win, never "clinched" for one who can be caught, ranks around the
    true ones; and an exact "can still win" is true."""
    events, upcoming, person_of, table, best_of, min_events = case
    events = _ranks_events(events)
    truth = brute_force(events, upcoming, person_of, table, best_of, min_events)
    got = circuit_outlook(
        events,
        upcoming,
        person_of=person_of,
        table=table,
        best_of=best_of,
        min_events=min_events,
        budget=0,
    )
    _check_safe(got, truth)


# -- worked examples --------------------------------------------------------------------------


def test_a_closed_last_competition_decides_exactly():
    """Field rule, every result counts. Anna won both competitions of 4 entries (4 + 4 = 8),
    Bruno was second twice (3 + 3 = 6), Carla third (2 + 2 = 4), Dario last (1 + 1 = 2). The
    last competition has a closed field of Bruno, Carla and Dario (3 entries: 3, 2, 1 points):
    Bruno can reach 9 and pass Anna, who does not play; Carla reaches 7 at most, Dario 5: they
    cannot win. Dario at best: first (5) with Carla third (5): only Anna and Bruno above."""
    anna, bruno, carla, dario = 1, 2, 3, 4
    events = [final(key, (anna,), (bruno,), (carla,), (dario,)) for key in (1, 2)]
    # the last one is live: its provisional standings (Dario ahead) count for nothing yet
    live = Event(3, final=False, finishes=(Finish((dario,), 1), Finish((bruno,), 2)))
    upcoming = [Upcoming(3, entries=((bruno,), (carla,), (dario,)))]
    got = circuit_outlook([*events, live], upcoming, person_of={})
    assert {p: got[p].status for p in got} == {
        anna: CAN_WIN,
        bruno: CAN_WIN,
        carla: CANNOT_WIN,
        dario: CANNOT_WIN,
    }
    assert (got[anna].best, got[anna].worst) == (1, 2)
    assert (got[dario].best, got[dario].worst) == (3, 4)
    assert all(o.exact and o.ranks_exact for o in got.values())


def test_a_lead_out_of_reach_is_clinched_and_a_person_short_of_attendance_cannot_win():
    """Points table 10, 6, 3; the best 2 results count; at least 2 competitions to be ranked.
    Anna has won two (20), Bruno was second twice (12): with one competition left (Bruno and
    Carla entered, closed), Bruno reaches 6 + 10 = 16 at most: Anna has clinched. Carla has
    one result: the last competition would make two, but her best is 3 + 10 = 13."""
    anna, bruno, carla, elio = 1, 2, 3, 5
    events = [final(1, (anna,), (bruno,), (carla,)), final(2, (anna,), (bruno,), (elio,))]
    upcoming = [Upcoming(3, entries=((bruno,), (carla,)))]
    got = circuit_outlook(events, upcoming, person_of={}, table=[10, 6, 3], best_of=2, min_events=2)
    assert got[anna].status == CLINCHED and (got[anna].best, got[anna].worst) == (1, 1)
    assert got[bruno].status == CANNOT_WIN
    assert got[carla].status == CANNOT_WIN
    # Elio played once and is not entered in the last one: never ranked.
    assert (got[elio].status, got[elio].best, got[elio].worst) == (CANNOT_WIN, None, None)


def test_a_pair_earns_its_points_for_both_partners_and_linked_players_are_one_person():
    """Player 11 (club A) and 21 (club B) are one person (21 -> 11). A pairs competition left:
    (11 with 12) against (13 with 14), field rule: the winners' two players get 2 each."""
    events = [final(1, (13,), (21,), (12,), (14,))]  # 13: 4, person 11: 3, 12: 2, 14: 1
    upcoming = [Upcoming(2, entries=((11, 12), (13, 14)))]
    got = circuit_outlook(events, upcoming, person_of={21: 11, 11: 11})
    assert 21 not in got
    assert got[11].status == CAN_WIN  # 3 + 2 = 5 against 13's 4 + 1
    assert got[13].status == CAN_WIN  # 4 + 2 = 6
    assert got[12].status == CANNOT_WIN  # 2 + 2 = 4 < 13's 5 at least
    assert got[14].status == CANNOT_WIN


def test_an_open_field_under_the_field_rule_leaves_nobody_certain():
    """The next competition takes any number of entries: a winner of a large field can pass
    anyone. Nobody has clinched, even far ahead; a witness (a crowd of newcomers below the
    winner) shows that the last one can still win, exactly; the ranks are bounds."""
    events = [final(1, (1,), (2,), (3,), (4,), (5,), (6,))]
    upcoming = [Upcoming(2, entries=((1,),), room=None)]
    got = circuit_outlook(events, upcoming, person_of={})
    assert {o.status for o in got.values()} == {CAN_WIN}
    assert got[6].exact and got[6].reason == OPEN
    assert got[1].worst is None and not got[1].ranks_exact


def test_an_open_field_with_a_points_table_is_bounded():
    """With a table, a field with room for one more gives at most 10 to anyone: a lead of more
    than 10 over everyone who can still play, newcomers included, is clinched."""
    events = [final(key, (1,), (2,)) for key in (1, 2, 3)]  # 1: 30, 2: 18
    upcoming = [Upcoming(4, entries=((2,),), room=1)]
    got = circuit_outlook(events, upcoming, person_of={}, table=[10, 6])
    assert got[1].status == CLINCHED and got[1].exact and got[1].ranks_exact
    assert (got[1].best, got[1].worst) == (1, 1)
    assert got[2].status == CANNOT_WIN and got[2].exact  # 18 + 10 = 28 < 30


def test_too_many_completions_leave_a_safe_estimate():
    """Eight entries in a closed field: 545,835 orders, over the budget. Each holds 9 - its
    place of the first competition; the last one still wins the second, with everyone else in
    reverse order, by a tie of all eight on 9 points: the witness finds it."""
    events = [final(1, *[(p,) for p in range(1, 9)])]
    upcoming = [Upcoming(2, entries=tuple((p,) for p in range(1, 9)))]
    assert fubini(8) == 545_835
    got = circuit_outlook(events, upcoming, person_of={})
    assert got[8].status == CAN_WIN and got[8].exact
    assert not got[8].ranks_exact and got[8].reason == BUDGET
    assert (got[8].best, got[8].worst) == (1, 8)


def test_nothing_left_to_play_gives_no_outlook():
    assert circuit_outlook([final(1, (1,), (2,))], [], person_of={}) == {}


@pytest.mark.parametrize("n, count", [(0, 1), (1, 1), (2, 3), (3, 13), (4, 75), (5, 541)])
def test_orders_with_shared_places(n, count):
    assert fubini(n) == count == len(orders(n))
