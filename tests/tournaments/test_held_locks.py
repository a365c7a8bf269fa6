"""Each check-then-act service of a published round, run while a hand of one of its games is
being entered from another connection (its game's row locked, the hand inserted, not yet
committed: ``tests.held_lock``). The service must wait for that hand and decide on it: never a
game abandoned or reseated under a hand the phone was told was stored (issue 33, point 1)."""

from __future__ import annotations

import pytest

from scoring import services as scoring
from scoring.models import Game, GameStatus, Hand, LockReason
from scoring.services import Actor
from tests.held_lock import while_held
from tests.tournaments.helpers import enter, make_competition, play, terziglio_won_by
from tournaments import services
from tournaments.models import (
    Competition,
    Entry,
    EntryStatus,
    Round,
    RoundStatus,
    Table,
    TableSeat,
)

pytestmark = pytest.mark.django_db(transaction=True)

HAND = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "solo", "soloist_points": 7}


@pytest.fixture
def by(olga):
    return Actor.for_user(olga)


@pytest.fixture
def published(club, olga, by):
    """Two tables of three playing Terziglio, no hand yet."""
    competition = make_competition(club, olga, kind="league", format="club_night")
    enter(competition, olga, 6)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    return round_


def a_hand_of(game_id: int, olga):
    return lambda: scoring.record_hand(game=game_id, document=HAND, by=Actor.for_user(olga))


def fresh(round_id: int) -> Round:
    return Round.objects.select_related("competition__club").get(pk=round_id)


def test_an_unpublish_waits_for_a_hand_being_entered_and_keeps_it(published, olga, by):
    game_id = published.tables.order_by("number").first().game_id
    kind, answer = while_held(
        a_hand_of(game_id, olga),
        lambda: services.unpublish_round(round_=fresh(published.pk), by=by),
    )
    assert kind == "refused", answer
    assert Round.objects.get(pk=published.pk).status == RoundStatus.PUBLISHED
    assert Game.objects.get(pk=game_id).status == GameStatus.IN_PROGRESS
    assert Hand.objects.filter(game_id=game_id).count() == 1


def test_a_swap_waits_for_a_hand_being_entered_and_names_its_table(published, olga, by):
    one, two = published.tables.order_by("number")
    a = one.seats.order_by("position").first().entry_id
    b = two.seats.order_by("position").first().entry_id
    kind, answer = while_held(
        a_hand_of(one.game_id, olga),
        lambda: services.swap_published(round_=fresh(published.pk), a=a, b=b, by=by),
    )
    assert kind == "refused", answer
    assert [(p.field, p.params.get("reason")) for p in answer.problems] == [("a", "has_hands")]


def test_a_redraw_while_a_hand_is_entered_leaves_that_table_alone(club, olga, by):
    competition = make_competition(club, olga, kind="league", format="club_night")
    enter(competition, olga, 9)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    first = round_.tables.order_by("number").first()
    seats = list(first.seats.order_by("position").values_list("entry_id", flat=True))
    kind, answer = while_held(
        a_hand_of(first.game_id, olga),
        lambda: services.redraw_tables(round_=fresh(round_.pk), by=by, seed=3),
    )
    assert kind == "done", answer
    assert list(first.seats.order_by("position").values_list("entry_id", flat=True)) == seats
    assert Hand.objects.filter(game_id=first.game_id).count() == 1


def test_a_replacement_waits_for_a_hand_being_entered_and_names_its_table(published, olga, by):
    late = services.add_entry(competition=published.competition, player="Ugo", by=by)
    first = published.tables.order_by("number").first()
    seats = list(first.seats.order_by("position").values_list("entry_id", flat=True))
    kind, answer = while_held(
        a_hand_of(first.game_id, olga),
        lambda: services.replace_entry(
            round_=fresh(published.pk), absent=seats[0], late=late.pk, by=by
        ),
    )
    assert kind == "refused", answer
    assert [(p.field, p.params.get("reason")) for p in answer.problems] == [("absent", "has_hands")]
    assert list(first.seats.order_by("position").values_list("entry_id", flat=True)) == seats


def test_a_forfeit_waits_for_the_hand_that_finishes_the_game_and_leaves_it_finished(
    published, olga, by
):
    table = published.tables.order_by("number").first()
    finishing = terziglio_won_by(1, 3)[0]
    kind, answer = while_held(
        lambda: scoring.record_hand(game=table.game_id, document=finishing, by=by),
        lambda: services.forfeit_table(
            table=Table.objects.select_related("round__competition__club").get(pk=table.pk),
            by=by,
            reason="They left early",
        ),
    )
    assert kind == "refused", answer
    assert [(p.field, p.params.get("reason")) for p in answer.problems] == [("table", "finished")]
    assert Game.objects.get(pk=table.game_id).status == GameStatus.FINISHED
    assert not Table.objects.get(pk=table.pk).forfeited


@pytest.fixture
def closed(published, olga, by):
    """``published`` played (each game won by seat 1 in one hand) and closed."""
    for table in published.tables.order_by("number"):
        play(table.game, terziglio_won_by(1, 3), olga)
    services.close_round(round_=fresh(published.pk), by=by)
    return fresh(published.pk)


def test_a_finalize_waits_for_a_round_being_reopened_and_refuses(closed, olga, by):
    competition_id = closed.competition_id
    kind, answer = while_held(
        lambda: services.reopen_round(round_=fresh(closed.pk), by=by, reason="A wrong total"),
        lambda: services.finalize_competition(
            competition=Competition.objects.select_related("club").get(pk=competition_id), by=by
        ),
    )
    assert kind == "refused", answer
    assert [(p.field, p.params.get("reason")) for p in answer.problems] == [
        ("competition", "round_open")
    ]
    assert Competition.objects.get(pk=competition_id).finalized_at is None
    assert not Game.objects.filter(lock_reason=LockReason.FINALIZED).exists()


def test_a_round_reopened_while_a_game_is_locked_by_hand_leaves_that_game_locked(closed, olga, by):
    one, two = (t.game_id for t in closed.tables.order_by("number"))
    kind, answer = while_held(
        lambda: scoring.lock_games(games=[one], by=by, reason=LockReason.MANUAL),
        lambda: services.reopen_round(round_=fresh(closed.pk), by=by, reason="A wrong total"),
    )
    assert kind == "done", answer
    assert Round.objects.get(pk=closed.pk).status == RoundStatus.PUBLISHED
    held = Game.objects.get(pk=one)
    assert (held.locked_at is not None, held.lock_reason) == (True, LockReason.MANUAL)
    assert Game.objects.get(pk=two).locked_at is None


def test_a_withdrawal_waits_for_the_draw_that_seats_the_entry_and_draws_again(club, olga, by):
    competition = make_competition(club, olga, kind="league", format="club_night")
    entries = enter(competition, olga, 7)
    round_ = services.add_round(competition=competition, by=by)
    leaving = entries[3].pk
    kind, answer = while_held(
        lambda: services.generate_round(round_=fresh(round_.pk), by=by, seed=1),
        lambda: services.withdraw_entry(
            entry=Entry.objects.select_related("competition__club").get(pk=leaving),
            by=by,
            reason="Ill",
        ),
    )
    assert kind == "done", answer
    assert Entry.objects.get(pk=leaving).status == EntryStatus.WITHDRAWN
    seated = list(TableSeat.objects.filter(table__round=round_).values_list("entry_id", flat=True))
    assert leaving not in seated
    assert sorted(seated) == sorted(e.pk for e in entries if e.pk != leaving)
