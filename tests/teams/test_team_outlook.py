"""Who can still win a league between teams (``tournaments.standings.team_outlook``): checked
against every way the matches left can end, on small leagues (hypothesis), and a worked palio."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from teams.standings.team_outlook import team_outlook
from tournaments.standings.outlook import CAN_WIN, CANNOT_WIN, CLINCHED

POINTS = [(3, 1, 0), (2, 1, 0), (1, 0, 0)]


def truth(points, matches, win, draw, loss):
    """Per team: (can finish first, first alone in every ending, best rank, worst rank), a tie
    counting as first and as the better rank at best, as the worse at worst."""
    teams = sorted(points)
    seen = {t: [False, True, len(teams), 1] for t in teams}
    outcomes = ((win, loss), (loss, win), (draw, draw))
    for ending in product(outcomes, repeat=len(matches)):
        final = dict(points)
        for (home, away), (h, a) in zip(matches, ending, strict=True):
            final[home] += h
            final[away] += a
        for t in teams:
            above = sum(final[u] > final[t] for u in teams)
            level = sum(final[u] == final[t] for u in teams) - 1
            seen[t][0] |= above == 0
            seen[t][1] &= above == 0 and level == 0
            seen[t][2] = min(seen[t][2], 1 + above)
            seen[t][3] = max(seen[t][3], 1 + above + level)
    return seen


@st.composite
def leagues(draw_):
    size = draw_(st.integers(2, 5))
    points = {t: draw_(st.integers(0, 6)) for t in range(size)}
    pairs = [(a, b) for a in range(size) for b in range(size) if a < b]
    matches = draw_(st.lists(st.sampled_from(pairs), min_size=0, max_size=5))
    return points, matches, draw_(st.sampled_from(POINTS))


@settings(deadline=None)
@given(leagues())
def test_never_wrong_and_exact_when_it_says_so(league):
    points, matches, (win, draw, loss) = league
    got = team_outlook(points, matches, win=win, draw=draw, loss=loss)
    for team, (can, clinched, best, worst) in truth(points, matches, win, draw, loss).items():
        o = got[team]
        assert o.status != CANNOT_WIN or not can  # never "cannot" for a team that can
        assert o.status != CLINCHED or clinched
        if o.exact:
            expected = CLINCHED if clinched else CAN_WIN if can else CANNOT_WIN
            assert o.status == expected
        assert o.best <= best and o.worst >= worst  # safe bounds
        if o.ranks_exact:
            assert (o.best, o.worst) == (best, worst)


def test_a_palio_with_one_round_left():
    """Three points a win, one a draw. Borgo 7, Castello 6, Duomo 4, Fonte 0; the last round is
    Borgo–Fonte and Castello–Duomo. Borgo has not clinched (it may draw while Castello wins: 8
    against 9); Castello can still win; Duomo at most 7 against Borgo's 7 at least: level, so it
    can still finish first on points; Fonte cannot (3 at most)."""
    borgo, castello, duomo, fonte = 1, 2, 3, 4
    got = team_outlook(
        {borgo: 7, castello: 6, duomo: 4, fonte: 0},
        [(borgo, fonte), (castello, duomo)],
        win=3,
        draw=1,
        loss=0,
    )
    assert [got[t].status for t in (borgo, castello, duomo, fonte)] == [
        CAN_WIN,
        CAN_WIN,
        CAN_WIN,
        CANNOT_WIN,
    ]
    assert all(o.exact for o in got.values())
    assert (got[fonte].best, got[fonte].worst) == (4, 4)
    assert (got[borgo].best, got[borgo].worst) == (1, 2)


def test_a_team_level_with_nobody_left_to_catch_it_has_clinched():
    got = team_outlook({1: 9, 2: 3, 3: 2}, [(2, 3)], win=3, draw=1, loss=0)
    assert got[1].status == CLINCHED and (got[1].best, got[1].worst) == (1, 1)
    assert got[2].status == CANNOT_WIN and got[3].status == CANNOT_WIN
