"""A database outage (issue 22, point 11) answers 503 with Retry-After: the API's error shape
under /api/, a plain page elsewhere; other crashes stay 500."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest
from django.db import InterfaceError, OperationalError
from django.db.backends import utils
from django.test import Client

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def database_down(monkeypatch):
    """Every query fails as a lost connection does."""

    def refuse(self, *args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(utils.CursorWrapper, "execute", refuse)
    monkeypatch.setattr(utils.CursorWrapper, "executemany", refuse)


def client() -> Client:
    return Client(raise_request_exception=False)


def test_an_api_request_during_an_outage_is_a_json_503_with_retry_after(club, database_down):
    response = client().get("/api/v1/clubs/uno/games/", HTTP_AUTHORIZATION="Token nope")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response.json()["errors"][0]["code"] == "unavailable"


def test_a_page_during_an_outage_is_a_plain_503_with_retry_after(club, database_down):
    response = client().get("/c/uno/")
    assert response.status_code == 503 and response["Retry-After"] == "30"
    assert "cannot reach its database" in response.content.decode()
    assert response["Content-Type"].startswith("text/html")


def test_a_lost_connection_in_a_write_is_a_503_too(olga, terziglio, monkeypatch):
    def lost(*args, **kwargs):
        raise InterfaceError("connection already closed")

    monkeypatch.setattr("scoring.services.record_hand", lost)
    api = Client(raise_request_exception=False)
    api.force_login(olga)
    response = api.post(
        f"/api/v1/games/{terziglio.pk}/hands/",
        {"dealer": 0, "outcome": "passed_out"},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert response.status_code == 503 and response["Retry-After"] == "30"


def test_other_crashes_stay_500(monkeypatch, club):
    def crash(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("scoring.views.clubs.selectors.club_page", crash, raising=False)
    monkeypatch.setattr(utils.CursorWrapper, "execute", crash)
    response = client().get("/c/uno/")
    assert response.status_code == 500 and "Retry-After" not in response


def test_gunicorn_does_not_recycle_threaded_workers_and_nginx_drops_idle_connections_first():
    """A recycled gthread worker resets requests sent on its idle keep-alive connections
    (deploy/README.md, "Restarts"): no max_requests, and nginx's upstream keep-alive ends
    before gunicorn's."""
    conf = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    assert conf["max_requests"] == 0 and conf["graceful_timeout"] >= 30
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    upstream = nginx.split("upstream segnapunti {", 1)[1].split("}", 1)[0]
    seconds = int(re.search(r"keepalive_timeout (\d+)s;", upstream).group(1))
    assert seconds < conf["keepalive"]
