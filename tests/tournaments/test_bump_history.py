"""Standings over the rounds (issue 35, point 1): the ranks the bump chart draws after each round
equal the live standings as they were recomputed right after that round, for a Swiss, a league
where only the best nights count with a late entrant, and a Swiss cut to a knockout. The chart's
heights are read back into ranks, so a chart that drew the wrong rank would fail too."""

from __future__ import annotations

import random

import pytest

from scoring.services import Actor
from tests.tournaments.helpers import briscola_won_by, enter, make_competition, play
from tournaments import selectors, services
from tournaments.models import Entry, Format
from tournaments.presenters.bump import bump_chart, rank_moves

from .test_swiss_cut import play_round, swiss_of_eight

pytestmark = pytest.mark.django_db


def live_ranks(competition) -> dict[int, int]:
    """The ranked entries of the live standings (computed afresh), entry -> rank."""
    rows = selectors.standings_of(competition, outlook=False)["tables"][0]["rows"]
    return {r["entry"]: r["rank"] for r in rows if r["ranked"] and r["rank"] is not None}


def drawn_ranks(competition) -> dict[int, dict[int, int]]:
    """round -> {entry: rank} as the chart draws them: each point's height read back as a rank."""
    chart = bump_chart(selectors.standings_history(competition), best_of=competition.best_of)
    drawn: dict[int, dict[int, int]] = {c["number"]: {} for c in chart["columns"]}
    x_to_round = {c["x"]: c["number"] for c in chart["columns"]}
    for line in chart["lines"]:
        for point in line["points"]:
            rank = round((point["y"] - chart["top"]) / chart["gap"]) + 1
            assert rank == point["rank"]
            drawn[x_to_round[point["x"]]][line["entry"]] = rank
    return drawn


def next_round(competition, user, upset=()):
    """A round drawn (seed 1: the same pairings every run), published, played and closed; the
    stronger player wins (``test_swiss_cut.STRENGTH``) but for the names in ``upset``."""
    round_ = services.add_round(competition=competition, by=Actor.for_user(user))
    services.generate_round(round_=round_, by=Actor.for_user(user), seed=1)
    play_round(round_, user, upset)
    return round_


def play_night(competition, user, rng):
    """Draw, publish, play (a random winner at every table) and close a night of Briscola."""
    by = Actor.for_user(user)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    for table in round_.tables.select_related("game").order_by("number"):
        play(table.game, briscola_won_by(rng.randrange(2), 2, 1), user)
    services.close_round(round_=round_, by=by)
    return round_


def test_a_swiss_chart_draws_the_standings_of_every_round(club, olga):
    competition = swiss_of_eight(club, olga, cut_to=None, planned_rounds=4)
    live = {}
    for upset in ([], ["Bruno"], ["Anna", "Elena"], ["Carla"]):
        number = next_round(competition, olga, upset=upset).number
        live[number] = live_ranks(competition)
    assert drawn_ranks(competition) == live
    # The API's ?after_round=N and the selector answer the same ranks.
    for number, ranks in live.items():
        rows = selectors.standings_after(competition, number)["tables"][0]["rows"]
        assert {r["entry"]: r["rank"] for r in rows if r["ranked"]} == ranks


def test_a_best_of_league_with_a_late_entrant_and_shared_ranks(club, olga):
    rng = random.Random(7)
    competition = make_competition(
        club, olga, name="Lega", kind="league", format=Format.CLUB_NIGHT, rulesets=["briscola"],
        table_size=2, planned_rounds=4, scheme="matches_won", best_of=2,
        options={"briscola": {"hands_to_win": 1}},
    )  # fmt: skip
    enter(competition, olga, 4)
    live = {1: None}
    play_night(competition, olga, rng)
    live[1] = live_ranks(competition)
    late = services.add_entry(competition=competition, player="Zeno", by=Actor.for_user(olga))
    services.add_entry(competition=competition, player="Yuri", by=Actor.for_user(olga))
    assert late.late
    for number in (2, 3, 4):
        play_night(competition, olga, rng)
        live[number] = live_ranks(competition)
    drawn = drawn_ranks(competition)
    assert drawn == live
    # The late entrant starts where it entered: no point after the first night.
    assert late.pk not in drawn[1] and late.pk in drawn[2]
    # Wins of one point each, four or six players: ranks are shared somewhere.
    assert any(len(set(r.values())) < len(r) for r in drawn.values())
    chart = bump_chart(selectors.standings_history(competition), best_of=2)
    tied = [p for line in chart["lines"] for p in line["points"] if p["tied"]]
    assert tied and all(
        sum(1 for q in drawn[p["round"]].values() if q == p["rank"]) > 1 for p in tied
    )
    # Each night played is marked counted or dropped as the final standings count it.
    final = selectors.standings_of(competition)["tables"][0]["rows"]
    counted = {(r["entry"], n): c for r in final for n, _p, c in r["nights"]}
    marks = {
        (line["entry"], p["round"]): p["counted"]
        for line in chart["lines"]
        for p in line["points"]
        if p["counted"] is not None
    }
    assert marks == {key: c for key, c in counted.items() if key in marks}
    assert set(marks) == set(counted) and False in marks.values() and True in marks.values()


def test_a_swiss_cut_to_a_knockout_ranks_by_the_bracket_once_it_is_played(club, olga):
    competition = swiss_of_eight(club, olga, third_place=True)
    live = {}
    for upset in ([], ["Dario"], []):
        number = next_round(competition, olga, upset=upset).number
        live[number] = live_ranks(competition)
    fourth = next(e for e, rank in sorted(live[3].items(), key=lambda i: i[1]) if rank == 4)
    semis = next_round(competition, olga, upset=[Entry.objects.get(pk=fourth).name])
    live[semis.number] = live_ranks(competition)
    final = next_round(competition, olga, upset=[])
    live[final.number] = live_ranks(competition)
    drawn = drawn_ranks(competition)
    assert drawn == live
    assert drawn[final.number] != drawn[3]  # the bracket reordered the Swiss ranks


def test_the_arrows_are_the_places_gained_since_the_round_before(club, olga):
    competition = swiss_of_eight(club, olga, cut_to=None, planned_rounds=3)
    next_round(competition, olga)
    next_round(competition, olga, upset=["Anna", "Bruno"])
    before, now = live_ranks(competition), None
    next_round(competition, olga, upset=["Carla"])
    now = live_ranks(competition)
    moves = rank_moves(selectors.standings_history(competition))
    assert moves == {e: before[e] - rank for e, rank in now.items()}
    assert any(m > 0 for m in moves.values()) and any(m < 0 for m in moves.values())


def test_one_round_played_draws_no_chart(club, olga):
    competition = swiss_of_eight(club, olga, cut_to=None, planned_rounds=3)
    next_round(competition, olga)
    assert bump_chart(selectors.standings_history(competition)) is None
    assert rank_moves(selectors.standings_history(competition)) == {}
