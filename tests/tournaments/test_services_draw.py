"""The competition services on hand-built data: one test per format (rotation, round robin,
Briscola pairs, Swiss, knockout, club nights), and a withdrawal redrawing the drafts.

Games are played through ``scoring.services.record_hand`` with short, valid hand sequences
(tests/tournaments/helpers.py); expected standings are worked out here from the games' final
totals, not by ``tournaments.standings``.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from itertools import combinations

import pytest

from scoring.models import Seat
from scoring.rules import RuleViolation
from scoring.services import Actor
from tournaments import scheduling, selectors, services
from tournaments.models import CompetitionEvent

from .helpers import (
    briscola_won_by,
    byes_of,
    codes,
    enter,
    enter_pairs,
    make_competition,
    play,
    tables_of,
    terziglio_in_order,
)
from .services_helpers import publish_and_finish, row_of

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Rotation


@pytest.fixture
def rotation13(club, olga):
    """13 Terziglio players, 4 rounds planned, round 1 added and drawn (seed 7)."""
    competition = make_competition(club, olga, planned_rounds=4)
    entries = enter(competition, olga, 13)
    first = services.add_round(
        competition=competition,
        by=Actor.for_user(olga),
        date=dt.date(2026, 4, 11),
        start_time=dt.time(15, 30),
    )
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=7)
    return competition, entries


def test_rotation_of_13_terziglio_players_plans_every_draft_round_at_tables_of_3_and_4(
    rotation13,
):
    competition, entries = rotation13
    rounds = list(competition.rounds.order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3, 4]
    assert {r.status for r in rounds} == {"draft"}
    # New rounds of the day follow each other: each starts when the one before should end.
    assert [(r.date, r.start_time) for r in rounds] == [
        (dt.date(2026, 4, 11), dt.time(15, 30)),
        (dt.date(2026, 4, 11), dt.time(17, 0)),
        (dt.date(2026, 4, 11), dt.time(18, 30)),
        (dt.date(2026, 4, 11), dt.time(20, 0)),
    ]
    everyone = sorted(e.pk for e in entries)
    for round_ in rounds:
        tables = tables_of(round_)
        assert sorted(len(t) for t in tables) == [3, 3, 3, 4]
        assert sorted(e for t in tables for e in t) == everyone
        assert not byes_of(round_)
        assert round_.method == "rotation" and round_.seed == 7
        assert set(round_.metrics) >= {"repeated_pairs", "max_meetings", "perfect", "method"}
    # The stored figures are those of the four rounds together.
    measured = scheduling.measure(
        [scheduling.Round(tuple(tables_of(r))) for r in rounds], everyone, sitting_out=4
    )
    assert rounds[0].metrics["repeated_pairs"] == measured.repeated_pairs
    assert rounds[0].metrics["max_meetings"] == measured.max_meetings
    # Drawing again with the same seed gives the same tables.
    before = [tables_of(r) for r in rounds]
    services.generate_round(round_=rounds[2], by=Actor.system(), seed=7)
    assert [tables_of(r) for r in competition.rounds.order_by("number")] == before


def test_a_withdrawal_redraws_the_drafts_and_keeps_the_published_rounds(rotation13, olga):
    competition, entries = rotation13
    first = competition.rounds.get(number=1)
    services.publish_round(round_=first, by=Actor.for_user(olga))
    played = tables_of(first)
    games = list(first.tables.values_list("game_id", flat=True))
    gone = entries[4]

    services.withdraw_entry(entry=gone, by=Actor.for_user(olga), reason="moved away")

    gone.refresh_from_db()
    assert gone.status == "withdrawn" and gone.withdrawn_at is not None
    first.refresh_from_db()
    assert tables_of(first) == played
    assert list(first.tables.values_list("game_id", flat=True)) == games
    rest = sorted(e.pk for e in entries if e != gone)
    for round_ in competition.rounds.filter(number__gt=1):
        tables = tables_of(round_)
        assert sorted(len(t) for t in tables) == [3, 3, 3, 3]
        assert sorted(e for t in tables for e in t) == rest
    event = CompetitionEvent.objects.filter(action="withdraw_entry").get()
    assert (event.reason, event.data["entry"]) == ("moved away", gone.pk)


# ---------------------------------------------------------------------------------------------
# Round robin, pairs, Swiss, knockout, club nights


def meetings_in(rounds) -> Counter:
    return Counter(
        frozenset(pair) for r in rounds for t in tables_of(r) for pair in combinations(t, 2)
    )


@pytest.mark.parametrize("count", [4, 5])
def test_round_robin_of_briscola_singles_meets_every_pair_once(club, olga, count):
    competition = make_competition(club, olga, rulesets=["briscola"], format="round_robin")
    entries = enter(competition, olga, count, seeded=True)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    rounds = list(competition.rounds.order_by("number"))
    ids = [e.pk for e in entries]
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    met = meetings_in(rounds)
    assert met == Counter(frozenset(p) for p in combinations(ids, 2))
    assert all(len(t) == 2 for r in rounds for t in tables_of(r))
    byes = Counter(e for r in rounds for e in byes_of(r))
    if count % 2:
        assert byes == Counter(ids)  # one bye each, one per round
        assert all(len(byes_of(r)) == 1 for r in rounds)
    else:
        assert not byes
    assert {r.method for r in rounds} == {"round_robin"}


def test_briscola_pairs_sit_partners_opposite(club, olga):
    competition = make_competition(
        club,
        olga,
        rulesets=["briscola"],
        options={"briscola": {"format": "pairs", "hands_to_win": 1}},
    )
    assert competition.pairs
    with pytest.raises(RuleViolation) as error:
        services.add_entry(competition=competition, player="Solo", by=Actor.for_user(olga))
    assert codes(error.value) == {("partner", "required")}
    pairs = enter_pairs(competition, olga, 4)
    assert pairs[0].name == "Anna & Bruno"
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=round_, by=Actor.for_user(olga), seed=3)
    tables = tables_of(round_)
    assert sorted(len(t) for t in tables) == [2, 2]
    services.publish_round(round_=round_, by=Actor.for_user(olga))
    by_id = {e.pk: e for e in pairs}
    for table in round_.tables.select_related("game"):
        first, second = (by_id[e] for e in tables_of(round_)[table.number - 1])
        seats = list(
            Seat.objects.filter(game=table.game).order_by("index").values_list("player_id", "side")
        )
        assert seats == [
            (first.player_id, 0),
            (second.player_id, 1),
            (first.partner_id, 0),
            (second.partner_id, 1),
        ]
        assert table.game.options["format"] == "pairs"
        play(table.game, briscola_won_by(1, 4, 1), olga)  # the second pair wins
    data = selectors.standings_of(competition)
    winners = {t[1] for t in tables}
    for entry in pairs:
        row = row_of(data, entry.pk)
        assert row["name"] == entry.name
        assert row["points"] == (2 if entry.pk in winners else 0)
        assert row["games"] == 1


def test_swiss_groups_the_next_round_by_standing_and_avoids_repeats(club, olga):
    competition = make_competition(club, olga, format="swiss")
    entries = enter(competition, olga, 9)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=5)
    assert sorted(len(t) for t in tables_of(first)) == [3, 3, 3]
    # At every table seat 0 wins, seat 1 is second, seat 2 last.
    publish_and_finish(first, olga, lambda table, n: terziglio_in_order([0, 1, 2]))
    services.close_round(round_=first, by=Actor.for_user(olga))
    placed = [list(group) for group in zip(*tables_of(first), strict=True)]

    second = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=second, by=Actor.for_user(olga), seed=5)

    assert second.method == "swiss"
    assert sorted(map(sorted, tables_of(second))) == sorted(map(sorted, placed))
    assert max(meetings_in([first, second]).values()) == 1
    assert second.metrics["repeated_pairs"] == 0
    assert len(entries) == 9


def test_knockout_of_8_seeds_the_bracket_and_seats_the_winners_next(club, olga):
    competition = make_competition(
        club,
        olga,
        rulesets=["briscola"],
        format="knockout",
        options={"briscola": {"hands_to_win": 1}},
    )
    seeds = {e.seed: e.pk for e in enter(competition, olga, 8, seeded=True)}
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    second = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga))
    assert tables_of(first) == [
        (seeds[1], seeds[8]),
        (seeds[4], seeds[5]),
        (seeds[2], seeds[7]),
        (seeds[3], seeds[6]),
    ]
    assert first.metrics["matches"] == [1, 2, 3, 4]
    services.publish_round(round_=first, by=Actor.for_user(olga))
    with pytest.raises(RuleViolation) as error:
        services.generate_round(round_=second, by=Actor.for_user(olga))
    assert codes(error.value) == {("round", "not_allowed")}
    # The home side wins, except at table 2 where seed 5 beats seed 4.
    for table in first.tables.select_related("game"):
        play(table.game, briscola_won_by(1 if table.number == 2 else 0, 2, 1), olga)
    services.close_round(round_=first, by=Actor.for_user(olga))
    services.generate_round(round_=second, by=Actor.for_user(olga))
    assert tables_of(second) == [(seeds[1], seeds[5]), (seeds[2], seeds[3])]
    assert second.metrics["matches"] == [5, 6]


def test_knockout_of_6_gives_the_top_two_seeds_a_bye(club, olga):
    competition = make_competition(
        club,
        olga,
        rulesets=["briscola"],
        format="knockout",
        options={"briscola": {"hands_to_win": 1}},
    )
    seeds = {e.seed: e.pk for e in enter(competition, olga, 6, seeded=True)}
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    second = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga))
    assert tables_of(first) == [(seeds[4], seeds[5]), (seeds[3], seeds[6])]
    assert first.bracket["byes"] == [seeds[1], seeds[2]]
    publish_and_finish(first, olga, lambda table, n: briscola_won_by(0, n, 1))
    services.close_round(round_=first, by=Actor.for_user(olga))
    services.generate_round(round_=second, by=Actor.for_user(olga))
    assert tables_of(second) == [(seeds[1], seeds[4]), (seeds[2], seeds[3])]


def test_knockout_byes_are_recorded_as_byes_of_the_first_round(club, olga):
    competition = make_competition(club, olga, rulesets=["briscola"], format="knockout")
    seeds = {e.seed: e.pk for e in enter(competition, olga, 6, seeded=True)}
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga))
    assert byes_of(first) == {seeds[1], seeds[2]}


def test_a_club_night_seats_only_those_checked_in(club, olga):
    competition = make_competition(club, olga, kind="league", format="club_night")
    entries = enter(competition, olga, 8)
    night = services.add_round(competition=competition, by=Actor.for_user(olga))
    present = [e.pk for e in entries[:6]]
    assert services.set_check_ins(round_=night, entries=present, by=Actor.for_user(olga)) == (
        sorted(present)
    )
    services.generate_round(round_=night, by=Actor.for_user(olga), seed=2)
    tables = tables_of(night)
    assert sorted(len(t) for t in tables) == [3, 3]
    assert sorted(e for t in tables for e in t) == sorted(present)
    assert not byes_of(night)
    # Checking in again replaces the list; unknown or withdrawn entries are refused.
    services.set_check_ins(round_=night, entries=present[:5], by=Actor.for_user(olga))
    assert set(night.check_ins.values_list("entry_id", flat=True)) == set(present[:5])
    services.withdraw_entry(entry=entries[7], by=Actor.for_user(olga))
    with pytest.raises(RuleViolation) as error:
        services.set_check_ins(
            round_=night, entries=[present[0], entries[7].pk, 10**6], by=Actor.for_user(olga)
        )
    assert codes(error.value) == {("entries", "not_found")}
    # Nobody checked in: every active entry is seated.
    services.set_check_ins(round_=night, entries=[], by=Actor.for_user(olga))
    services.generate_round(round_=night, by=Actor.for_user(olga), seed=2)
    assert sorted(e for t in tables_of(night) for e in t) == sorted(e.pk for e in entries[:7])
