"""The club's own settings (issue 23, point 4): its owners change its name, time zone, language
and public results on a page and through the API, each change audited; the address stays. The
schedule and the calendar follow the time zone; the club's language is its pages' for a visitor
who asks for none the site speaks."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from scoring import services
from scoring.models import AuditEvent, Club
from scoring.rules import RuleViolation
from scoring.services import NotAllowed
from tests.builders import by
from tests.clients import api_as, field_error, login
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

PAGE = "/c/uno/settings/"
API = "/api/v1/clubs/uno/"


def settings_of(club) -> tuple:
    club.refresh_from_db()
    return club.name, club.slug, club.time_zone, club.language, club.results_public


def test_an_owner_changes_the_settings_and_each_change_is_audited(club, olga):
    before = settings_of(club)
    assert before == ("Circolo Uno", "uno", "Europe/Rome", "it", False)
    services.update_club(
        club=club, by=by(olga), name="  Circolo   Primo ", time_zone="Europe/London", language="it"
    )
    assert settings_of(club) == ("Circolo Primo", "uno", "Europe/London", "it", False)
    (event,) = AuditEvent.objects.filter(club=club, action="update_club")
    assert event.actor == olga
    assert event.before == {"name": "Circolo Uno", "time_zone": "Europe/Rome"}
    assert event.after == {"name": "Circolo Primo", "time_zone": "Europe/London"}
    services.update_club(club=club, by=by(olga), name="Circolo Primo")  # nothing changes
    assert AuditEvent.objects.filter(club=club, action="update_club").count() == 1
    history = login(olga).get("/c/uno/members/").content.decode()
    assert "club settings changed" in history


def test_only_owners_change_the_settings(club, olga, oscar, sara, bea):
    for user in (oscar, sara, bea):
        with pytest.raises(NotAllowed):
            services.update_club(club=club, by=by(user), name="Presa")
    assert login(oscar).get(PAGE).status_code == 403  # an organizer
    assert login(sara).post(PAGE, {"name": "Presa"}).status_code == 403
    assert login(bea).get(PAGE).status_code == 404  # outside the club
    assert Client().get(PAGE).status_code == 302  # to the login
    assert api_as(oscar).patch(API, {"name": "Presa"}, format="json").status_code == 403
    assert api_as(bea).patch(API, {"name": "Presa"}, format="json").status_code == 404
    assert settings_of(club)[0] == "Circolo Uno"
    assert not AuditEvent.objects.filter(club=club, action="update_club").exists()
    olga_page = login(olga).get("/c/uno/").content.decode()
    assert 'href="/c/uno/settings/"' in olga_page
    assert 'href="/c/uno/settings/"' not in login(oscar).get("/c/uno/").content.decode()


def test_the_page_saves_and_puts_refusals_next_to_their_field(club, olga):
    client = login(olga)
    page = client.get(PAGE).content.decode()
    assert 'value="Circolo Uno"' in page and "/c/uno/" in page
    good = {"name": "Circolo Primo", "time_zone": "Europe/Paris", "language": "fr"}
    assert client.post(PAGE, good | {"results_public": "on"}).status_code == 302
    assert settings_of(club) == ("Circolo Primo", "uno", "Europe/Paris", "fr", True)
    bad = client.post(PAGE, good | {"name": " ", "time_zone": "Mars/Base"})
    assert bad.status_code == 400
    html = bad.content.decode()
    assert field_error(html, "name") and field_error(html, "time_zone")
    assert field_error(html, "language") is None
    assert settings_of(club) == ("Circolo Primo", "uno", "Europe/Paris", "fr", True)


def test_the_service_names_the_bad_field(club, olga):
    for changes, field in (
        ({"name": " "}, "name"),
        ({"name": "x" * 121}, "name"),
        ({"name": "Bad\u202ename"}, "name"),
        ({"time_zone": "Mars/Base"}, "time_zone"),
        ({"language": "de"}, "language"),
        ({"results_public": "yes"}, "results_public"),
    ):
        with pytest.raises(RuleViolation) as refused:
            services.update_club(club=club, by=by(olga), **changes)
        assert [p.field for p in refused.value.problems] == [field], changes
    assert settings_of(club) == ("Circolo Uno", "uno", "Europe/Rome", "it", False)


def test_the_api_reads_and_patches_the_club(club, olga, oscar):
    api = api_as(olga)
    assert api.get(API).json() == {
        "slug": "uno",
        "name": "Circolo Uno",
        "time_zone": "Europe/Rome",
        "language": "it",
        "results_public": False,
        "currency": "EUR",
        "role": "owner",
    }
    answer = api.patch(
        API, {"time_zone": "America/New_York", "results_public": True}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["time_zone"] == "America/New_York" and answer.json()["results_public"]
    for body, field in (
        ({"time_zone": "Mars/Base"}, "time_zone"),
        ({"language": "de"}, "language"),
        ({"results_public": "yes"}, "results_public"),
        ({"name": ""}, "name"),
        ({"slug": "altro"}, "slug"),
        ({"currency": "XYZ"}, "currency"),
    ):
        refused = api.patch(API, body, format="json")
        assert refused.status_code == 400, body
        assert {e["field"] for e in refused.json()["errors"]} == {field}, body
    assert settings_of(club) == ("Circolo Uno", "uno", "America/New_York", "it", True)
    event = AuditEvent.objects.get(club=club, action="update_club")
    assert event.via == "api" and event.after == {
        "time_zone": "America/New_York",
        "results_public": True,
    }


def test_the_schedule_and_the_calendar_follow_the_time_zone(club, olga):
    competition = tournaments.create_competition(
        club=club, by=by(olga), name="Coppa", rulesets=["terziglio"], public=True
    )
    tournaments.add_round(
        competition=competition,
        by=by(olga),
        date=dt.date(2025, 3, 1),
        start_time=dt.time(21, 0),
        duration_minutes=90,
    )
    feed = Client().get("/p/uno/coppa/calendar.ics")
    assert "DTSTART:20250301T200000Z" in feed.content.decode()  # 21:00 in Rome
    assert Client().get("/p/uno/coppa/").content.decode().count("Europe/Rome") >= 1
    login(olga).post(PAGE, {"name": "Circolo Uno", "time_zone": "Europe/London", "language": "it"})
    again = Client().get("/p/uno/coppa/calendar.ics", HTTP_IF_NONE_MATCH=feed["ETag"])
    assert again.status_code == 200
    assert "DTSTART:20250301T210000Z" in again.content.decode()  # 21:00 in London
    assert "Europe/London" in again.content.decode()
    assert "Europe/London" in Client().get("/p/uno/coppa/").content.decode()


def test_the_clubs_language_is_its_pages_for_a_visitor_who_asks_for_none(club, olga):
    services.update_club(club=club, by=by(olga), language="fr", results_public=True)
    assert Club.objects.get(pk=club.pk).language == "fr"
    nobody = Client(HTTP_ACCEPT_LANGUAGE="")
    assert '<html lang="fr">' in nobody.get("/c/uno/").content.decode()
    german = Client(HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert '<html lang="fr">' in german.get("/c/uno/").content.decode()
    italian = Client(HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9")
    assert '<html lang="it">' in italian.get("/c/uno/").content.decode()
    chosen = Client(HTTP_ACCEPT_LANGUAGE="")
    chosen.cookies["django_language"] = "en"
    assert '<html lang="en">' in chosen.get("/c/uno/").content.decode()
    # Pages that are no club's keep the site's language.
    assert '<html lang="en">' in nobody.get("/").content.decode()
