"""The competition services on hand-built data: late entries and withdrawn entries.

Games are played through ``scoring.services.record_hand`` with short, valid hand sequences
(tests/tournaments/helpers.py); expected standings are worked out here from the games' final
totals, not by ``tournaments.standings``.
"""

from __future__ import annotations

import pytest

from scoring.services import Actor
from tournaments import selectors, services
from tournaments.models import CompetitionEvent, Entry

from .helpers import byes_of, enter, make_competition, tables_of, terziglio_won_by
from .services_helpers import placement_points, publish_and_finish, row_of

pytestmark = pytest.mark.django_db


def test_an_entry_after_the_first_publication_is_late_and_joins_later_rounds(club, olga):
    competition = make_competition(club, olga, planned_rounds=2)
    enter(competition, olga, 9)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    early = services.add_entry(competition=competition, player="Zeno", by=Actor.for_user(olga))
    assert not early.late
    services.withdraw_entry(entry=early, by=Actor.for_user(olga))
    services.publish_round(round_=first, by=Actor.for_user(olga))
    late = services.add_entry(competition=competition, player="Zoe", by=Actor.for_user(olga))
    assert late.late
    assert CompetitionEvent.objects.get(action="add_entry", data__entry=late.pk).data["late"]
    second = competition.rounds.get(number=2)
    services.generate_round(round_=second, by=Actor.for_user(olga), seed=1)
    seated = [e for t in tables_of(second) for e in t]
    assert late.pk in seated and early.pk not in seated
    assert late.pk not in [e for t in tables_of(first) for e in t]


def test_a_withdrawn_entry_keeps_its_results_and_is_not_seated_again(club, olga):
    competition = make_competition(club, olga, format="swiss")
    entries = enter(competition, olga, 7)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    publish_and_finish(first, olga, lambda table, n: terziglio_won_by(1, n))
    services.close_round(round_=first, by=Actor.for_user(olga))
    winner = tables_of(first)[0][1]
    gone = Entry.objects.get(pk=winner)

    services.withdraw_entry(entry=gone, by=Actor.for_user(olga), reason="left")

    totals = first.tables.get(number=1).game.totals
    row = row_of(selectors.standings_of(competition), gone.pk)
    assert (row["withdrawn"], row["games"]) == (True, 1)
    assert row["points"] == placement_points(totals)[1]
    second = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=second, by=Actor.for_user(olga), seed=1)
    seated = {e for t in tables_of(second) for e in t} | byes_of(second)
    assert seated == {e.pk for e in entries} - {gone.pk}
