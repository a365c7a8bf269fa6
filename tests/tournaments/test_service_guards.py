"""The competition services refuse what an organizer should not be able to do, and keep the
cached standings, the schedule and the knockout bracket right through the less common moves:
forfeits, withdrawals, late entries, cleared dates, club nights drawn by standing."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services import queue
from tests.builders import by
from tests.tournaments.helpers import (
    briscola_won_by,
    byes_of,
    codes,
    enter,
    make_competition,
    play,
    tables_of,
    terziglio_won_by,
)
from tournaments import selectors, services, tasks
from tournaments.models import Entry, StandingsSnapshot, Table

pytestmark = pytest.mark.django_db


def refused(call, **kwargs) -> set[tuple[str, str]]:
    with pytest.raises(RuleViolation) as error:
        call(**kwargs)
    return codes(error.value)


def cached_rows(competition) -> dict[int, dict]:
    data = StandingsSnapshot.objects.get(competition=competition).data
    return {row["entry"]: row for row in data["tables"][0]["rows"]}


# ---------------------------------------------------------------------------------------------
# Creating competitions and entries


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"name": "x" * 121}, {("name", "range")}),
        ({"options": ["terziglio"]}, {("options", "type")}),
        ({"options": {"terziglio": 31}}, {("options.terziglio", "type")}),
    ],
    ids=["name-too-long", "options-not-an-object", "house-rules-not-an-object"],
)
def test_create_competition_refuses_malformed_fields(club, olga, fields, expected):
    assert refused(make_competition, club=club, user=olga, **fields) == expected
    assert not club.competitions.exists()


def test_a_partner_is_refused_outside_pairs_and_seeds_stay_in_range(club, olga):
    competition = make_competition(club, olga)
    assert refused(
        services.add_entry, competition=competition, player="Anna", partner="Bruno", by=by(olga)
    ) == {("partner", "not_allowed")}
    for seed in (0, 40_000, True, "3"):
        assert refused(
            services.add_entry, competition=competition, player="Anna", seed=seed, by=by(olga)
        ) == {("seed", "range")}
    assert not competition.entries.exists()


def test_unseeded_entries_come_after_the_seeded_ones(club, olga):
    competition = make_competition(club, olga)
    unseeded = services.add_entry(competition=competition, player="Anna", by=by(olga))
    second = services.add_entry(competition=competition, player="Bruno", seed=2, by=by(olga))
    first = services.add_entry(competition=competition, player="Carla", seed=1, by=by(olga))
    expected = [first.pk, second.pk, unseeded.pk]
    assert [e.pk for e in Entry.objects.filter(competition=competition)] == expected
    assert [e.pk for e in selectors.entries_of(competition)] == expected


def test_entries_and_withdrawals_refresh_the_cached_standings(
    club, olga, django_capture_on_commit_callbacks
):
    competition = make_competition(club, olga)
    with django_capture_on_commit_callbacks(execute=True):
        anna = services.add_entry(competition=competition, player="Anna", by=by(olga))
    assert set(cached_rows(competition)) == {anna.pk}
    with django_capture_on_commit_callbacks(execute=True):
        bruno = services.add_entry(competition=competition, player="Bruno", by=by(olga))
    assert set(cached_rows(competition)) == {anna.pk, bruno.pk}
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw_entry(entry=anna, by=by(olga), reason="moved away")
    # Withdrawn before the start: no row (issue 32, point 8; test_withdrawn_before_start.py).
    assert set(cached_rows(competition)) == {bruno.pk}
    anna.refresh_from_db()
    assert refused(services.withdraw_entry, entry=anna, by=by(olga)) == {("entry", "not_allowed")}


def test_a_withdrawal_the_draft_cannot_absorb_changes_nothing(club, olga):
    competition = make_competition(club, olga, planned_rounds=2)
    entries = enter(competition, olga, 3)
    services.add_round(competition=competition, by=by(olga))
    first = competition.rounds.get(number=1)
    services.generate_round(round_=first, by=by(olga), seed=3)
    before = {r.number: tables_of(r) for r in competition.rounds.all()}
    # Two players cannot sit at a Terziglio table: the redraw fails and the entry stays.
    assert refused(services.withdraw_entry, entry=entries[0], by=by(olga)) == {("entries", "range")}
    entries[0].refresh_from_db()
    assert entries[0].status == "active"
    assert {r.number: tables_of(r) for r in competition.rounds.all()} == before


# ---------------------------------------------------------------------------------------------
# Rounds: dates, check-ins, club nights


def test_update_round_keeps_what_is_left_out_and_clears_what_is_emptied(club, olga):
    competition = make_competition(club, olga)
    round_ = services.add_round(
        competition=competition, by=by(olga), date=dt.date(2026, 5, 2), start_time=dt.time(21)
    )
    services.update_round(round_=round_, by=by(olga), duration_minutes=120)
    round_.refresh_from_db()
    assert (round_.date, round_.start_time, round_.duration_minutes) == (
        dt.date(2026, 5, 2),
        dt.time(21),
        120,
    )
    services.update_round(round_=round_, by=by(olga), start_time=None)
    round_.refresh_from_db()
    assert (round_.date, round_.start_time) == (dt.date(2026, 5, 2), None)
    assert refused(services.update_round, round_=round_, by=by(olga), date="tomorrow") == {
        ("date", "type")
    }
    assert refused(services.update_round, round_=round_, by=by(olga), duration_minutes=True) == {
        ("duration_minutes", "range")
    }


def test_a_league_meets_weekly_and_a_late_round_moves_to_the_next_morning(club, olga):
    league = make_competition(club, olga, name="Lega", kind="league", format="club_night")
    night = services.add_round(
        competition=league, by=by(olga), date=dt.date(2026, 11, 3), start_time=dt.time(21)
    )
    assert services.next_slot(league, night) == (dt.date(2026, 11, 10), dt.time(21))
    tournament = make_competition(club, olga, name="Notte")
    late = services.add_round(
        competition=tournament,
        by=by(olga),
        date=dt.date(2026, 11, 7),
        start_time=dt.time(23),
        duration_minutes=90,
    )
    assert services.next_slot(tournament, late) == (dt.date(2026, 11, 8), dt.time(23))
    untimed = services.add_round(competition=tournament, by=by(olga), date=dt.date(2026, 11, 7))
    assert services.next_slot(tournament, untimed) == (dt.date(2026, 11, 7), None)
    assert services.next_slot(tournament, None) == (None, None)


def test_check_ins_refuse_values_that_are_not_entry_numbers(club, olga):
    competition = make_competition(club, olga, kind="league", format="club_night")
    entries = enter(competition, olga, 3)
    night = services.add_round(competition=competition, by=by(olga))
    assert refused(
        services.set_check_ins, round_=night, entries=[entries[0].pk, "abc"], by=by(olga)
    ) == {("entries[1]", "type")}
    assert not night.check_ins.exists()
    assert services.set_check_ins(
        round_=night, entries=[str(e.pk) for e in entries], by=by(olga)
    ) == sorted(e.pk for e in entries)


def test_a_club_night_can_be_drawn_by_standing(club, olga):
    competition = make_competition(club, olga, kind="league", format="club_night")
    entries = enter(competition, olga, 6)
    first = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=first, by=by(olga), seed=1)
    services.publish_round(round_=first, by=by(olga))
    for table in first.tables.select_related("game"):
        play(table.game, terziglio_won_by(1, 3), olga)
    services.close_round(round_=first, by=by(olga))
    winners = {tables_of(first)[0][1], tables_of(first)[1][1]}
    second = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=second, by=by(olga), seed=1, method="standing")
    second.refresh_from_db()
    assert second.method == "standing"
    # The two winners of the first night (4 points each) now sit at the same table.
    assert any(winners <= set(table) for table in tables_of(second))
    assert sorted(e for t in tables_of(second) for e in t) == sorted(e.pk for e in entries)
    # Drawn again without saying how: the same way as last time.
    services.generate_round(round_=second, by=by(olga), seed=2)
    second.refresh_from_db()
    assert second.method == "standing"
    assert refused(services.generate_round, round_=second, by=by(olga), method="alphabetical") == {
        ("method", "choice")
    }
    rotation = make_competition(club, olga, name="Giro")
    enter(rotation, olga, 3)
    round_ = services.add_round(competition=rotation, by=by(olga))
    assert refused(services.generate_round, round_=round_, by=by(olga), method="standing") == {
        ("method", "choice")
    }


# ---------------------------------------------------------------------------------------------
# Forfeits and the knockout


@pytest.fixture
def published(club, olga):
    competition = make_competition(club, olga, planned_rounds=1)
    enter(competition, olga, 6)
    round_ = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=round_, by=by(olga), seed=1)
    services.publish_round(round_=round_, by=by(olga))
    return round_


def test_a_forfeit_is_refused_where_nothing_is_left_to_settle(published, olga):
    first, second = published.tables.select_related("game").order_by("number")
    play(first.game, terziglio_won_by(1, 3), olga)
    first.refresh_from_db()
    assert refused(services.forfeit_table, table=first, by=by(olga), reason="late") == {
        ("table", "not_allowed")
    }
    for points in ({"x": 1}, ["1"], {str(second.seats.first().entry_id): "many"}):
        code = refused(
            services.forfeit_table, table=second, by=by(olga), reason="ill", points=points
        )
        assert len(code) == 1 and next(iter(code))[1] == "type"
    second.refresh_from_db()
    assert not second.forfeited and Game.objects.get(pk=second.game_id).status == "in_progress"
    services.forfeit_table(table=second, by=by(olga), reason="ill")
    second.refresh_from_db()
    assert refused(services.forfeit_table, table=second, by=by(olga), reason="again") == {
        ("table", "not_allowed")
    }
    services.close_round(round_=published, by=by(olga))
    first = Table.objects.select_related("round__competition").get(pk=first.pk)
    assert refused(services.forfeit_table, table=first, by=by(olga), reason="late") == {
        ("round", "not_allowed")
    }


def test_a_forfeited_knockout_match_sends_through_the_entry_given_more_points(club, olga):
    competition = make_competition(
        club,
        olga,
        rulesets=["briscola"],
        format="knockout",
        options={"briscola": {"hands_to_win": 1}},
    )
    seeds = {e.seed: e.pk for e in enter(competition, olga, 4, seeded=True)}
    first = services.add_round(competition=competition, by=by(olga))
    second = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=first, by=by(olga))
    assert tables_of(first) == [(seeds[1], seeds[4]), (seeds[2], seeds[3])]
    services.publish_round(round_=first, by=by(olga))
    one, two = first.tables.select_related("game").order_by("number")
    play(one.game, briscola_won_by(0, 2, 1), olga)
    # Nobody named to go through, or a tie: refused.
    for points in (None, {seeds[2]: 1, seeds[3]: 1}):
        assert refused(
            services.forfeit_table, table=two, by=by(olga), reason="no show", points=points
        ) == {("points", "required")}
    services.forfeit_table(
        table=two, by=by(olga), reason="seed 2 did not come", points={seeds[3]: 1}
    )
    services.close_round(round_=first, by=by(olga))
    services.generate_round(round_=second, by=by(olga))
    assert tables_of(second) == [(seeds[1], seeds[3])]


def test_knockout_byes_sit_out_the_first_round_only(club, olga):
    competition = make_competition(
        club,
        olga,
        rulesets=["briscola"],
        format="knockout",
        options={"briscola": {"hands_to_win": 1}},
    )
    seeds = {e.seed: e.pk for e in enter(competition, olga, 3, seeded=True)}
    first = services.add_round(competition=competition, by=by(olga))
    second = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=first, by=by(olga))
    assert tables_of(first) == [(seeds[2], seeds[3])]
    assert byes_of(first) == {seeds[1]}
    assert first.metrics["byes_per_player"]
    services.publish_round(round_=first, by=by(olga))
    (table,) = first.tables.select_related("game")
    play(table.game, briscola_won_by(1, 2, 1), olga)
    services.close_round(round_=first, by=by(olga))
    services.generate_round(round_=second, by=by(olga))
    assert tables_of(second) == [(seeds[1], seeds[3])]
    assert byes_of(second) == set()


# ---------------------------------------------------------------------------------------------
# Standings follow finished games only


def test_standings_are_recomputed_when_a_game_finishes_not_at_every_hand(
    published, olga, monkeypatch, django_capture_on_commit_callbacks
):
    calls = []
    sent = queue.enqueue

    def enqueue(task, *args):
        if getattr(task, "name", task) == tasks.recompute_standings_for_game.name:
            calls.extend(args)
        else:
            sent(task, *args)

    monkeypatch.setattr(queue, "enqueue", enqueue)
    table = published.tables.select_related("game").order_by("number").first()
    game = table.game
    with django_capture_on_commit_callbacks(execute=True):
        play(game, [{"dealer": 0, "outcome": "passed_out"}], olga)
    assert calls == []
    with django_capture_on_commit_callbacks(execute=True):
        play(game, terziglio_won_by(0, 3), olga)
    assert calls == [game.pk]


# ---------------------------------------------------------------------------------------------
# Who may follow the games


@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
def test_a_public_competition_of_a_private_club_shows_its_games_live(club, olga, client, public):
    assert not club.results_public
    competition = make_competition(club, olga, planned_rounds=1, public=public)
    enter(competition, olga, 3)
    round_ = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=round_, by=by(olga), seed=1)
    services.publish_round(round_=round_, by=by(olga))
    game = round_.tables.get().game
    play(game, [{"dealer": 0, "outcome": "passed_out"}], olga)
    assert client.get(f"/g/{game.pk}/").status_code == (200 if public else 404)
    page = client.get(f"/p/{club.slug}/{competition.slug}/rounds/1/")
    assert page.status_code == (200 if public else 404)
    if public:
        assert f'href="/g/{game.pk}/"' in page.content.decode()
