"""Password guessing at /login/ and /api/v1/auth/token/: counted per account and per client
address, with a growing wait; a throttled try is not even checked (429, Retry-After)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import throttles

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    moment = [1_000_000.0]
    monkeypatch.setattr(throttles, "now", lambda: moment[0])
    return moment


@pytest.fixture
def two_free(settings):
    settings.LOGIN_MAX_ATTEMPTS = 2


def post_login(client, username, password):
    return client.post("/login/", {"username": username, "password": password})


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_the_login_page_makes_a_guessed_account_wait_longer_each_time(olga, two_free, clock):
    client = Client(REMOTE_ADDR="10.0.0.66")
    for _ in range(2):
        assert post_login(client, "olga", "nope").status_code == 200
    refused = post_login(client, "olga", "nope")
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    assert "Too many wrong tries: wait 1 second and try again." in refused.content.decode()
    # The right password is not even checked while the account must wait.
    assert post_login(client, "OLGA", "pw-olga").status_code == 429 and not signed_in(client)
    clock[0] += 1
    assert post_login(client, "olga", "nope").status_code == 200
    assert post_login(client, "olga", "nope")["Retry-After"] == "2"
    clock[0] += 2
    assert post_login(client, "olga", "pw-olga").status_code == 302 and signed_in(client)


def test_the_account_is_counted_whatever_the_address(olga, sara, two_free, clock):
    for n in range(2):
        post_login(Client(REMOTE_ADDR=f"10.0.0.{n}"), "olga", "nope")
    assert post_login(Client(REMOTE_ADDR="10.0.0.9"), "olga", "pw-olga").status_code == 429
    # Another account from another address is not slowed down.
    other = Client(REMOTE_ADDR="10.0.0.10")
    assert post_login(other, "sara", "pw-sara").status_code == 302 and signed_in(other)


def test_one_address_trying_many_accounts_is_slowed_down(olga, two_free, clock):
    """An address has four times an account's free tries (a club room shares one)."""
    client = Client(REMOTE_ADDR="10.0.0.66")
    for n in range(8):
        assert post_login(client, f"user{n}", "nope").status_code == 200
    assert post_login(client, "olga", "pw-olga").status_code == 429
    assert post_login(Client(REMOTE_ADDR="10.0.0.67"), "olga", "pw-olga").status_code == 302


def test_a_right_password_gives_the_account_its_tries_back(olga, two_free, clock):
    client = Client(REMOTE_ADDR="10.0.0.7")
    post_login(client, "olga", "nope")
    assert post_login(client, "olga", "pw-olga").status_code == 302
    client.post("/logout/")
    assert post_login(client, "olga", "nope").status_code == 200
    assert post_login(client, "olga", "pw-olga").status_code == 302


def test_the_wait_is_said_in_the_visitors_language(olga, two_free, clock):
    client = Client(REMOTE_ADDR="10.0.0.66", HTTP_ACCEPT_LANGUAGE="fr")
    for _ in range(2):
        post_login(client, "olga", "nope")
    page = post_login(client, "olga", "nope").content.decode()
    assert "Trop d’essais erronés : attendez 1 seconde et réessayez." in page


def test_behind_a_proxy_the_forwarded_address_is_the_clients(olga, settings, two_free, clock):
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"NUM_PROXIES": 1}
    for n in range(8):
        post_login(Client(HTTP_X_FORWARDED_FOR="203.0.113.5"), f"user{n}", "nope")
    assert post_login(Client(HTTP_X_FORWARDED_FOR="203.0.113.5"), "x", "y").status_code == 429
    other = Client(HTTP_X_FORWARDED_FOR="203.0.113.6")
    assert post_login(other, "olga", "pw-olga").status_code == 302


def token(client, username, password):
    return client.post(
        "/api/v1/auth/token/", {"username": username, "password": password}, format="json"
    )


def test_the_token_endpoint_answers_429_with_retry_after_in_the_error_shape(olga, two_free, clock):
    client = APIClient(REMOTE_ADDR="10.0.0.66")
    for _ in range(2):
        assert token(client, "olga", "nope").status_code == 400
    refused = token(client, "olga", "pw-olga")
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    [error] = refused.json()["errors"]
    assert error["code"] == "throttled" and error["hand"] is None
    assert error["message"] == "Too many wrong tries: wait 1 second and try again."
    clock[0] += 1
    assert "token" in token(client, "olga", "pw-olga").json()


def test_login_page_and_token_count_the_same_tries(olga, two_free, clock):
    post_login(Client(REMOTE_ADDR="10.0.0.1"), "olga", "nope")
    token(APIClient(REMOTE_ADDR="10.0.0.2"), "olga", "nope")
    assert token(APIClient(REMOTE_ADDR="10.0.0.3"), "olga", "pw-olga").status_code == 429
