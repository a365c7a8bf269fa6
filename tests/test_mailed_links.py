"""Mailed links use the site's address (issue 34, point 6): ``SITE_URL`` when it is set, else
the address of the request that caused the e-mail, its host and port, even when the e-mail is
built by a task with no request of its own (the request's address travels as the task's
argument, ``scoring.links.request_origin``). Each registration e-mail with a link names the
API operation its token serves, too."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from registration import services as registration_services
from scoring import services as scoring
from scoring.services import Actor, queue
from tests.clients import api_as
from tests.tournaments.helpers import enter, make_competition, play, terziglio_won_by
from tournaments import services

pytestmark = pytest.mark.django_db

LAN = "192.168.1.20:8000"
SITE = "https://club.example.org"
LINK = re.compile(r"https?://[^\s\"'<>]+")


@pytest.fixture(params=["site_url", "request"])
def base(request, settings):
    """The address the links must start with: SITE_URL set, or unset (its default differs
    from the address the request comes in on, the laptop's Wi-Fi address and port)."""
    settings.ALLOWED_HOSTS = ["192.168.1.20", "testserver"]
    if request.param == "site_url":
        settings.SITE_URL, settings.SITE_URL_SET = SITE, True
        return SITE
    settings.SITE_URL, settings.SITE_URL_SET = "http://127.0.0.1:8000", False
    return f"http://{LAN}"


def links(message) -> list[str]:
    html = "".join(part for part, _kind in getattr(message, "alternatives", []))
    found = LINK.findall(message.body) + LINK.findall(html)
    assert found
    return found


def assert_on(base: str, message) -> None:
    assert [u for u in links(message) if not u.startswith(base + "/")] == []


@pytest.fixture
def torneo(club, olga):
    competition = make_competition(club, olga, name="Torneo", public=True)
    now = timezone.now()
    registration_services.set_registration(
        competition=competition,
        by=Actor.for_user(olga),
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=3),
        capacity=4,
    )
    return competition


def test_the_registration_emails_links_and_api_forms(
    base, torneo, django_capture_on_commit_callbacks
):
    client = api_as(None)
    url = f"/api/v1/competitions/{torneo.pk}/registrations/"
    with django_capture_on_commit_callbacks(execute=True):
        made = client.post(
            url, {"name": "Anna", "email": "anna@example.org"}, format="json", HTTP_HOST=LAN
        )
    assert made.status_code == 201, made.content
    (confirm,) = mail.outbox
    assert_on(base, confirm)
    token = re.search(r"/r/([\w-]+)/", confirm.body).group(1)
    api_form = f'POST {base}/api/v1/registrations/confirm/ with {{"token": "{token}"}}'
    assert f"Or from a program, to confirm: {api_form}" in confirm.body
    assert api_form in confirm.alternatives[0][0]

    # The API form as the e-mail gives it.
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            "/api/v1/registrations/confirm/", {"token": token}, format="json", HTTP_HOST=LAN
        )
    assert done.status_code == 200 and done.json()["status"] == "entered"
    registered = mail.outbox[1]
    assert_on(base, registered)
    manage = re.search(r"/r/([\w-]+)/", registered.body).group(1)
    for action, path in (("withdraw", "withdraw"), ("check in", "check-in")):
        line = f'to {action}: POST {base}/api/v1/registrations/{path}/ with {{"token": "{manage}"}}'
        assert line in registered.body
    gone = client.post(
        "/api/v1/registrations/withdraw/", {"token": manage}, format="json", HTTP_HOST=LAN
    )
    assert gone.status_code == 200 and gone.json()["status"] == "withdrawn"


def test_the_registration_email_in_french_names_the_api_form(
    base, torneo, django_capture_on_commit_callbacks
):
    url = f"/api/v1/competitions/{torneo.pk}/registrations/"
    with django_capture_on_commit_callbacks(execute=True):
        api_as(None).post(
            url, {"name": "Bruno", "email": "b@example.org"}, format="json", HTTP_HOST=LAN,
            HTTP_ACCEPT_LANGUAGE="fr",
        )  # fmt: skip
    (message,) = mail.outbox
    assert f"Ou depuis un programme, pour confirmer : POST {base}/api/v1/" in message.body


def test_a_worker_makes_the_links_on_the_address_of_the_request_that_caused_them(
    base, torneo, monkeypatch, django_capture_on_commit_callbacks
):
    """Not run in the request: the task, as a worker receives it, with its arguments only."""
    sent = []
    monkeypatch.setattr(queue, "enqueue", lambda task, *args: sent.append((task, args)))
    url = f"/api/v1/competitions/{torneo.pk}/registrations/"
    with django_capture_on_commit_callbacks(execute=True):
        api_as(None).post(
            url, {"name": "Carla", "email": "c@example.org"}, format="json", HTTP_HOST=LAN
        )
    ((name, args),) = sent
    assert mail.outbox == []
    from celery import current_app

    current_app.tasks[name](*args)
    (message,) = mail.outbox
    assert_on(base, message)


@pytest.fixture
def night(club, olga):
    """Three players with addresses at a Terziglio table, a round drawn, entrants notified."""
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, slug="avvisi", notify_entrants=True)
    for n, entry in enumerate(enter(competition, olga, 3)):
        scoring.update_player(player=entry.player, by=by, email=f"p{n}@example.org")
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    return competition, round_


def test_the_round_and_results_emails_links(base, night, olga, django_capture_on_commit_callbacks):
    competition, round_ = night
    client = api_as(olga)
    url = f"/api/v1/competitions/{competition.pk}/rounds/1"
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"{url}/publish/", format="json", HTTP_HOST=LAN).status_code == 200
    assert len(mail.outbox) == 3
    for message in mail.outbox:
        assert_on(base, message)
        assert f"{base}/p/uno/avvisi/rounds/1/" in message.body
    (table,) = round_.tables.select_related("game")
    play(table.game, terziglio_won_by(1, 3), olga)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"{url}/close/", format="json", HTTP_HOST=LAN).status_code == 200
    assert len(mail.outbox) == 3
    for message in mail.outbox:
        assert_on(base, message)  # the competition's page and the unsubscribe link
        assert message.extra_headers["List-Unsubscribe"].startswith(f"<{base}/")
