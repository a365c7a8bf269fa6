"""Who can still win (``tournaments.standings.outlook``): checked against brute force over every
completion of the nights left on small leagues (hypothesis), and worked examples."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings.outlook import (
    BUDGET,
    CAN_WIN,
    CANNOT_WIN,
    CLINCHED,
    NOT_DRAWN,
    Night,
    best_n,
    orders,
    outlook,
    rows_for,
)
from tournaments.standings.outlook_search import max_flow

SETTINGS = settings(deadline=None)


# -- brute force ------------------------------------------------------------------------------


def _partitions(people, sizes):
    """Every way to split ``people`` into tables of the allowed sizes."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for size in sizes:
        for others in combinations(rest, size - 1):
            left = [p for p in rest if p not in others]
            for tail in _partitions(left, sizes):
                yield [(first, *others), *tail]


def _night_outcomes(night, rows):
    """Every outcome of a night: {entrant: points} of those who play."""
    if night.tables:
        tablings = [list(night.tables)]
    else:
        tablings = []
        for k in range(len(night.entrants) + 1):
            for present in combinations(night.entrants, k):
                tablings.extend(_partitions(list(present), night.sizes))
    for tables in tablings:
        per_table = [
            [{e: rows[len(t)][o[p]] for p, e in enumerate(t)} for o in orders(len(t))]
            for t in tables
        ]
        for choice in product(*per_table):
            merged = {}
            for part in choice:
                merged |= part
            yield merged


def _distinct_outcomes(night, rows):
    """A night's outcomes, each once: many seatings give the same points to the same people,
    and the brute force multiplies the nights' outcomes together."""
    return [dict(o) for o in {frozenset(m.items()) for m in _night_outcomes(night, rows)}]


def _final_states(played, nights, rows, everyone):
    """Every distinct end of the league: per entrant, the multiset of its values (sorted). The
    nights are added one by one and equal states merged, so the brute force stays exhaustive
    without walking every combination of seatings that ends the same."""
    states = {tuple(tuple(sorted(played[e])) for e in everyone)}
    for night in nights:
        outcomes = _distinct_outcomes(night, rows)
        states = {
            tuple(
                tuple(sorted((*values, o[e]))) if e in o else values
                for e, values in zip(everyone, state, strict=True)
            )
            for state in states
            for o in outcomes
        }
    return states


def brute_force(played, nights, rows, best_of, bonus, min_groups):
    """Per entrant: (ever ranked, best rank, worst rank, can finish first, clinched)."""
    everyone = sorted(played)
    truth = {e: [False, None, None, False, True] for e in everyone}
    totals = {}  # a multiset of values -> its best-N sum (they repeat from one end to the next)
    ends = set()  # each distinct end as (ranked, final) per entrant: ranks depend on nothing else
    for state in _final_states(played, nights, rows, everyone):
        for values in state:
            if values not in totals:
                totals[values] = best_n(values, best_of)
        ends.add(
            tuple(
                (len(values) >= min_groups, totals[values] + bonus.get(e, 0))
                for e, values in zip(everyone, state, strict=True)
            )
        )
    for end in ends:
        ranked = [final for is_ranked, final in end if is_ranked]
        for e, (is_ranked, final) in zip(everyone, end, strict=True):
            t = truth[e]
            if not is_ranked:
                t[4] = False
                continue
            best = 1 + sum(other > final for other in ranked)
            worst = sum(other >= final for other in ranked)  # counts e itself: 1 + the others
            t[0] = True
            t[1] = best if t[1] is None else min(t[1], best)
            t[2] = worst if t[2] is None else max(t[2], worst)
            t[3] = t[3] or best == 1
            t[4] = t[4] and worst == 1
    return truth


def assert_sound(played, nights, rows, best_of=None, bonus=None, min_groups=0, budget=20_000):
    bonus = bonus or {}
    got = outlook(
        played,
        nights,
        rows=rows,
        best_of=best_of,
        bonus=bonus,
        min_groups=min_groups,
        budget=budget,
    )
    truth = brute_force(played, nights, rows, best_of, bonus, min_groups)
    for e, (ever, best, worst, can, clinched) in truth.items():
        o = got[e]
        if not ever:
            assert (o.status, o.best, o.worst) == (CANNOT_WIN, None, None), (e, o)
            continue
        assert o.best <= best and o.worst >= worst, (e, o, best, worst)
        if o.ranks_exact:
            assert (o.best, o.worst) == (best, worst), (e, o, best, worst)
        if o.status == CANNOT_WIN:
            assert not can, (e, o)
        if o.status == CLINCHED:
            assert clinched, (e, o)
        if o.exact:
            expected = CLINCHED if clinched else CAN_WIN if can else CANNOT_WIN
            assert o.status == expected, (e, o, expected)
        else:
            assert o.status == CAN_WIN and o.reason, (e, o)
    return got, truth


# -- random small leagues -----------------------------------------------------------------------


