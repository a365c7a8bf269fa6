"""Anonymous writes that send e-mail are limited (issue 33, point 4): public registration per
client address, per e-mail address and per competition; sign-up per address and per e-mail
address; an invitation answered per address and per invitation. Beyond a rate: 429 with
``Retry-After`` and a sentence (the page keeps what was typed), nothing stored, nothing
e-mailed; the organizer's registration page says how many were refused and when."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import caches
from django.test import Client
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from config.rates import parse_rate
from registration import services as registration_services
from registration.models import Registration, RegistrationRefusals
from registration.services import registration as registration_service
from scoring import throttles
from scoring.models import GuessCounter, Invitation, InvitationStatus
from scoring.services import Actor, members
from scoring.services.queue import enqueue
from tests.clients import login
from tests.tournaments.helpers import make_competition

pytestmark = pytest.mark.django_db

#: An hour's window of the rates ends at 278 × 3600 = 1,000,800: 800 s after this moment.
MOMENT = 1_000_000.0
WAIT = "800"


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    moment = [MOMENT]
    monkeypatch.setattr(throttles, "now", lambda: moment[0])
    return moment


@pytest.fixture(autouse=True)
def mails_now(monkeypatch):
    """Registration e-mails leave at once (a test's transaction never commits)."""
    monkeypatch.setattr(registration_service, "enqueue_on_commit", enqueue)


def open_competition(club, olga, name="Torneo"):
    competition = make_competition(club, olga, name=name, public=True)
    now = timezone.now()
    registration_services.set_registration(
        competition=competition,
        by=Actor.for_user(olga),
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=7),
        capacity=50,
        waiting_list=True,
        eligibility="anyone",
    )
    return competition


@pytest.fixture
def torneo(club, olga):
    return open_competition(club, olga)


def form_url(competition) -> str:
    return f"/p/{competition.club.slug}/{competition.slug}/register/"


def api_url(competition) -> str:
    return f"/api/v1/competitions/{competition.pk}/registrations/"


def register_page(competition, n: int, address="10.0.0.66", **fields):
    body = {"name": f"Persona {n}", "email": f"persona{n}@example.org"} | fields
    return Client(REMOTE_ADDR=address).post(form_url(competition), body)


def register_api(competition, n: int, address="10.0.0.66", **fields):
    body = {"name": f"Persona {n}", "email": f"persona{n}@example.org"} | fields
    return APIClient(REMOTE_ADDR=address).post(api_url(competition), body, format="json")


def alert(response) -> str:
    """The sentence above the form."""
    found = re.search(r'<div class="error box" role="alert">(.*?)</div>', response.text, re.S)
    return html.unescape(found.group(1)) if found else ""


def the_error(answer) -> dict:
    [error] = answer.json()["errors"]
    return error


# -- registration ---------------------------------------------------------------------------


def test_one_address_is_refused_after_its_rate_with_what_it_typed_kept(settings, torneo, clock):
    settings.REGISTRATION_RATE_PER_ADDRESS = (3, 3600)
    for n in range(3):
        done = register_page(torneo, n)
        assert done.status_code == 200 and 'id="registration-done"' in done.text
    assert len(mail.outbox) == 3
    refused = register_page(torneo, 3)
    assert refused.status_code == 429 and refused["Retry-After"] == WAIT
    assert alert(refused) == (
        "Too many registrations were sent from your address: wait 14 minutes and try again."
    )
    # The form is shown again with what was typed.
    assert 'value="Persona 3"' in refused.text and 'value="persona3@example.org"' in refused.text
    # Nothing stored, nothing sent.
    assert Registration.objects.filter(competition=torneo).count() == 3
    assert len(mail.outbox) == 3
    # Another address registers; the first one again in the next hour.
    assert register_page(torneo, 4, address="10.0.0.67").status_code == 200
    clock[0] += 800
    assert register_page(torneo, 5).status_code == 200
    assert len(mail.outbox) == 5


