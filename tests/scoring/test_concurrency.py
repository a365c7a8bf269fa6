"""Concurrent writers on one game, through the API, with real commits.

Every thread has its own ``APIClient`` and its own database connection (closed at its end); a
barrier releases the requests together so that they really overlap. The services serialise the
writers on the game row (``SELECT … FOR UPDATE`` on PostgreSQL, an IMMEDIATE transaction on
SQLite), so whatever the interleaving: one hand per key, no hand counted twice, one winner per
version, and never a 500.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring import services
from scoring.etags import hand_tag
from scoring.models import AuditEvent, Game, Hand, IdempotencyRecord
from scoring.services import Actor
from tests.builders import new_club

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 20
TIMEOUT = 60


def in_parallel(
    count: int, token: Token, request: Callable[[APIClient, int], Any]
) -> list[tuple[int, Any, Any]]:
    """``request(client, i)`` in ``count`` threads released together; returns
    ``(status, body, response)`` in thread order. Any exception of a thread fails the test."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count
    errors: list[BaseException] = []

    def work(index: int) -> None:
        try:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
            barrier.wait(timeout=TIMEOUT)
            response = request(client, index)
            results[index] = (response.status_code, response.json(), response)
        except BaseException as error:  # reported by the test below
            errors.append(error)
            barrier.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a request never finished"
    assert not errors, errors
    return results


@pytest.fixture
def owner(django_user_model):
    # No password: hashing one costs more than these tests' requests.
    return django_user_model.objects.create_user("ottavia", password=None)


@pytest.fixture
def token(owner):
    return Token.objects.create(user=owner)


@pytest.fixture
def by(owner):
    return Actor.for_user(owner)


@pytest.fixture
def club(owner):
    return new_club(owner, name="Circolo Tre", slug="tre")


@pytest.fixture
def terziglio(club, by):
    return services.start_game(
        club=club, ruleset="terziglio", players=["Anna", "Bruno", "Carla"], by=by
    )


def post_hand(client: APIClient, game: Game, document: dict, key: str):
    return client.post(
        f"/api/v1/games/{game.pk}/hands/", document, format="json", HTTP_IDEMPOTENCY_KEY=key
    )


def test_the_same_hand_sent_twenty_times_with_one_key_is_stored_once(terziglio, token):
    document = {
        "dealer": 0,
        "outcome": "played",
        "soloist": 1,
        "contract": "solo",
        "soloist_points": 8,
    }
    results = in_parallel(
        THREADS, token, lambda client, _: post_hand(client, terziglio, document, "phone-1")
    )
    assert [status for status, _, _ in results] == [201] * THREADS
    bodies = [body for _, body, _ in results]
    assert all(body == bodies[0] for body in bodies)
    assert (bodies[0]["number"], bodies[0]["deltas"]) == (1, [-2, 4, -2])
    replayed = Counter(response.get("Idempotent-Replayed") for _, _, response in results)
    assert replayed == {None: 1, "true": THREADS - 1}
    assert Hand.objects.filter(game=terziglio).count() == 1
    assert IdempotencyRecord.objects.count() == 1
    assert IdempotencyRecord.objects.get().response == bodies[0]
    assert AuditEvent.objects.filter(game=terziglio, action="record_hand").count() == 1
    game = Game.objects.get(pk=terziglio.pk)
    assert (game.hand_count, game.totals, game.version) == (1, [-2, 4, -2], 2)


def test_the_same_next_hand_under_twenty_keys_is_stored_once_and_refused_nineteen_times(
    club, by, token
):
    game = services.start_game(
        club=club,
        ruleset="briscola",
        players=["Anna", "Bruno"],
        options={"hands_to_win": 5},
        by=by,
    )
    services.record_hand(game=game, document={"dealer": 0, "points": [70, 50]}, by=by)
    document = {"dealer": 1, "points": [44, 76]}  # the next hand; after it seat 0 must deal
    results = in_parallel(
        THREADS, token, lambda client, i: post_hand(client, game, document, f"key-{i}")
    )
    statuses = Counter(status for status, _, _ in results)
    assert statuses == {201: 1, 400: THREADS - 1}
    for status, body, _ in results:
        if status == 400:
            assert {(e["hand"], e["field"], e["code"]) for e in body["errors"]} == {
                (3, "dealer", "wrong_dealer")
            }
    game = Game.objects.get(pk=game.pk)
    assert (game.hand_count, game.totals, game.card_points) == (2, [1, 1], [114, 126])
    assert list(game.hands.values_list("number", "document")) == [
        (1, {"dealer": 0, "points": [70, 50]}),
        (2, document),
    ]
    assert IdempotencyRecord.objects.count() == 1
    assert AuditEvent.objects.filter(game=game, action="record_hand").count() == 2


def test_two_corrections_of_the_same_version_one_wins_the_other_gets_412(terziglio, token, by):
    first = {
        "dealer": 0,
        "outcome": "played",
        "soloist": 0,
        "contract": "chiamo",
        "soloist_points": 7,
    }
    read = str(hand_tag(services.record_hand(game=terziglio, document=first, by=by).hand))
    corrections = [
        {"document": {**first, "soloist_points": 5}, "reason": "miscounted"},
        {"document": {**first, "contract": "solissimo"}, "reason": "it was a solissimo"},
    ]
    results = in_parallel(
        2,
        token,
        lambda client, i: client.put(
            f"/api/v1/games/{terziglio.pk}/hands/1/",
            corrections[i],
            format="json",
            HTTP_IF_MATCH=read,
        ),
    )
    assert sorted(status for status, _, _ in results) == [200, 412]
    winner = next(i for i, (status, _, _) in enumerate(results) if status == 200)
    loser_body = results[1 - winner][1]
    assert loser_body["errors"][0]["code"] == "stale"
    assert loser_body["errors"][0]["current_version"] == 2
    hand = Hand.objects.get(game=terziglio, number=1)
    assert hand.version == 2
    assert hand.document == {**corrections[winner]["document"], "sweep": "none"}
    assert results[winner][1]["document"] == hand.document
    (event,) = AuditEvent.objects.filter(game=terziglio, action="correct_hand")
    assert event.reason == corrections[winner]["reason"]
    assert event.after["document"] == hand.document
    game = Game.objects.get(pk=terziglio.pk)
    assert game.totals == hand.deltas and game.version == 3
