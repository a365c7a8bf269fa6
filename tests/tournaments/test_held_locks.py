"""Each check-then-act service of a published round, run while a hand of one of its games is
being entered from another connection (its game's row locked, the hand inserted, not yet
committed: ``tests.held_lock``). The service must wait for that hand and decide on it: never a
game abandoned or reseated under a hand the phone was told was stored (issue 33, point 1)."""

from __future__ import annotations

import pytest

from scoring import services as scoring
from scoring.models import Game, GameStatus, Hand
from scoring.services import Actor
from tests.held_lock import while_held
from tests.tournaments.helpers import enter, make_competition
from tournaments import services
from tournaments.models import Round, RoundStatus

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
