"""A phone's hand POST (token, ``Idempotency-Key``: the quick path) on a connection the database
dropped answers 503 with ``Retry-After``, under the site's URLs and under the bench server's
(bench/load_urls.py, which bench/load.py and bench/chaos.py serve): a URL configuration without
the site's ``handler500`` answered Django's bare 500 instead (the 500s of bench/chaos.py).

On PostgreSQL the connection is really lost: its server process is terminated from a second
connection (``pg_terminate_backend``, as a restart or a failover does) between two POSTs. On
SQLite, which has no server to lose, every query fails as a lost connection's does."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection, connections
from django.db.backends import utils
from django.test import Client
from rest_framework.authtoken.models import Token

from bench import load_urls
from config import urls as site_urls

pytestmark = pytest.mark.django_db(transaction=True)

FIRST = {"ruleset": "terziglio", "dealer": 0, "outcome": "passed_out"}
SECOND = {"ruleset": "terziglio", "dealer": 1, "outcome": "passed_out"}


def lose_the_connection(monkeypatch) -> None:
    """This thread's database connection lost under Django, as in an outage."""
    if connection.vendor != "postgresql":

        def refuse(self, *args, **kwargs):
            raise OperationalError("server closed the connection unexpectedly")

        monkeypatch.setattr(utils.CursorWrapper, "execute", refuse)
        monkeypatch.setattr(utils.CursorWrapper, "executemany", refuse)
        return
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            assert cursor.fetchone() == (True,)
    finally:
        other.close()


def post(api: Client, game_id: int, document: dict, key: str):
    return api.post(
        f"/api/v1/games/{game_id}/hands/",
        document,
        content_type="application/json",
        HTTP_ACCEPT="application/json",
        HTTP_AUTHORIZATION=f"Token {api.token}",
        HTTP_IDEMPOTENCY_KEY=key,
    )


@pytest.fixture
def api(olga):
    client = Client(raise_request_exception=False)
    client.token = Token.objects.create(user=olga).key
    yield client
    connection.close()  # the lost one: the flush after the test opens a new one


@pytest.mark.parametrize("urlconf", ["config.urls", "bench.load_urls"])
def test_a_hand_posted_on_a_lost_connection_is_a_503(
    api, terziglio, settings, monkeypatch, urlconf
):
    settings.ROOT_URLCONF = urlconf
    settings.DEBUG = False
    assert post(api, terziglio.pk, FIRST, "first").status_code == 201  # the token is cached
    lose_the_connection(monkeypatch)
    response = post(api, terziglio.pk, SECOND, "second")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response.json()["errors"][0]["code"] == "unavailable"


def test_the_bench_urls_keep_every_error_handler_of_the_site():
    handlers = {name for name in vars(site_urls) if name.startswith("handler")}
    assert handlers
    for name in handlers:
        assert getattr(load_urls, name, None) == getattr(site_urls, name)
