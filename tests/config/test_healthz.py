"""/healthz says ok or fail and nothing else: the database's error (host, port, user) goes to
the server's log, never to the caller."""

import logging

import pytest
from django.db import OperationalError, connection

pytestmark = pytest.mark.django_db

SECRET = 'connection to server at "10.1.2.3", port 5432 failed: password for user "segna"'


def test_healthz_answers_ok_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_healthz_answers_fail_without_the_database_error(client, monkeypatch, caplog):
    def broken():
        raise OperationalError(SECRET)

    monkeypatch.setattr(connection, "cursor", broken)
    with caplog.at_level(logging.ERROR, logger="config.urls"):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "fail"}
    assert b"10.1.2.3" not in response.content
    assert SECRET in caplog.text