def test_the_api_refuses_with_429_retry_after_and_a_sentence(settings, torneo):
    settings.REGISTRATION_RATE_PER_ADDRESS = (2, 3600)
    assert [register_api(torneo, n).status_code for n in range(2)] == [201, 201]
    refused = register_api(torneo, 2)
    assert refused.status_code == 429 and refused["Retry-After"] == WAIT
    assert the_error(refused) == {
        "hand": None,
        "field": None,
        "code": "throttled",
        "message": "Too many registrations were sent from your address: wait 14 minutes and "
        "try again.",
    }
    assert not Registration.objects.filter(email="persona2@example.org").exists()
    assert len(mail.outbox) == 2


def test_one_e_mail_address_is_limited_whatever_the_competition_and_address(
    settings, club, olga, torneo
):
    settings.REGISTRATION_RATE_PER_EMAIL = (2, 3600)
    others = [open_competition(club, olga, name=f"Torneo {n}") for n in (2, 3)]
    anna = {"email": "anna@example.org"}
    assert register_api(torneo, 0, address="10.0.0.1", **anna).status_code == 201
    assert register_api(others[0], 1, address="10.0.0.2", **anna).status_code == 201
    # The same address in another spelling is the same inbox.
    refused = register_api(others[1], 2, address="10.0.0.3", email="ANNA@Example.org")
    assert refused.status_code == 429 and refused["Retry-After"] == WAIT
    assert "for anna@example.org" in the_error(refused)["message"].lower()
    assert not Registration.objects.filter(competition=others[1]).exists()
    assert [m.to for m in mail.outbox] == [["anna@example.org"]] * 2


def test_a_pairs_partner_address_counts_too(settings, club, olga):
    settings.REGISTRATION_RATE_PER_EMAIL = (1, 3600)
    coppie = make_competition(
        club,
        olga,
        name="Coppie",
        rulesets=["briscola"],
        options={"briscola": {"format": "pairs"}},
        format="swiss",
        public=True,
    )
    registration_services.set_registration(
        competition=coppie,
        by=Actor.for_user(olga),
        opens_at=timezone.now() - timedelta(hours=1),
        closes_at=timezone.now() + timedelta(days=7),
        capacity=10,
        waiting_list=True,
        eligibility="anyone",
    )
    pair = {"partner_name": "Bea", "partner_email": "bea@example.org"}
    assert register_api(coppie, 0, address="10.0.0.1", **pair).status_code == 201
    # Bea's inbox had its e-mail for the hour: a second pair naming her is refused.
    refused = register_api(coppie, 1, address="10.0.0.2", **pair)
    assert refused.status_code == 429 and "bea@example.org" in the_error(refused)["message"]
    assert Registration.objects.filter(competition=coppie).count() == 1


def test_one_competition_is_limited_whatever_the_addresses(settings, club, olga, torneo):
    settings.REGISTRATION_RATE_PER_COMPETITION = (3, 3600)
    for n in range(3):
        assert register_api(torneo, n, address=f"10.0.1.{n}").status_code == 201
    refused = register_api(torneo, 3, address="10.0.1.3")
    assert refused.status_code == 429 and refused["Retry-After"] == WAIT
    assert the_error(refused)["message"] == (
        "This competition is taking too many registrations at once: wait 14 minutes and try again."
    )
    assert Registration.objects.filter(competition=torneo).count() == 3
    assert len(mail.outbox) == 3
    # Another competition of the club is not held up.
    other = open_competition(club, olga, name="Torneo 2")
    assert register_api(other, 4, address="10.0.1.4").status_code == 201


def test_a_refused_address_does_not_use_up_the_competitions_rate(settings, torneo):
    settings.REGISTRATION_RATE_PER_ADDRESS = (1, 3600)
    settings.REGISTRATION_RATE_PER_COMPETITION = (2, 3600)
    assert register_api(torneo, 0).status_code == 201
    for n in range(1, 20):
        assert register_api(torneo, n).status_code == 429
    assert register_api(torneo, 20, address="10.0.0.99").status_code == 201


def test_a_registration_the_service_refuses_gives_its_count_back(settings, torneo):
    settings.REGISTRATION_RATE_PER_ADDRESS = (2, 3600)
    assert register_api(torneo, 0).status_code == 201
    twice = register_api(torneo, 1, email="persona0@example.org")  # registered already
    assert twice.status_code == 400 and the_error(twice)["field"] == "email"
    twice_page = register_page(torneo, 1, email="persona0@example.org")
    assert twice_page.status_code == 400
    assert register_api(torneo, 2).status_code == 201