@st.composite
def leagues(draw):
    n = draw(st.integers(2, 5))
    everyone = list(range(1, n + 1))
    scheme = draw(st.sampled_from(["placement", "fair_placement", "matches_won"]))
    rows = rows_for(scheme, (2, 3))
    seat_values = sorted({v for row in rows.values() for v in row.values()})
    played = {e: draw(st.lists(st.sampled_from(seat_values), max_size=2)) for e in everyone}
    nights = []
    for group in range(draw(st.integers(1, 2))):
        if draw(st.booleans()):
            people = draw(st.permutations(everyone))
            tables, at = [], 0
            while len(people) - at >= 2:
                size = draw(st.sampled_from([2, 3] if len(people) - at >= 3 else [2]))
                if draw(st.integers(0, 4)) == 0:  # a bye
                    at += 1
                    continue
                tables.append(tuple(people[at : at + size]))
                at += size
            nights.append(Night(group, tables=tuple(tables)))
        else:
            entrants = tuple(sorted(draw(st.sets(st.sampled_from(everyone), min_size=1))))
            sizes = draw(st.sampled_from([(2,), (3,), (2, 3)]))
            nights.append(Night(group, entrants=entrants, sizes=sizes))
    best_of = draw(st.sampled_from([None, 1, 2]))
    bonus = {e: draw(st.sampled_from([0, 0, 1, -1])) for e in everyone}
    min_groups = draw(st.sampled_from([0, 0, 1, 2]))
    return played, nights, rows, best_of, bonus, min_groups


@SETTINGS
@given(league=leagues())
def test_never_wrong_and_exact_when_it_says_so(league):
    assert_sound(*league)


@SETTINGS
@given(league=leagues(), budget=st.integers(0, 3))
def test_a_spent_budget_still_gives_safe_bounds(league, budget):
    assert_sound(*league, budget=budget)


# -- worked examples ----------------------------------------------------------------------------

WIN_LOSS = rows_for("matches_won", (2,))


def test_the_classic_elimination_case_needs_the_pairings():
    """A leads with 3 wins, B and C have 2 each and play each other, D has 2 and plays A. One
    of B and C must lose; D can beat A to reach 3 with A: D can still win. B and C each can too
    (beat the other, A loses to D: 3-3-2-... level on top). But with a draw between B and C
    (1/2 each), neither reaches 3: not needed, they can still win."""
    played = {1: [1, 1, 1], 2: [1, 1, 0], 3: [1, 1, 0], 4: [1, 1, 0]}
    got = outlook(played, [Night(4, tables=((2, 3), (1, 4)))], rows=WIN_LOSS)
    assert {e: o.status for e, o in got.items()} == dict.fromkeys((1, 2, 3, 4), CAN_WIN)
    assert all(o.exact for o in got.values())


def test_two_chasers_who_play_each_other_cannot_both_catch_the_leader():
    """A has 4, B and C have 3 and meet in the last round (win 1, draw 1/2); A does not play.
    Each of B and C alone can reach 4 (level with A), so each can still win; A can be caught,
    so A has not clinched; at most one catches A, so A's worst rank is 2, not 3."""
    played = {1: [1, 1, 1, 1], 2: [1, 1, 1, 0], 3: [1, 1, 1, 0]}
    got, _truth = assert_sound(played, [Night(5, tables=((2, 3),))], WIN_LOSS)
    assert got[1].status == CAN_WIN and (got[1].best, got[1].worst) == (1, 2)
    assert got[1].ranks_exact
    assert got[2].status == got[3].status == CAN_WIN


def test_clinched_and_cannot():
    """A has 6, B 3, C 1; A plays B, then B plays C (1 point a win). B reaches 5 at most: A
    has clinched. C reaches 2 at most, below B's 3 already: C cannot win, and ends third."""
    played = {1: [6], 2: [3], 3: [1]}
    night = Night(2, tables=((1, 2),))
    got, _truth = assert_sound(played, [night, Night(3, tables=((2, 3),))], WIN_LOSS)
    assert got[1].status == CLINCHED and (got[1].best, got[1].worst) == (1, 1)
    assert got[3].status == CANNOT_WIN and got[3].best == 3 and got[3].exact


def test_best_of_counts_only_the_best_nights():
    """Best night counts (best_of=1) under fair placement: A already has a 100-point night, B
    only 50: B can at best tie A with a win (100), never pass it; A cannot be passed: both
    first places stay possible, A has not clinched (B can tie)."""
    rows = rows_for("fair_placement", (3,))
    played = {1: [100], 2: [50], 3: [0]}
    got, _truth = assert_sound(played, [Night(2, entrants=(1, 2, 3), sizes=(3,))], rows, best_of=1)
    assert got[1].status == CAN_WIN and got[2].status == CAN_WIN
    assert got[3].status == CAN_WIN  # a win gives 100 too, with A absent


def test_unreachable_attendance_means_cannot_and_no_rank():
    played = {1: [], 2: [2, 2]}
    got = outlook(played, [Night(1, tables=((1, 2),))], rows=WIN_LOSS, min_groups=2)
    assert (got[1].status, got[1].best, got[1].worst) == (CANNOT_WIN, None, None)
    assert got[2].status == CLINCHED


