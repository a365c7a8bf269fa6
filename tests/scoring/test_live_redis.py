"""The live bus on a real Redis (``LIVE_REDIS_URL``), as production runs it: events published by
one process reach the streams of another through pub/sub, a reconnecting screen catches up from
the channel's Redis stream, and Redis down refuses new streams (503) and ends the open ones,
while hands are stored all the same.

Needs a Redis server: ``.ci/run`` runs these with ``LIVE_REDIS_URL`` (``-m broker``)."""

from __future__ import annotations

import os
import time

import pytest
import redis

from scoring import live, services
from scoring.live import bus as buses
from scoring.models import Game
from scoring.services import Actor
from tests.clients import login
from tests.live import CLOSED

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.broker]

URL = os.environ.get("LIVE_REDIS_URL", "redis://127.0.0.1:6379/14")
HAND = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "chiamo", "soloist_points": 5}


@pytest.fixture
def on_redis(settings):
    settings.LIVE_REDIS_URL = URL
    buses.reset_bus()
    client = redis.Redis.from_url(URL)
    client.flushdb()
    yield client
    client.flushdb()


def test_a_hand_reaches_a_stream_through_redis_and_a_reconnect_catches_up(
    on_redis, terziglio, olga, streams
):
    assert isinstance(buses.current_bus(), buses.RedisBus)
    client = login(olga)
    stream = streams(f"/g/{terziglio.pk}/events/", client=client)
    hello = stream.next()
    services.record_hand(game=terziglio, document=HAND, by=Actor.for_user(olga))
    event = stream.next()
    assert (event["event"], event["data"]["version"]) == ("game", 2)
    # The history is a Redis stream of the channel, capped, with the same id.
    kept = on_redis.xrange(buses.HISTORY_PREFIX + live.game_channel(terziglio.pk))
    assert [i.decode() for i, _ in kept] == [event["id"]]
    stream.close()
    services.record_hand(game=terziglio, document={**HAND, "dealer": 1}, by=Actor.for_user(olga))
    again = streams(
        f"/g/{terziglio.pk}/events/", client=client, headers={"Last-Event-ID": event["id"]}
    )
    assert again.next()["data"]["version"] == 3
    old = streams(
        f"/g/{terziglio.pk}/events/", client=client, headers={"Last-Event-ID": "1-0"}
    )  # older than anything kept
    assert old.next()["event"] == "reload"
    assert hello["event"] == "hello"


def test_redis_down_refuses_streams_and_stores_hands_all_the_same(
    settings, terziglio, olga, streams
):
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    buses.reset_bus()
    refused = streams(f"/g/{terziglio.pk}/events/", client=login(olga))
    assert refused.status == 503
    assert refused.response["Retry-After"] == "5"
    services.record_hand(game=terziglio, document=HAND, by=Actor.for_user(olga))
    assert Game.objects.get(pk=terziglio.pk).hand_count == 1
    assert live.publish("game:1", "game", {}) is None


def test_a_lost_pubsub_connection_ends_the_streams_and_they_open_again(
    on_redis, terziglio, olga, streams
):
    client = login(olga)
    stream = streams(f"/g/{terziglio.pk}/events/", client=client)
    stream.next()
    on_redis.client_kill_filter(_type="pubsub")
    assert stream.next() is CLOSED  # the page falls back to polling
    deadline = time.monotonic() + 5
    while (again := streams(f"/g/{terziglio.pk}/events/", client=client)).status != 200:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    again.next()
    services.record_hand(game=terziglio, document=HAND, by=Actor.for_user(olga))
    assert again.next()["data"]["version"] == 2
