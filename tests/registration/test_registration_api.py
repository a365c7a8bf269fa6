"""Registration through the API and the pages (issue 24, points 1-3 and 7): every action, each
bad input a 400 naming its field with nothing changed, and a registrant's address read only by
the organizers of the club."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from registration import services as registration_services
from registration.models import Registration
from registration.services import registration as registration_service
from scoring.services import Actor
from scoring.services.queue import enqueue
from tests.clients import api_as, field_error, login
from tests.tournaments.helpers import make_competition
from tournaments import services
from tournaments.models import CheckIn, CompetitionEvent

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def mails_now(monkeypatch):
    monkeypatch.setattr(registration_service, "enqueue_on_commit", enqueue)


@pytest.fixture
def torneo(club, olga):
    competition = make_competition(club, olga, name="Torneo", public=True)
    now = timezone.now()
    registration_services.set_registration(
        competition=competition,
        by=Actor.for_user(olga),
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=3),
        capacity=1,
    )
    return competition


def token_of(message) -> str:
    return re.search(r"/r/([\w-]+)/", message.body).group(1)


def errors(response) -> set[tuple[str, str]]:
    return {(e["field"], e["code"]) for e in response.json()["errors"]}


def test_the_organizer_opens_registration_through_the_api(club, olga):
    competition = make_competition(club, olga, name="Coppa", public=True)
    url = f"/api/v1/competitions/{competition.pk}/registration/"
    body = {
        "opens_at": "2026-05-01T09:00:00+02:00",
        "closes_at": "2026-05-20T20:00:00+02:00",
        "capacity": 8,
        "unit": "tables",
        "eligibility": "accounts",
    }
    assert api_as(None).put(url, body, format="json").status_code in (401, 403)
    bad = api_as(olga).put(url, body | {"closes_at": "next week"}, format="json")
    assert bad.status_code == 400 and errors(bad) == {("closes_at", "invalid")}
    bad = api_as(olga).put(url, body | {"closes_at": body["opens_at"]}, format="json")
    assert bad.status_code == 400 and errors(bad) == {("closes_at", "inconsistent")}
    assert not registration_service.RegistrationSettings.objects.exists()
    answer = api_as(olga).put(url, body, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["places"] == 8 * 3 and answer.json()["unit"] == "tables"


def test_register_confirm_wait_withdraw_and_promote_through_the_api(torneo, olga):
    anon = api_as(None)
    url = f"/api/v1/competitions/{torneo.pk}/registrations/"
    first = anon.post(url, {"name": "Anna", "email": "anna@example.org"}, format="json")
    assert first.status_code == 201 and first.json()["status"] == "unconfirmed"
    assert "email" not in first.json()
    confirm = anon.post(
        "/api/v1/registrations/confirm/", {"token": token_of(mail.outbox[-1])}, format="json"
    )
    assert confirm.json()["status"] == "entered"
    anna_link = token_of(mail.outbox[-1])
    anon.post(url, {"name": "Bruno", "email": "bruno@example.org"}, format="json")
    confirm = anon.post(
        "/api/v1/registrations/confirm/", {"token": token_of(mail.outbox[-1])}, format="json"
    )
    assert confirm.json() | {"id": 0} == {
        "id": 0, "status": "waiting", "position": 1, "name": "Bruno", "entry": None,
    }  # fmt: skip
    again = anon.post(
        "/api/v1/registrations/confirm/", {"token": token_of(mail.outbox[-2])}, format="json"
    )
    assert again.status_code == 400 and errors(again) == {("token", "not_allowed")}
    assert "used" in again.json()["errors"][0]["message"]
    twice = anon.post(url, {"name": "Anna R", "email": "ANNA@example.org"}, format="json")
    assert twice.status_code == 400 and errors(twice) == {("email", "duplicate")}
    mail.outbox.clear()
    gone = anon.post("/api/v1/registrations/withdraw/", {"token": anna_link}, format="json")
    assert gone.json()["status"] == "withdrawn"
    assert [m.to for m in mail.outbox] == [["bruno@example.org"]]
    bruno = Registration.objects.get(name="Bruno")
    assert bruno.status == "entered"


def test_the_waiting_list_through_the_api(torneo, olga, club):
    api = api_as(olga)
    for name in ("Anna", "Bruno", "Carla"):
        Client().post(
            f"/p/{club.slug}/{torneo.slug}/register/",
            {"name": name, "email": f"{name.lower()}@example.org"},
        )
        api_as(None).post(
            "/api/v1/registrations/confirm/", {"token": token_of(mail.outbox[-1])}, format="json"
        )
    url = f"/api/v1/competitions/{torneo.pk}/waiting-list/"
    waiting = [r["id"] for r in api.get(url).json()["results"]]
    assert len(waiting) == 2
    bad = api.put(url, {"order": waiting[:1]}, format="json")
    assert bad.status_code == 400 and errors(bad) == {("order", "inconsistent")}
    order = api.put(url, {"order": waiting[::-1]}, format="json").json()
    assert [r["id"] for r in order] == waiting[::-1] and order[0]["email"]
    promoted = api.post(
        f"/api/v1/competitions/{torneo.pk}/registrations/{waiting[1]}/promote/", format="json"
    )
    assert promoted.json()["status"] == "entered"
    assert CompetitionEvent.objects.filter(action="registration_reordered").exists()


def test_a_registrants_address_is_read_only_by_the_organizers(torneo, olga, sara, club):
    Client().post(
        f"/p/{club.slug}/{torneo.slug}/register/", {"name": "Anna", "email": "anna@example.org"}
    )
    # Organizers read it, on the page and in the API.
    assert "anna@example.org" in login(olga).get(f"/c/uno/k/{torneo.slug}/registration/").text
    listed = api_as(olga).get(f"/api/v1/competitions/{torneo.pk}/registrations/").json()["results"]
    assert listed[0]["email"] == "anna@example.org"
    # Nobody else: another member (a scorer), anyone on the public pages and the public API.
    assert login(sara).get(f"/c/uno/k/{torneo.slug}/registration/").status_code == 403
    assert api_as(sara).get(f"/api/v1/competitions/{torneo.pk}/registrations/").status_code == 403
    assert api_as(None).get(f"/api/v1/competitions/{torneo.pk}/registrations/").status_code in (
        401,
        403,
    )
    for client in (Client(), login(sara)):
        for url in (
            f"/p/uno/{torneo.slug}/",
            f"/p/uno/{torneo.slug}/register/",
            f"/api/v1/competitions/{torneo.pk}/registration/",
            f"/api/v1/competitions/{torneo.pk}/entries/",
        ):
            answer = client.get(url)
            assert answer.status_code == 200, url
            assert "anna@example.org" not in answer.content.decode(), url


def test_the_public_page_links_the_form_and_refusals_sit_next_to_their_field(torneo, club):
    public = Client().get(f"/p/uno/{torneo.slug}/").text
    assert f"/p/uno/{torneo.slug}/register/" in public
    form = f"/p/uno/{torneo.slug}/register/"
    page = Client().post(form, {"name": "Anna", "email": "not-an-address"})
    assert page.status_code == 400 and field_error(page.text, "email")
    Client().post(form, {"name": "Anna", "email": "anna@example.org"})
    page = Client().post(form, {"name": "Anna Rossi", "email": "anna@example.org"})
    assert page.status_code == 400
    assert "already registered" in field_error(page.text, "email")
    assert 'value="Anna Rossi"' in page.text  # what was typed stays
    assert Registration.objects.count() == 1


def test_the_link_page_confirms_on_a_button_and_names_a_used_link(torneo, club):
    Client().post(f"/p/uno/{torneo.slug}/register/", {"name": "Anna", "email": "a@example.org"})
    token = token_of(mail.outbox[-1])
    phone = Client()
    shown = phone.get(f"/r/{token}/")
    assert shown.status_code == 200 and Registration.objects.get().status == "unconfirmed"
    assert phone.post(f"/r/{token}/", {"action": "confirm"}).status_code == 302
    assert Registration.objects.get().status == "entered"
    # The page after the button says it was done, and only that (issue 32, point 8).
    done = phone.get(f"/r/{token}/")
    assert done.status_code == 200 and "Confirmed, thank you." in done.text
    assert "already used" not in done.text
    used = phone.get(f"/r/{token}/")
    assert used.status_code == 200 and "already used" in used.text
    assert "Confirmed, thank you." not in used.text
    again = phone.post(f"/r/{token}/", {"action": "confirm"})
    assert again.status_code == 400 and "already used" in again.text
    unknown = phone.get("/r/nonsense/")
    assert unknown.status_code == 404 and "not valid" in unknown.text


def test_self_check_in_through_the_api_and_the_poster_page(torneo, olga, club, sara):
    sara.email = "sara@example.org"
    sara.save()
    registration_services.register(competition=torneo, by=Actor.for_user(sara), name="Sara")
    round_ = services.add_round(competition=torneo, by=Actor.for_user(olga))
    window = f"/api/v1/competitions/{torneo.pk}/rounds/1/self-check-in/"
    closed = login(sara).post(f"/p/uno/{torneo.slug}/check-in/")
    assert closed.status_code == 400 and "not open" in closed.text
    opened = api_as(olga).post(window, {"minutes": 30}, format="json").json()
    assert opened["open"] and len(opened["missing"]) == 1
    token = token_of(mail.outbox[-1])
    done = api_as(None).post("/api/v1/registrations/check-in/", {"token": token}, format="json")
    assert done.status_code == 200 and done.json() == {"round": 1}
    assert CheckIn.objects.filter(round=round_).count() == 1
    assert login(sara).post(f"/p/uno/{torneo.slug}/check-in/").status_code == 200
    state = api_as(olga).get(window).json()
    assert state["missing"] == [] and len(state["present"]) == 1
    # The organizer sees it on the round page, and on the registration page.
    assert "0 missing" in login(olga).get(f"/c/uno/k/{torneo.slug}/rounds/1/").text
    assert api_as(olga).delete(window).json()["open"] is False
    bad = api_as(None).post("/api/v1/registrations/check-in/", {"token": token}, format="json")
    assert bad.status_code == 400 and errors(bad) == {("round", "not_allowed")}


def test_the_organizer_page_opens_registration_and_the_poster_prints_the_qr(club, olga):
    competition = make_competition(club, olga, name="Coppa", public=True)
    page = login(olga)
    url = f"/c/uno/k/{competition.slug}/registration/"
    assert page.get(url).status_code == 200
    bad = page.post(
        url,
        {"action": "settings", "opens_at": "2026-05-02T10:00", "closes_at": "2026-05-01T10:00",
         "capacity": "10", "unit": "entries", "eligibility": "anyone"},
    )  # fmt: skip
    assert bad.status_code == 400 and field_error(bad.text, "closes_at")
    ok = page.post(
        url,
        {"action": "settings", "opens_at": "2026-05-01T10:00", "closes_at": "2099-05-01T10:00",
         "capacity": "10", "unit": "entries", "eligibility": "anyone", "waiting_list": "on"},
    )  # fmt: skip
    assert ok.status_code == 302
    poster = page.get(f"/c/uno/k/{competition.slug}/registration/poster/").text
    assert "<svg" in poster and f"/p/uno/{competition.slug}/register/" in poster
    poster = page.get(f"/c/uno/k/{competition.slug}/registration/check-in-poster/").text
    assert f"/p/uno/{competition.slug}/check-in/" in poster
