"""No "Rematch" on a competition's game (issue 32, point 8): the competition draws what follows
a table; a rematch would start a free game of the same players outside it. A free game keeps
its button."""

from __future__ import annotations

import pytest

from scoring import services as scoring
from scoring.models import Game, GameStatus
from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.clients import login

from .helpers import codes, play, published_night, terziglio_won_by

pytestmark = pytest.mark.django_db

BUTTON = "Rematch with the same players"


def test_a_finished_competition_game_offers_no_rematch_and_refuses_one(club, olga):
    round_ = published_night(club, olga, 3)
    game = play(round_.tables.get().game, terziglio_won_by(1, 3), olga)
    assert game.status == GameStatus.FINISHED
    page = login(olga)
    shown = page.get(f"/g/{game.pk}/").content.decode()
    assert BUTTON not in shown and f"/g/{game.pk}/rematch/" not in shown
    before = Game.objects.count()
    answer = page.post(f"/g/{game.pk}/rematch/", follow=True)
    assert answer.redirect_chain == [(f"/g/{game.pk}/", 302)]
    assert "This game belongs to a competition" in answer.content.decode()
    assert Game.objects.count() == before
    with pytest.raises(RuleViolation) as refused:
        scoring.rematch(game=game, by=Actor.for_user(olga))
    assert codes(refused.value) == {("game", "not_allowed")}


def test_a_finished_free_game_still_offers_its_rematch(club, olga, players):
    game = scoring.start_game(
        club=club, ruleset="terziglio", players=players[:3], by=Actor.for_user(olga)
    )
    game = play(game, terziglio_won_by(1, 3), olga)
    assert BUTTON in login(olga).get(f"/g/{game.pk}/").content.decode()
