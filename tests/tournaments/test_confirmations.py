"""A competition whose hands must be accepted: its games need acceptance, and a table counts as
finished (standings, closing its round) once every hand of its game is accepted."""

from __future__ import annotations

import pytest

from scoring import services as scoring
from scoring.models import Acceptance, GameStatus
from scoring.rules import RuleViolation
from scoring.services import Actor
from tournaments import selectors, services
from tournaments.models import Round

from .helpers import codes, enter, make_competition, play, terziglio_in_order

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(club, olga, django_capture_on_commit_callbacks):
    """Six players on two tables of round 1, every game played to its end; no hand accepted."""
    competition = make_competition(club, olga, planned_rounds=1, hands_must_be_accepted=True)
    enter(competition, olga, 6)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    services.publish_round(round_=first, by=Actor.for_user(olga))
    with django_capture_on_commit_callbacks(execute=True):
        for table in first.tables.select_related("game"):
            play(table.game, terziglio_in_order([0, 1, 2]), olga)
    return competition, Round.objects.get(pk=first.pk)


def test_the_games_of_the_competition_need_acceptance(played):
    _competition, first = played
    for table in first.tables.select_related("game"):
        assert table.game.hands_need_acceptance
        assert table.game.status == GameStatus.FINISHED
        assert set(table.game.hands.values_list("acceptance", flat=True)) == {Acceptance.PENDING}


def test_a_table_with_waiting_hands_neither_counts_nor_lets_the_round_close(
    played, olga, django_capture_on_commit_callbacks
):
    competition, first = played
    assert selectors.results_of(competition) == []
    with pytest.raises(RuleViolation) as refused:
        services.close_round(round_=first, by=Actor.for_user(olga))
    assert codes(refused.value) == {("round", "unaccepted")}
    tables = list(first.tables.select_related("game").order_by("number"))
    with django_capture_on_commit_callbacks(execute=True):
        for number in tables[0].game.hands.values_list("number", flat=True):
            scoring.accept_hand(game=tables[0].game, number=number, by=Actor.for_user(olga), seat=1)
    counted = {r.game for r in selectors.results_of(competition)}
    assert counted == {tables[0].game_id}
    with pytest.raises(RuleViolation) as refused:
        services.close_round(round_=Round.objects.get(pk=first.pk), by=Actor.for_user(olga))
    assert refused.value.problems[0].params["tables"] == (tables[1].number,)
    with django_capture_on_commit_callbacks(execute=True):
        for number in tables[1].game.hands.values_list("number", flat=True):
            scoring.accept_hand(game=tables[1].game, number=number, by=Actor.for_user(olga), seat=1)
    services.close_round(round_=Round.objects.get(pk=first.pk), by=Actor.for_user(olga))
    assert len({r.game for r in selectors.results_of(competition)}) == 2


def test_the_competition_form_and_api_set_the_option(club, olga):
    from tests.clients import api_as

    answer = api_as(olga).post(
        f"/api/v1/clubs/{club.slug}/competitions/",
        {"name": "Coppa", "rulesets": ["terziglio"], "hands_must_be_accepted": True},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["hands_must_be_accepted"] is True
