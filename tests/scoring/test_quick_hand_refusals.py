"""A hand the short way refuses (scoring/api/quick.py) is decided once: ``record_hand`` and the
rules engine run once for it, as for an accepted hand, and its answer is DRF's whole way's, body,
status and headers."""

import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring import services
from scoring.rules import engine
from scoring.services import Actor
from tests.builders import join
from tests.scoring.test_hand_entry_perf import terziglio

PLAYED = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "chiamo", "soloist_points": 7}
ANOTHER = {
    "dealer": 0,
    "outcome": "played",
    "soloist": 2,
    "contract": "chiamo",
    "soloist_points": 7,
}


def send(game, user, document, key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0]}")
    return client.post(
        f"/api/v1/games/{game.pk}/hands/",
        json.dumps(document),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


@pytest.fixture
def calls(monkeypatch):
    """How many times ``services.record_hand`` and ``engine.play`` ran."""
    counted = {"record_hand": 0, "play": 0}

    def spy(owner, name, key):
        real = getattr(owner, name)

        def counting(*args, **kwargs):
            counted[key] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, counting)

    spy(services, "record_hand", "record_hand")
    spy(engine, "play", "play")
    return counted


def test_an_accepted_hand_runs_the_service_and_the_engine_once(club, players, olga, calls):
    game = terziglio(club, players, olga)
    assert send(game, olga, PLAYED, "k1").status_code == 201
    assert calls == {"record_hand": 1, "play": 1}


def test_a_hand_the_rules_refuse_runs_the_service_and_the_engine_once(club, players, olga, calls):
    game = terziglio(club, players, olga)
    response = send(game, olga, {"dealer": 0, "outcome": "played"}, "k1")
    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} >= {"soloist"}
    assert calls == {"record_hand": 1, "play": 1}


def test_a_hand_on_an_abandoned_game_runs_the_service_once_and_no_engine(
    club, players, olga, calls
):
    game = terziglio(club, players, olga)
    services.abandon_game(game=game, by=Actor.for_user(olga), reason="cards lost")
    response = send(game, olga, PLAYED, "k1")
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "game_abandoned"
    assert calls == {"record_hand": 1, "play": 0}


def abandoned(game, olga):
    services.abandon_game(game=game, by=Actor.for_user(olga), reason="cards lost")


def locked(game, olga):
    services.lock_games(games=[game], by=Actor.for_user(olga))


def reseated(game, olga):
    """Two players swap seats after the phone's page was served (its seating is 1)."""
    first, second, *others = [seat.player for seat in game.seats.order_by("index")]
    services.reseat_game(
        game=game, players=[second, first, *others], by=Actor.for_user(olga), reason="swap"
    )


def key_used(game, olga):
    assert send(game, olga, PLAYED, f"reused-{game.pk}").status_code == 201


REFUSALS = {
    # (what happened to the game first, who sends, the hand, the key, the status, a field named)
    "rules-missing-soloist": (None, "olga", {"dealer": 0, "outcome": "played"}, 400, "soloist"),
    "rules-bad-dealer": (None, "olga", PLAYED | {"dealer": 7}, 400, "dealer"),
    "rules-points-out-of-range": (
        None,
        "olga",
        PLAYED | {"soloist_points": 99},
        400,
        "soloist_points",
    ),
    "409-game-abandoned": (abandoned, "olga", PLAYED, 409, None),
    "409-game-locked": (locked, "olga", PLAYED, 409, None),
    "409-seating-changed": (reseated, "olga", PLAYED | {"seating": 1}, 409, "seating"),
    "400-seating-not-a-version": (None, "olga", PLAYED | {"seating": "1"}, 400, "seating"),
    "422-key-reused": (key_used, "olga", ANOTHER, 422, "Idempotency-Key"),
    "403-a-member-reads-only": (None, "member", PLAYED, 403, None),
    "404-another-club": (None, "bea", PLAYED, 404, None),
}


@pytest.mark.parametrize(
    ("before", "who", "document", "status", "field"), REFUSALS.values(), ids=REFUSALS.keys()
)
def test_a_refusal_the_short_way_is_drfs_answer(
    club,
    players,
    olga,
    bea,
    django_user_model,
    monkeypatch,
    calls,
    before,
    who,
    document,
    status,
    field,
):
    from scoring.api import quick

    member = django_user_model.objects.create_user("mia", password="pw-mia")
    join(club, member, "member")
    users = {"olga": olga, "bea": bea, "member": member}
    answers = []
    for way in ("quick", "drf"):
        game = terziglio(club, players, olga)
        if before is not None:
            before(game, olga)
        if way == "drf":
            monkeypatch.setattr(quick, "goes_quickly", lambda meta: False)
        calls["record_hand"] = 0
        answers.append(send(game, users[who], document, f"reused-{game.pk}"))
        assert calls["record_hand"] == 1, way  # the short way answered: no second run
    ours, theirs = answers
    assert ours.status_code == theirs.status_code == status
    assert ours.content == theirs.content
    assert dict(ours.headers) == dict(theirs.headers)
    assert ours.json()["errors"]
    if field is not None:
        assert field in {e["field"] for e in ours.json()["errors"]}
