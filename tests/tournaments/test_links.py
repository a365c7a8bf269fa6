"""Every absolute link from one place (issue 23, point 5), the competitions' links: the iCal
feed's, the projector's QR code, the printed table cards (on the address the request came in on
unless ``SITE_URL`` is set), and the e-mails of a published round, sent by a Celery task: on the
address of the request that published it (tests/test_mailed_links.py: every mailed link)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.test import Client

from tests.builders import by
from tests.clients import login
from tournaments import services

from .helpers import enter, make_competition

pytestmark = pytest.mark.django_db

LAN = "192.168.1.20:8000"


@pytest.fixture
def lan(settings):
    """No SITE_URL set (its default only), the site answering on the laptop's Wi-Fi address."""
    settings.ALLOWED_HOSTS = ["192.168.1.20", "testserver"]
    settings.SITE_URL, settings.SITE_URL_SET = "http://127.0.0.1:8000", False
    return settings


@pytest.fixture
def coppa(club, olga):
    competition = make_competition(club, olga, slug="coppa", planned_rounds=1)
    enter(competition, olga, 3)
    services.add_round(competition=competition, by=by(olga), date=dt.date(2026, 12, 5))
    return competition


def test_the_calendar_feed_links_to_the_address_it_was_read_on(lan, coppa):
    feed = Client().get("/p/uno/coppa/calendar.ics", HTTP_HOST=LAN).content.decode()
    assert f"URL:http://{LAN}/p/uno/coppa/rounds/1/" in feed
    # The UID keeps SITE_URL's host: a round stays one event whatever address the feed is read on.
    assert not [line for line in feed.split("\r\n") if "127.0.0.1" in line and "UID:" not in line]
    lan.SITE_URL, lan.SITE_URL_SET = "https://club.example.org", True
    feed = Client().get("/p/uno/coppa/calendar.ics", HTTP_HOST=LAN).content.decode()
    assert "URL:https://club.example.org/p/uno/coppa/rounds/1/" in feed


def test_the_calendar_etag_follows_the_address(lan, coppa):
    one = Client().get("/p/uno/coppa/calendar.ics", HTTP_HOST=LAN)["ETag"]
    other = Client().get("/p/uno/coppa/calendar.ics")["ETag"]
    assert one != other


def test_the_projector_qr_code_carries_the_sites_address_when_set(lan, coppa, olga):
    round_ = coppa.rounds.get()
    services.generate_round(round_=round_, by=by(olga), seed=1)
    services.publish_round(round_=round_, by=by(olga))
    html = Client().get("/p/uno/coppa/projector/", HTTP_HOST=LAN).content.decode()
    assert f'href="http://{LAN}/p/uno/coppa/where/"' in html
    lan.SITE_URL, lan.SITE_URL_SET = "https://club.example.org", True
    html = Client().get("/p/uno/coppa/projector/", HTTP_HOST=LAN).content.decode()
    assert 'href="https://club.example.org/p/uno/coppa/where/"' in html


def test_the_round_emails_sent_by_a_task_use_the_publishing_requests_address(
    lan, club, olga, django_user_model, django_capture_on_commit_callbacks
):
    competition = make_competition(club, olga, slug="avvisi", notify_entrants=True)
    entries = enter(competition, olga, 3)
    entries[0].player.user = django_user_model.objects.create_user("anna", email="anna@x.org")
    entries[0].player.save()
    round_ = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=round_, by=by(olga), seed=1)
    lan.SITE_URL = "https://club.example.org"  # the default, not set: the request's address wins
    with django_capture_on_commit_callbacks(execute=True):
        answer = login(olga).post("/c/uno/k/avvisi/rounds/1/", {"action": "publish"}, HTTP_HOST=LAN)
    assert answer.status_code == 302
    (message,) = mail.outbox
    assert f"http://{LAN}/p/uno/avvisi/rounds/1/" in message.body
    assert "club.example.org" not in message.body