def test_signed_in_registrations_are_not_counted_per_address(settings, torneo, olga, sara):
    """A club room is one address; an account was throttled when it was made."""
    settings.REGISTRATION_RATE_PER_ADDRESS = (1, 3600)
    for user in (olga, sara):
        user.email = f"{user.username}@club.example"
        user.save()
        client = login(user)
        client.defaults["REMOTE_ADDR"] = "10.0.0.66"
        done = client.post(form_url(torneo), {"name": user.username, "email": ""})
        assert done.status_code == 200 and 'id="registration-done"' in done.text


def test_the_organizers_page_says_how_many_were_refused_and_when(settings, torneo, olga):
    page = login(olga).get(f"/c/{torneo.club.slug}/k/{torneo.slug}/registration/")
    assert 'id="registration-refusals"' not in page.text
    settings.REGISTRATION_RATE_PER_ADDRESS = (1, 3600)
    register_api(torneo, 0)
    for n in range(1, 4):
        assert register_api(torneo, n).status_code == 429
    assert register_page(torneo, 4).status_code == 429
    counted = RegistrationRefusals.objects.get(competition=torneo)
    assert counted.refused == 4 and counted.last_reason == "address"
    page = login(olga).get(f"/c/{torneo.club.slug}/k/{torneo.slug}/registration/")
    found = re.search(r'id="registration-refusals">(.*?)</p>', page.text, re.S)
    assert found, page.text
    shown = " ".join(html.unescape(found.group(1)).split())
    last = timezone.localtime(counted.last_at, timezone.get_current_timezone())
    assert "Registration was throttled: 4 registrations were refused" in shown
    assert "The last came from an address that had sent too many." in shown
    assert last.strftime("%Y") in shown


def test_the_refusal_is_said_in_the_visitors_language(settings, torneo):
    settings.REGISTRATION_RATE_PER_ADDRESS = (1, 3600)
    client = Client(REMOTE_ADDR="10.0.0.66", HTTP_ACCEPT_LANGUAGE="fr")
    client.post(form_url(torneo), {"name": "Anna", "email": "anna@example.org"})
    refused = client.post(form_url(torneo), {"name": "Bruno", "email": "bruno@example.org"})
    assert refused.status_code == 429
    assert alert(refused) == (
        "Trop d’inscriptions ont été envoyées depuis votre adresse : attendez 14 minutes et "
        "réessayez."
    )


@pytest.fixture
def redis_down(settings):
    """The shared cache is a Redis that does not answer (nothing listens on that port)."""
    settings.CACHES = {
        "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": "redis://127.0.0.1:8499/15"}
    }
    yield caches["default"]


def test_the_rates_count_for_every_process_while_redis_is_down(settings, torneo, redis_down):
    settings.REGISTRATION_RATE_PER_ADDRESS = (2, 3600)
    for n in range(2):
        assert register_api(torneo, n).status_code == 201
        redis_down._local.clear()  # another web process (or this one restarted)
    assert redis_down.down()
    assert register_api(torneo, 2).status_code == 429
    assert GuessCounter.objects.filter(key__startswith="rate:register-address:").exists()


# -- sign-up and invitations ----------------------------------------------------------------

FORM = {
    "username": "nina",
    "email": "nina@club.example",
    "password1": "sette-bello-denari",
    "password2": "sette-bello-denari",
}


def sign_up(n: int, address="10.0.0.66", **fields):
    body = FORM | {"username": f"nina{n}", "email": f"nina{n}@club.example"} | fields
    return Client(REMOTE_ADDR=address).post("/signup/", body)


def test_sign_up_is_limited_per_address(settings, django_capture_on_commit_callbacks):
    settings.SIGNUP = "open"
    settings.SIGNUP_RATE_PER_ADDRESS = (2, 3600)
    with django_capture_on_commit_callbacks(execute=True):
        assert [sign_up(n).status_code for n in range(2)] == [200, 200]
        refused = sign_up(2)
    assert refused.status_code == 429 and refused["Retry-After"] == WAIT
    text = html.unescape(refused.content.decode())
    assert "Too many accounts were asked for from your address: wait 14 minutes" in text
    assert 'value="nina2"' in text and 'value="nina2@club.example"' in text
    assert not get_user_model().objects.filter(username="nina2").exists()
    assert [m.to for m in mail.outbox] == [["nina0@club.example"], ["nina1@club.example"]]
    assert sign_up(3, address="10.0.0.67").status_code == 200


