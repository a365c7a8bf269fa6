"""Every absolute link from one place (issue 23, point 5): ``SITE_URL`` when set, otherwise the
address of the request that caused the link (``scoring.links.site_url``). Here the links of the
scoring app: an invitation's (shown once, or e-mailed) and a password reset's e-mail."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.clients import login

pytestmark = pytest.mark.django_db

LAN = "192.168.1.20:8000"


@pytest.fixture
def lan(settings):
    """The site as ``make run`` on the club's laptop serves it: no SITE_URL set (its default
    only), answering on the laptop's address on the Wi-Fi."""
    settings.ALLOWED_HOSTS = ["192.168.1.20", "testserver"]
    settings.SITE_URL, settings.SITE_URL_SET = "http://127.0.0.1:8000", False
    return settings


def invite(client, **fields):
    return client.post(
        "/c/uno/members/",
        {"action": "invite", "role": "member", "email": "", "player": ""} | fields,
        HTTP_HOST=LAN,
    )


def test_an_invitation_link_asked_from_a_lan_address_carries_that_address(lan, club, olga):
    page = invite(login(olga)).content.decode()
    assert re.search(rf"http://{LAN}/invitation/[\w-]+/", page)
    assert "127.0.0.1" not in page
    lan.SITE_URL, lan.SITE_URL_SET = "https://club.example.org", True
    page = invite(login(olga)).content.decode()
    assert re.search(r"https://club\.example\.org/invitation/[\w-]+/", page)


def test_an_invitation_emailed_from_a_request_carries_its_address(
    lan, club, olga, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        answer = invite(login(olga), email="nina@club.example")
    assert answer.status_code == 302
    (mail,) = mailoutbox
    link = re.search(rf"http://{re.escape(LAN)}(/invitation/[\w-]+/)", mail.body)
    assert link is not None, mail.body
    assert "Nina" not in mail.body and Client().get(link.group(1)).status_code == 200


def test_a_password_reset_email_carries_the_address_it_was_asked_on(lan, olga, mailoutbox):
    olga.email = "olga@club.example"
    olga.save()
    Client().post("/password-reset/", {"email": "olga@club.example"}, HTTP_HOST=LAN)
    (mail,) = mailoutbox
    assert re.search(rf"http://{re.escape(LAN)}/password-reset/\S+/\S+/", mail.body), mail.body
    lan.SITE_URL, lan.SITE_URL_SET = "https://club.example.org", True
    Client().post("/password-reset/", {"email": "olga@club.example"}, HTTP_HOST=LAN)
    assert "https://club.example.org/password-reset/" in mailoutbox[1].body
