"""Accounts: sign-up as the ``SIGNUP`` setting allows (open with e-mail verification, through an
invitation only, closed), and the password reset by e-mail (Django's own views)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.test import Client
from django.utils import translation

from scoring.services import Actor, members
from tests.clients import field_error

pytestmark = pytest.mark.django_db

FORM = {
    "username": "nina",
    "email": "nina@club.example",
    "password1": "sette-bello-denari",
    "password2": "sette-bello-denari",
}


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "http://testserver"


def test_open_signup_makes_an_inactive_account_until_the_emailed_link_is_opened(
    settings, mailoutbox, django_capture_on_commit_callbacks
):
    settings.SIGNUP = "open"
    client = Client()
    assert 'href="/signup/"' in client.get("/login/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/signup/", FORM)
    assert response.status_code == 200 and "nina@club.example" in response.content.decode()
    nina = get_user_model().objects.get(username="nina")
    assert not nina.is_active
    assert (
        client.post("/login/", {"username": "nina", "password": FORM["password1"]}).status_code
        == 200
    )
    (mail,) = mailoutbox
    link = re.search(r"http://testserver(/signup/\S+/)", mail.body).group(1)
    response = client.get(link)
    assert response.status_code == 302 and response["Location"] == "/"
    nina.refresh_from_db()
    assert nina.is_active
    assert client.get("/me/games/").status_code == 200  # logged in by the link


def test_a_forged_or_expired_verification_link_activates_nothing(settings):
    settings.SIGNUP = "open"
    nina = get_user_model().objects.create_user("nina", email="n@x.example", is_active=False)
    forged = signing.dumps({"user": nina.pk, "email": "n@x.example"}, salt="another salt")
    assert Client().get(f"/signup/{forged}/").status_code == 400
    settings.PASSWORD_RESET_TIMEOUT = -1
    expired = signing.dumps({"user": nina.pk, "email": "n@x.example"}, salt="segnapunti.signup")
    assert Client().get(f"/signup/{expired}/").status_code == 400
    nina.refresh_from_db()
    assert not nina.is_active


def test_signup_errors_are_shown_next_to_their_fields(settings, olga):
    settings.SIGNUP = "open"
    olga.email = "olga@club.example"
    olga.save()
    response = Client().post(
        "/signup/",
        {"username": "OLGA", "email": "olga@club.example", "password1": "123", "password2": "124"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "taken" in field_error(html, "username")
    assert "already uses this address" in field_error(html, "email")
    assert "differ" in field_error(html, "password2")
    response = Client().post("/signup/", FORM | {"password1": "12345678", "password2": "12345678"})
    assert field_error(response.content.decode(), "password1")


def test_by_default_accounts_are_made_through_an_invitation_only(settings, club, olga):
    assert settings.SIGNUP == "invitation"
    client = Client()
    assert 'href="/signup/"' not in client.get("/login/").content.decode()
    assert client.get("/signup/").status_code == 403
    assert client.post("/signup/", FORM).status_code == 403
    invited = members.invite(club=club, by=Actor.for_user(olga), role="member")
    page = client.get(f"/signup/?invitation={invited.token}")
    assert page.status_code == 200 and "Circolo Uno" in page.content.decode()
    response = client.post("/signup/", FORM | {"invitation": invited.token})
    assert response.status_code == 302 and response["Location"] == f"/invitation/{invited.token}/"
    nina = get_user_model().objects.get(username="nina")
    assert nina.is_active  # the invitation link is the proof; no second e-mail
    assert not nina.memberships.exists()  # accepting is a choice of its own


def test_a_used_invitation_opens_no_signup(settings, club, olga, oscar):
    invited = members.invite(club=club, by=Actor.for_user(olga), role="member")
    members.accept_invitation(token=invited.token, by=Actor.for_user(oscar))
    response = Client().post("/signup/", FORM | {"invitation": invited.token})
    assert response.status_code == 403
    assert not get_user_model().objects.filter(username="nina").exists()


def test_closed_signup_refuses_even_an_invitation(settings, club, olga):
    settings.SIGNUP = "closed"
    invited = members.invite(club=club, by=Actor.for_user(olga), role="member")
    assert Client().post("/signup/", FORM | {"invitation": invited.token}).status_code == 403
    page = Client().get(f"/invitation/{invited.token}/").content.decode()
    assert "/signup/" not in page and "/login/?next=" in page


def test_a_forgotten_password_is_reset_through_the_emailed_link(olga, mailoutbox):
    olga.email = "olga@club.example"
    olga.save()
    client = Client()
    assert 'href="/password-reset/"' in client.get("/login/").content.decode()
    response = client.post("/password-reset/", {"email": "olga@club.example"})
    assert response.status_code == 302 and response["Location"] == "/password-reset/sent/"
    (mail,) = mailoutbox
    assert mail.to == ["olga@club.example"]
    link = re.search(r"http://testserver(/password-reset/\S+/\S+/)", mail.body).group(1)
    form = client.get(link, follow=True)
    assert "new_password1" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "asso-di-coppe-9", "new_password2": "asso-di-coppe-9"},
    )
    assert done.status_code == 302 and done["Location"] == "/password-reset/done/"
    olga.refresh_from_db()
    assert olga.check_password("asso-di-coppe-9")
    assert client.get(link, follow=True).context["validlink"] is False  # used once


def test_the_account_pages_are_translated(settings):
    settings.SIGNUP = "open"
    # The locale middleware leaves the request's language active in this thread: put it back.
    with translation.override(None):
        page = Client(headers={"accept-language": "it"}).get("/login/").content.decode()
        assert "Password dimenticata?" in page and "Crea un account" in page
        page = Client(headers={"accept-language": "fr"}).get("/password-reset/").content.decode()
        assert "Mot de passe oublié ?" in page