def test_a_spent_budget_says_so():
    """Eight players level on 0, two drawn nights of four tables: with no node to search, the
    answer is a bound, flagged with its reason, never a guess."""
    played = {e: [] for e in range(8)}
    tables = ((0, 1), (2, 3), (4, 5), (6, 7))
    second = ((0, 2), (1, 3), (4, 6), (5, 7))
    got = outlook(
        played, [Night(1, tables=tables), Night(2, tables=second)], rows=WIN_LOSS, budget=0
    )
    assert all(o.status == CAN_WIN and not o.exact and o.reason == BUDGET for o in got.values())


def test_undrawn_nights_without_a_witness_say_so():
    """A night not drawn, tables of two paying 2 and 1 (a draw 3/2 each): A has 0, B 3/2 and
    only A and B may come. For A to win, A must play and win (2) with B its only possible
    opponent, who then gets at least 1 (5/2): A cannot win, but the seating tried for nights
    not drawn is no proof, so the answer says it is a bound; brute force agrees it is safe."""
    rows = rows_for("placement", (2,), {2: (2, 1)})
    played = {1: [0], 2: [Fraction(3, 2)]}
    got, truth = assert_sound(played, [Night(2, entrants=(1, 2), sizes=(2,))], rows)
    assert not truth[1][3]
    assert (got[1].status, got[1].exact, got[1].reason) == (CAN_WIN, False, NOT_DRAWN)
    assert got[2].status == CAN_WIN and not got[2].exact  # clinched in truth: not proved


def test_worst_ranks_on_nights_not_drawn():
    """Four players, one night not drawn at tables of two (win 1): D (0) can finish level with
    A, B and C (1 each) only if all of them lose or stay home, and the seating looks for it."""
    played = {1: [1], 2: [1], 3: [1], 4: [0]}
    assert_sound(played, [Night(2, entrants=(1, 2, 3, 4), sizes=(2,))], WIN_LOSS)


def test_bad_points_are_refused():
    with pytest.raises(ValueError, match="unbounded"):
        rows_for("game_score", (2,))
    with pytest.raises(ValueError, match="rise or go below 0"):
        outlook({1: []}, [], rows=rows_for("placement", (3,), {3: (0, 2, 4)}))
    with pytest.raises(ValueError, match="at most"):
        outlook({1: []}, [], rows=rows_for("fair_placement", (8,)))


def test_orders_count_the_weak_orderings():
    assert [len(orders(k)) for k in (1, 2, 3, 4)] == [1, 3, 13, 75]
    assert Fraction(3) == best_n([Fraction(1), Fraction(2)], None)


def test_max_flow_reroutes_what_the_greedy_pass_sent_the_wrong_way():
    """a can go to x or y, b only to x: the greedy pass sends a to x; the augmenting path
    b -> x -> (back from a) -> y gives the maximum, 2."""
    graph = {
        "s": {"a": 1, "b": 1},
        "a": {"x": 1, "y": 1},
        "b": {"x": 1},
        "x": {"t": 1},
        "y": {"t": 1},
    }
    assert max_flow(graph, "s", "t") == 2


def test_a_search_that_ends_empty_proves_it():
    """Best 2 nights count, one drawn table of three paying 4/2/0: A has 0, B and C 7/2. A wins
    (4); B and C get 2 and 0, or share 1 each: whoever gets 2 or 1 passes 4. The search over
    the table's orders ends without a completion: A cannot win, exactly, and ends second at
    best (one of them above)."""
    rows = rows_for("placement", (3,))
    played = {1: [0], 2: [Fraction(7, 2)], 3: [Fraction(7, 2)]}
    got, _truth = assert_sound(played, [Night(1, tables=((1, 2, 3),))], rows, best_of=2)
    assert (got[1].status, got[1].exact, got[1].best) == (CANNOT_WIN, True, 2)


def test_a_rival_who_cannot_come_is_not_level():
    """Ranked from one night: A has played one (0 points), B none; the night left has tables of
    two and only A and B may come. B is ranked only if both come; seating B without A is
    impossible, so A's worst rank stays a bound."""
    played = {1: [0], 2: []}
    got, _truth = assert_sound(
        played, [Night(1, entrants=(1, 2), sizes=(2,))], WIN_LOSS, min_groups=1
    )
    assert got[1].worst == 2


def test_at_its_worst_an_entry_short_of_attendance_comes_to_lose():
    """Ranked from one night played (min_groups=1), tables of two paying 2 and 1: A has played
    none. At its worst A cannot stay home (it would not be ranked at all), so it comes and
    loses, which still pays 1: its worst rank is counted with that point, as brute force does."""
    rows = rows_for("placement", (2,), {2: (2, 1)})
    played = {1: [], 2: [1], 3: [2]}
    got, _truth = assert_sound(
        played, [Night(2, entrants=(1, 2, 3), sizes=(2,))], rows, min_groups=1
    )
    assert got[1].status == CAN_WIN  # a win gives 2, level with C
