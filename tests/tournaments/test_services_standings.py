"""The competition services on hand-built data: standings through the selector and the
snapshot.

Games are played through ``scoring.services.record_hand`` with short, valid hand sequences
(tests/tournaments/helpers.py); expected standings are worked out here from the games' final
totals, not by ``tournaments.standings``.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import pytest

from scoring import services as scoring
from scoring.services import Actor
from tournaments import selectors, services
from tournaments.models import Bye, StandingsSnapshot, Table

from .helpers import enter, make_competition, tables_of, terziglio_in_order, terziglio_won_by
from .services_helpers import placement_points, publish_and_finish, row_of

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Standings through the selector and the snapshot


def test_best_of_and_minimum_attendance(club, olga):
    """A league of three nights counting each player's best two, ranked from two nights on.
    The expected points are worked out from the games' final totals."""
    competition = make_competition(
        club, olga, kind="league", format="club_night", best_of=2, min_rounds=2
    )
    entries = enter(competition, olga, 7)
    regulars, newcomer = entries[:6], entries[6]
    nightly: dict[int, list[Fraction]] = defaultdict(list)
    for night_number in (1, 2, 3):
        night = services.add_round(competition=competition, by=Actor.for_user(olga))
        present = regulars + ([newcomer] if night_number == 3 else [])
        services.set_check_ins(round_=night, entries=present, by=Actor.for_user(olga))
        services.generate_round(round_=night, by=Actor.for_user(olga), seed=night_number)
        night = publish_and_finish(
            night, olga, lambda table, n, k=night_number: terziglio_won_by(1 + (k + table.number) % (n - 1), n)
        )  # fmt: skip
        for table in night.tables.select_related("game"):
            seated = tables_of(night)[table.number - 1]
            for entry, points in zip(seated, placement_points(table.game.totals), strict=True):
                nightly[entry].append(points)
        services.close_round(round_=night, by=Actor.for_user(olga))

    data = selectors.standings_of(competition)

    rows = data["tables"][0]["rows"]
    for entry in entries:
        row = row_of(data, entry.pk)
        expected = sum(sorted(nightly[entry.pk], reverse=True)[:2])
        assert Fraction(row["points"]).limit_denominator(100) == expected, entry.name
        assert row["rounds"] == len(nightly[entry.pk])
        assert row["ranked"] is (len(nightly[entry.pk]) >= 2)
    assert rows[-1]["entry"] == newcomer.pk and rows[-1]["rank"] is None
    ranked = [r for r in rows if r["ranked"]]
    assert [r["points"] for r in ranked] == sorted((r["points"] for r in ranked), reverse=True)
    assert data["games_counted"] == 2 + 2 + 2


def test_a_correction_in_a_finished_game_moves_the_standings_through_the_snapshot(
    club, olga, django_capture_on_commit_callbacks
):
    competition = make_competition(club, olga, planned_rounds=1)
    entries = enter(competition, olga, 3)
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=round_, by=Actor.for_user(olga), seed=1)
    round_ = publish_and_finish(round_, olga, lambda table, n: terziglio_in_order([0, 1, 2]))
    services.close_round(round_=round_, by=Actor.for_user(olga))
    seated = tables_of(round_)[0]
    services.store_standings(competition=competition)
    snapshot = StandingsSnapshot.objects.get(competition=competition)
    assert snapshot.version == 1
    assert [r["entry"] for r in snapshot.data["tables"][0]["rows"]] == list(seated)
    game = round_.tables.get().game
    # The round is closed: its game is locked until an organizer reopens it.
    scoring.reopen_game(game=game, by=Actor.for_user(olga), reason="soloist mixed up")

    # Hand 2 was the scegliete of seat 0: it was seat 1's in fact.
    with django_capture_on_commit_callbacks(execute=True):
        scoring.correct_hand(
            game=game,
            number=2,
            document={**terziglio_in_order([0, 1, 2])[1], "soloist": 1},
            by=Actor.for_user(olga),
            reason="wrong soloist",
        )

    snapshot.refresh_from_db()
    assert snapshot.version == 2
    rows = snapshot.data["tables"][0]["rows"]
    assert [(r["entry"], r["rank"], r["points"]) for r in rows] == [
        (seated[1], 1, 4),
        (seated[0], 2, 2),
        (seated[2], 3, 0),
    ]
    assert {e.pk for e in entries} == set(seated)
    # Nothing changed: the version stays.
    services.store_standings(competition=competition)
    snapshot.refresh_from_db()
    assert snapshot.version == 2


def test_standings_of_reads_a_fixed_number_of_queries(club, olga, django_assert_num_queries):
    competition = make_competition(club, olga, planned_rounds=2)
    enter(competition, olga, 6)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    for round_ in competition.rounds.order_by("number"):
        publish_and_finish(round_, olga, lambda table, n: terziglio_in_order([2, 0, 1]))
    competition = type(competition).objects.get(pk=competition.pk)
    with django_assert_num_queries(4):
        data = selectors.standings_of(competition)
    assert data["games_counted"] == 4
    assert Table.objects.filter(round__competition=competition).count() == 4
    assert Bye.objects.count() == 0