def test_sign_up_is_limited_per_e_mail_address(settings):
    """An address whose account was removed (never confirmed, say) is not mailed again and
    again from many addresses."""
    settings.SIGNUP = "open"
    settings.SIGNUP_RATE_PER_EMAIL = (1, 3600)
    assert sign_up(0, address="10.0.0.1", email="nina@club.example").status_code == 200
    get_user_model().objects.filter(email="nina@club.example").delete()
    refused = sign_up(1, address="10.0.0.2", email="Nina@Club.example")
    assert refused.status_code == 429 and refused["Retry-After"] == WAIT
    assert "Too many accounts were asked for Nina@club.example" in html.unescape(refused.text)
    assert not get_user_model().objects.exists()


def test_one_invitation_link_makes_accounts_only_at_its_rate(settings, club, olga):
    invited = members.invite(club=club, by=Actor.for_user(olga), role="member")
    settings.INVITATION_RATE_PER_INVITATION = (1, 3600)
    token = {"invitation": invited.token}
    first = sign_up(0, address="10.0.0.1", **token)
    assert first.status_code == 302
    refused = sign_up(1, address="10.0.0.2", **token)
    assert refused.status_code == 429 and refused["Retry-After"] == WAIT
    assert "This invitation was tried too often" in html.unescape(refused.text)
    assert list(get_user_model().objects.filter(username__startswith="nina").values_list(
        "username", flat=True
    )) == ["nina0"]  # fmt: skip


def test_answering_invitations_is_limited_per_address(settings, club, olga, oscar):
    settings.INVITATION_RATE_PER_ADDRESS = (1, 3600)
    first, second = (
        members.invite(club=club, by=Actor.for_user(olga), role="member") for _ in "12"
    )
    guest = Client(REMOTE_ADDR="10.0.0.66")
    assert guest.post(f"/invitation/{first.token}/", {"action": "decline"}).status_code == 302
    refused = guest.post(f"/invitation/{second.token}/", {"action": "decline"})
    assert refused.status_code == 429 and refused["Retry-After"] == WAIT
    text = html.unescape(refused.text)
    assert "Too many invitations were answered from your address: wait 14 minutes" in text
    assert 'value="decline"' in text  # the buttons are still there
    assert Invitation.objects.get(pk=second.invitation.pk).status == InvitationStatus.PENDING
    # Accepting counts too; from another address it goes through.
    oscars = login(oscar)
    oscars.defaults["REMOTE_ADDR"] = "10.0.0.66"
    assert oscars.post(f"/invitation/{second.token}/", {"action": "accept"}).status_code == 429
    oscars.defaults["REMOTE_ADDR"] = "10.0.0.67"
    assert oscars.post(f"/invitation/{second.token}/", {"action": "accept"}).status_code == 302
    assert Invitation.objects.get(pk=second.invitation.pk).status == InvitationStatus.ACCEPTED


# -- the settings ---------------------------------------------------------------------------


def test_a_rate_reads_as_drf_writes_it():
    assert parse_rate("20/hour") == (20, 3600)
    assert parse_rate(" 5/m ") == (5, 60)
    assert parse_rate("100/day") == (100, 86400)
    assert parse_rate("off") is None
    for bad in ("", "20", "0/hour", "20/week", "-1/h", "twenty/hour"):
        with pytest.raises(ValueError):
            parse_rate(bad)


def test_a_rate_off_limits_nothing(settings, torneo):
    settings.REGISTRATION_RATE_PER_ADDRESS = None
    settings.REGISTRATION_RATE_PER_COMPETITION = None
    assert {register_api(torneo, n).status_code for n in range(25)} == {201}


def test_the_schema_declares_the_429_with_retry_after():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    answer = schema["paths"]["/api/v1/competitions/{competition_id}/registrations/"]["post"]
    refused = answer["responses"]["429"]
    assert "Retry-After" in refused["headers"]
    assert "Too many registrations" in refused["description"]
