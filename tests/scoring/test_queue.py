"""When Redis stops (issue 22, point 4): the cache is a cache and the broker's tasks wait.

A task a request cannot send (the broker does not answer) is kept in the database and run by
the worker's periodic ``run_pending_tasks``; the Redis cache serves from each process's memory
while Redis does not answer; ``/healthz`` says what is down. The same with a real Redis stopped
and started again during hand entry: bench/redis_fault.py, run by .ci/run.
"""

import socket

import pytest
from django.core.cache import cache
from django.test import override_settings
from kombu import Connection
from kombu.exceptions import OperationalError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config import cache as redis_cache
from config import health
from scoring import services, tasks
from scoring.models import PendingTask, RatingStep
from scoring.services import Actor, queue

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    """A port nothing listens on: connecting to it is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def dead_redis() -> dict:
    return {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
        }
    }


@pytest.fixture
def broker_down(monkeypatch, settings):
    """Tasks go to a broker, and every send is refused as a stopped Redis refuses it."""
    settings.CELERY_TASK_ALWAYS_EAGER = False

    def refused(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    for task in (tasks.rate_game, tasks.recompute_club_ratings):
        monkeypatch.setattr(task, "apply_async", refused)


@pytest.fixture
def briscola(club, players, olga):
    return services.start_game(
        club=club, ruleset="briscola", players=players[:2], by=Actor.for_user(olga)
    )


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def test_a_rating_the_broker_cannot_take_waits_and_is_computed_by_the_periodic_task(
    broker_down, briscola, olga, django_capture_on_commit_callbacks
):
    api = token_client(olga)
    for dealer, points in ((0, [70, 50]), (1, [81, 39])):
        with django_capture_on_commit_callbacks(execute=True):
            answer = api.post(
                f"/api/v1/games/{briscola.pk}/hands/",
                {"dealer": dealer, "points": points},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"hand-{dealer}",
            )
        assert answer.status_code == 201, answer.content
    briscola.refresh_from_db()
    assert briscola.status == "finished"
    assert list(PendingTask.objects.values_list("name", "args")) == [
        ("scoring.tasks.rate_game", [briscola.pk])
    ]
    assert not RatingStep.objects.filter(game=briscola).exists()

    assert tasks.run_pending_tasks() == 1
    assert RatingStep.objects.filter(game=briscola).count() == 2
    assert not PendingTask.objects.exists()
    assert tasks.run_pending_tasks() == 0  # run once, never twice


def test_a_kept_task_that_fails_stays_for_the_next_run(monkeypatch):
    PendingTask.objects.create(name="scoring.tasks.rate_game", args=[1])

    def broken(**kwargs):
        raise RuntimeError("the database hiccupped")

    monkeypatch.setattr(tasks.ratings, "rate_game", broken)
    assert tasks.run_pending_tasks() == 0
    assert PendingTask.objects.get().failures == 1


def test_a_broker_that_answers_gets_the_task_and_nothing_is_kept(monkeypatch, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []
    monkeypatch.setattr(tasks.rate_game, "apply_async", lambda args, **kw: sent.append(args))
    queue.enqueue(tasks.rate_game, 7)
    assert sent == [(7,)] and not PendingTask.objects.exists()


def test_the_redis_cache_goes_on_in_memory_when_redis_does_not_answer():
    with override_settings(CACHES=dead_redis()):
        assert cache.add("tries", 0) is True
        assert cache.incr("tries") == 1
        cache.set("word", "ciao")
        assert cache.get("word") == "ciao" and cache.get_many(["word"]) == {"word": "ciao"}
        assert cache.down()
        assert redis_cache.down()


def test_login_and_api_tokens_work_with_redis_down(olga, briscola, client):
    with override_settings(CACHES=dead_redis()):
        api = token_client(olga)
        assert api.get(f"/api/v1/games/{briscola.pk}/").status_code == 200
        wrong = client.post("/login/", {"username": "olga", "password": "nope"})
        assert wrong.status_code == 200 and "password" in wrong.content.decode().lower()
        right = client.post("/login/", {"username": "olga", "password": "pw-olga"})
        assert right.status_code == 302


def test_healthz_says_the_cache_is_down_and_still_answers_200(client):
    with override_settings(CACHES=dead_redis()):
        answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "degraded", "down": ["cache"]}


def test_healthz_says_the_broker_is_down(client, monkeypatch, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    url = f"redis://127.0.0.1:{closed_port()}/0"
    monkeypatch.setattr(
        health.app,
        "connection_for_write",
        lambda: Connection(url, connect_timeout=0.5, transport_options={"max_retries": 1}),
    )
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "degraded", "down": ["broker"]}
