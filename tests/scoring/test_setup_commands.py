"""A fresh install scripted: `createorganizer` makes the first account, `createclub` its club."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.models import Club, Membership

pytestmark = pytest.mark.django_db


def run(*args, **options):
    out = io.StringIO()
    call_command(*args, stdout=out, **options)
    return out.getvalue()


def test_an_organizer_and_their_club_from_the_command_line(monkeypatch):
    monkeypatch.setenv("ORGANIZER_PASSWORD", "tre-assi-e-un-re")
    assert "Created the organizer account lucia." in run(
        "createorganizer",
        "lucia",
        email="lucia@club.example",
        password_from_env="ORGANIZER_PASSWORD",
    )
    lucia = get_user_model().objects.get(username="lucia")
    assert lucia.check_password("tre-assi-e-un-re")
    assert not lucia.is_staff and not lucia.is_superuser

    output = run(
        "createclub",
        "circolo-roma",
        name="Circolo Roma",
        owner="lucia",
        time_zone="Europe/Paris",
        language="fr",
        public=True,
    )
    assert "Created the club Circolo Roma (circolo-roma), owned by lucia." in output
    club = Club.objects.get(slug="circolo-roma")
    assert (club.time_zone, club.language, club.results_public) == ("Europe/Paris", "fr", True)
    assert Membership.objects.get(club=club).role == "owner"
    assert Membership.objects.get(club=club).user == lucia


def test_an_account_without_a_password_waits_for_a_reset():
    run("createorganizer", "marco", email="marco@club.example", no_password=True)
    assert not get_user_model().objects.get(username="marco").has_usable_password()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"email": "not-an-address", "no_password": True}, "is not an e-mail address"),
        ({"email": "a@b.example", "password_from_env": "NOT_SET_ANYWHERE"}, "is empty or not set"),
        ({"email": "a@b.example"}, "No terminal to ask the password on"),
    ],
)
def test_createorganizer_refuses_bad_input_and_creates_nothing(options, message, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(CommandError, match=message):
        run("createorganizer", "nina", **options)
    assert not get_user_model().objects.filter(username="nina").exists()


def test_a_weak_password_is_refused(monkeypatch, settings):
    settings.AUTH_PASSWORD_VALIDATORS = [
        {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"}
    ]
    monkeypatch.setenv("PW", "short")
    with pytest.raises(CommandError, match="too short"):
        run("createorganizer", "nina", email="n@b.example", password_from_env="PW")


def test_createclub_refuses_a_taken_address_an_unknown_owner_and_a_bad_time_zone(olga, club):
    with pytest.raises(CommandError, match="No account has the user name"):
        run("createclub", "nuovo", name="Nuovo", owner="nobody")
    with pytest.raises(CommandError, match="slug"):
        run("createclub", club.slug, name="Doppio", owner="olga")
    with pytest.raises(CommandError, match="time_zone"):
        run("createclub", "nuovo", name="Nuovo", owner="olga", time_zone="Mars/Olympus")
    assert not Club.objects.filter(slug="nuovo").exists()
