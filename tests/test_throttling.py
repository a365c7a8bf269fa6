"""Password guessing at /login/ and /api/v1/auth/token/: counted per account and per client
address, with a growing wait; a throttled try is not even checked (429, Retry-After)."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.core.signals import request_finished
from django.db import close_old_connections
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from scoring import throttles
from scoring.views.accounts import PasswordResetView

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
        wrong = token(client, "olga", "nope")
        assert wrong.status_code == 401 and wrong["WWW-Authenticate"] == "Token"
        [error] = wrong.json()["errors"]
        assert error["code"] == "authentication_failed"
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


# -- issue 22, point 9: the admin's login, look-alike user names, password-reset e-mails --------


def test_the_admin_login_is_throttled_with_the_same_counts_as_the_login_page(olga, two_free, clock):
    olga.is_staff = True
    olga.save()
    client = Client(REMOTE_ADDR="10.0.0.66")
    post_login(client, "olga", "nope")
    assert client.post("/admin/login/", {"username": "olga", "password": "nope"}).status_code == 200
    refused = client.post("/admin/login/", {"username": "olga", "password": "pw-olga"})
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    assert "Too many wrong tries" in refused.content.decode() and not signed_in(client)
    clock[0] += 1
    right = client.post("/admin/login/", {"username": "olga", "password": "pw-olga"})
    assert right.status_code == 302 and signed_in(client)
    assert client.get("/admin/login/").status_code == 302  # already in: to the admin


def test_look_alike_user_names_count_against_the_one_account(two_free, clock, django_user_model):
    django_user_model.objects.create_user("lucia", password="pw-lucia")
    for n, name in enumerate(("luc𝓲𝒶", "ＬＵＣＩＡ")):  # NFKC-equal, as login reads them
        assert post_login(Client(REMOTE_ADDR=f"10.0.0.{n}"), name, "nope").status_code == 200
    refused = post_login(Client(REMOTE_ADDR="10.0.0.9"), "lucia", "pw-lucia")
    assert refused.status_code == 429
    assert throttles.account_key("luc𝓲𝒶") == throttles.account_key("Lucia") == "lucia"


def reset(client, email):
    return client.post("/password-reset/", {"email": email})


def test_password_reset_mails_to_one_address_are_throttled(olga, settings, clock, mailoutbox):
    settings.PASSWORD_RESET_MAX_MAILS = 2
    olga.email = "olga@example.com"
    olga.save()
    for n in range(2):
        assert reset(Client(REMOTE_ADDR=f"10.0.0.{n}"), "OLGA@example.com").status_code == 302
    assert len(mailoutbox) == 2
    refused = reset(Client(REMOTE_ADDR="10.0.0.9"), "olga@example.com")
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert "Password reset e-mails were asked for too often" in refused.content.decode()
    # An unknown address is counted the same way: the refusal tells nothing.
    for _ in range(2):
        reset(Client(REMOTE_ADDR="10.0.1.1"), "nobody@example.com")
    assert reset(Client(REMOTE_ADDR="10.0.1.2"), "nobody@example.com").status_code == 429
    clock[0] += 60
    assert reset(Client(REMOTE_ADDR="10.0.0.9"), "olga@example.com").status_code == 302
    assert len(mailoutbox) == 3


def test_one_client_asking_about_many_addresses_is_slowed_down(settings, clock):
    settings.PASSWORD_RESET_MAX_MAILS = 1
    client = Client(REMOTE_ADDR="10.0.0.66")
    for n in range(4):
        assert reset(client, f"someone{n}@example.com").status_code == 302
    assert reset(client, "other@example.com").status_code == 429
    assert reset(Client(REMOTE_ADDR="10.0.0.67"), "other@example.com").status_code == 302


def test_known_and_unknown_addresses_do_the_same_work_before_the_answer(
    olga, django_assert_num_queries, mailoutbox
):
    """The e-mail is queued once the answer has been sent (even when tasks run eagerly): before
    it, the request neither looks the address up nor renders a mail, so both answers cost the
    same (no query at all)."""
    olga.email = "olga@example.com"
    olga.save()
    responses = []
    for email in ("olga@example.com", "nobody@example.com"):
        request = RequestFactory().post("/password-reset/", {"email": email})
        request.session = SessionStore()
        request._dont_enforce_csrf_checks = True  # as the test client does
        with django_assert_num_queries(0):
            responses.append(PasswordResetView.as_view()(request))
    answers = [(r.status_code, r["Location"]) for r in responses]
    assert answers[0] == answers[1] == (302, "/password-reset/sent/")
    assert mailoutbox == []
    # As the server does once the answer is written (keeping the test's database connection
    # open, as Django's test client does).
    request_finished.disconnect(close_old_connections)
    try:
        for response in responses:
            response.close()
    finally:
        request_finished.connect(close_old_connections)
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["olga@example.com"]
