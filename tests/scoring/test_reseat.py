"""Seating other players at a game with no hand yet (``scoring.services.reseat_game``): the
same game and table link, audited; refused once a hand is entered, for a scorer, and for a
number of players the game does not allow."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import AuditEvent, TableLink
from scoring.rules import RuleViolation
from scoring.services import Actor, NotAllowed

HAND = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "chiamo", "soloist_points": 5}


def test_reseat_keeps_the_game_and_its_link_and_is_audited(terziglio, players, olga):
    token = TableLink.objects.get(game=terziglio).token
    game = services.reseat_game(
        game=terziglio, players=[players[3], players[1], players[0], players[2]],
        by=Actor.for_user(olga), reason="swap",
    )  # fmt: skip
    assert [s.player for s in game.seats.order_by("index")] == [
        players[3], players[1], players[0], players[2]
    ]  # fmt: skip
    assert game.pk == terziglio.pk and TableLink.objects.get(game=game).token == token
    assert game.version == terziglio.version + 1 and game.totals == [0, 0, 0, 0]
    assert (terziglio.seating, game.seating) == (1, 2)  # who sits where changed
    event = AuditEvent.objects.get(action="reseat_game")
    assert event.before == {"players": ["Anna", "Bruno", "Carla"]}
    assert event.after == {"players": ["Dario", "Bruno", "Anna", "Carla"], "seating": 2}
    assert event.reason == "swap" and event.actor == olga


def test_reseat_is_refused_once_a_hand_is_entered(terziglio, players, olga):
    services.record_hand(game=terziglio, document=HAND, by=Actor.for_user(olga))
    with pytest.raises(RuleViolation) as refused:
        services.reseat_game(
            game=terziglio, players=players[1:4], by=Actor.for_user(olga), reason="x"
        )
    assert [(p.field, p.code) for p in refused.value.problems] == [("game", "has_hands")]
    assert not AuditEvent.objects.filter(action="reseat_game").exists()


def test_reseat_refusals(terziglio, players, olga, sara):
    with pytest.raises(NotAllowed):
        services.reseat_game(
            game=terziglio, players=players[1:4], by=Actor.for_user(sara), reason="x"
        )
    with pytest.raises(RuleViolation) as refused:
        services.reseat_game(
            game=terziglio, players=players[:2], by=Actor.for_user(olga), reason="x"
        )
    assert ("players", "range") in {(p.field, p.code) for p in refused.value.problems}
    with pytest.raises(RuleViolation) as refused:
        services.reseat_game(
            game=terziglio, players=players[1:4], by=Actor.for_user(olga), reason=""
        )
    assert [(p.field, p.code) for p in refused.value.problems] == [("reason", "required")]
    services.abandon_game(game=terziglio, by=Actor.for_user(olga), reason="gone")
    with pytest.raises(RuleViolation) as refused:
        services.reseat_game(
            game=terziglio, players=players[1:4], by=Actor.for_user(olga), reason="x"
        )
    assert [(p.field, p.code) for p in refused.value.problems] == [("game", "game_abandoned")]
