"""Redis down is not an outage (issue 22, point 4): the cache is a cache.

A Redis of the test's own (``redis-server`` on a free port, never the machine's 6379) serves as
``CACHE_URL``; it is stopped while requests come in, and started again. Requests with an API
token, the login page and the table's PIN page go on (no 500), ``/healthz`` says the cache is
degraded, and a game that finishes while the broker does not answer is rated by the periodic
catch-up.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest
from django.core.cache import cache
from django.test import Client
from kombu.exceptions import OperationalError as BrokerDown
from rest_framework.authtoken.models import Token

from config import cache as redis_cache
from scoring import services, tasks
from scoring.models import RatingStep, TableLink
from scoring.services import Actor

pytestmark = pytest.mark.django_db

WIN = {"dealer": 0, "outcome": "played", "soloist": 0, "contract": "chiamo", "soloist_points": 7}


NO_DISK = ("--save", "", "--appendonly", "no")


class OwnRedis:
    """A redis-server of this test, on a port nobody else uses."""

    def __init__(self):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "the test needs redis-server (apt-get install redis-server)"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", *NO_DISK],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.fixture
def redis(settings, monkeypatch):
    server = OwnRedis()
    server.start()
    monkeypatch.setattr(redis_cache, "RETRY_SECONDS", 0)  # try Redis again at once
    settings.CACHE_URL = f"redis://127.0.0.1:{server.port}/0"
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": settings.CACHE_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    yield server
    if server.process.poll() is None:
        server.stop()


def test_requests_go_on_without_redis_and_healthz_says_degraded(redis, olga, terziglio):
    token = Token.objects.create(user=olga)
    api = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    link = TableLink.objects.get(game=terziglio)
    assert api.get(f"/api/v1/games/{terziglio.pk}/").status_code == 200
    assert cache.get("segnapunti-probe") is None and Client().get("/healthz").json() == {
        "status": "ok"
    }

    redis.stop()
    assert api.get(f"/api/v1/games/{terziglio.pk}/").status_code == 200
    login = Client().post("/login/", {"username": "olga", "password": "pw-olga"})
    assert login.status_code == 302
    wrong = Client().post("/login/", {"username": "olga", "password": "nope"})
    assert wrong.status_code == 200  # counted, in this process's memory
    phone = Client()
    assert phone.post(f"/t/{link.token}/", {"pin": link.pin}).status_code == 302
    hand = phone.post(
        f"/api/v1/games/{terziglio.pk}/hands/",
        WIN,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert hand.status_code == 201
    health = Client().get("/healthz")
    assert health.status_code == 200 and health.json() == {"status": "degraded", "cache": "fail"}

    redis.start()
    assert Client().get("/healthz").json() == {"status": "ok"}
    assert api.get(f"/api/v1/games/{terziglio.pk}/").status_code == 200


def test_a_rating_that_could_not_be_queued_is_computed_by_the_catch_up(
    settings, monkeypatch, club, players, olga, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = False

    def broker_down(*args, **kwargs):
        raise BrokerDown("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.rate_game, "delay", broker_down)
    game = services.start_game(
        club=club,
        ruleset="terziglio",
        players=players[:3],
        options={"target_score": 1},
        by=Actor.for_user(olga),
    )
    api = Client()
    api.force_login(olga)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(
            f"/api/v1/games/{game.pk}/hands/",
            WIN,
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY="k1",
        )
    assert answer.status_code == 201 and answer.json()["status"] == "finished"
    assert not RatingStep.objects.filter(game=game).exists()
    assert tasks.catch_up_ratings() == 1
    assert RatingStep.objects.filter(game=game).count() == 3
    assert tasks.catch_up_ratings() == 0  # nothing left behind
