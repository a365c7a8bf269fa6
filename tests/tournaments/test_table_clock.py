"""The round's clock on every table (issue 37 point 6): what a table's phone is sent (the server's
now, the deadline, its own extra time, the last-hand warning), the director's settings through
the services, the round page and the API, and the ``clock`` event each table's phones hear."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from scoring.rules import RuleViolation
from scoring.services import Actor, NotAllowed
from tests.clients import api_as, login
from tests.tournaments.helpers import codes, published_night
from tournaments import services
from tournaments.models import CompetitionEvent, Table
from tournaments.presenters.clock import clock_of

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 2, 20, 0, tzinfo=dt.UTC)


@pytest.fixture
def night(club, olga):
    return published_night(club, olga, 7, slug="notte")


def tables(night) -> tuple[Table, Table]:
    one, two = Table.objects.select_related("round").filter(round=night).order_by("number")
    return one, two


def ms(moment: dt.datetime) -> int:
    return int(moment.timestamp() * 1000)


def test_a_running_timer_is_sent_as_the_servers_now_and_a_deadline(night):
    one, _two = tables(night)
    Table.objects.filter(pk=one.pk)
    night.timer_started_at, night.timer_remaining = T0, 45 * 60
    night.save()
    one.round = night
    shown = clock_of(one, T0 + dt.timedelta(minutes=5))
    assert shown | {"text": ""} == {
        "state": "running",
        "now": ms(T0 + dt.timedelta(minutes=5)),
        "deadline": ms(T0 + dt.timedelta(minutes=45)),
        "left": 40 * 60,
        "extra": 0,
        "extra_minutes": 0,
        "text": "",
        "last_hand": None,
    }
    assert shown["text"] == "40:00"


def test_an_idle_or_paused_timer_is_sent_as_what_is_left(night):
    one, _two = tables(night)
    shown = clock_of(one, T0)
    assert (shown["state"], shown["left"], shown["deadline"]) == ("idle", 90 * 60, None)
    night.timer_remaining = 754
    night.save()
    one.round = night
    assert clock_of(one, T0) | {"now": 0} == clock_of(one, T0 + dt.timedelta(hours=1)) | {"now": 0}
    assert clock_of(one, T0)["state"] == "paused"


def test_extra_time_is_on_that_tables_clock_only_and_keeps_it_running_after_the_others_end(
    night, olga
):
    one, two = tables(night)
    services.give_extra_time(table=two, by=Actor.for_user(olga), minutes=5)
    night.refresh_from_db()
    night.timer_started_at, night.timer_remaining = T0, 10 * 60
    night.save()
    one, two = tables(night)
    later = T0 + dt.timedelta(minutes=12)
    assert (clock_of(one, later)["state"], clock_of(one, later)["left"]) == ("over", 0)
    assert clock_of(two, later) | {"now": 0, "text": ""} == {
        "state": "running",
        "now": 0,
        "deadline": ms(T0 + dt.timedelta(minutes=15)),
        "left": 3 * 60,
        "extra": 300,
        "extra_minutes": 5,
        "text": "",
        "last_hand": None,
    }
    event = CompetitionEvent.objects.get(action="clock_extra_time")
    assert event.data == {"number": 1, "table": 2, "minutes": 5, "before": 0}


def test_the_last_hand_warning_is_set_by_the_director_and_sent_to_every_table(night, olga, sara):
    services.set_last_hand(round_=night, by=Actor.for_user(olga), minutes=10)
    one, two = tables(night)
    assert clock_of(one, T0)["last_hand"] == clock_of(two, T0)["last_hand"] == 600
    services.set_last_hand(round_=night, by=Actor.for_user(olga), minutes=0)
    night.refresh_from_db()
    assert night.last_hand_minutes is None
    with pytest.raises(NotAllowed):
        services.set_last_hand(round_=night, by=Actor.for_user(sara), minutes=5)
    for bad, code in ((-1, "range"), (121, "range"), ("5", "type"), (True, "type")):
        with pytest.raises(RuleViolation) as refused:
            services.set_last_hand(round_=night, by=Actor.for_user(olga), minutes=bad)
        assert codes(refused.value) == {("last_hand_minutes", code)}
    with pytest.raises(RuleViolation) as refused:
        services.give_extra_time(table=one, by=Actor.for_user(olga), minutes=500)
    assert codes(refused.value) == {("extra_minutes", "range")}


def test_the_table_phone_reads_its_clock_as_json_with_the_servers_time(night, olga):
    one, two = tables(night)
    services.give_extra_time(table=one, by=Actor.for_user(olga), minutes=3)
    services.set_round_timer(round_=night, by=Actor.for_user(olga), action="start")
    link = one.game.table_link
    phone = Client()
    phone.post(f"/t/{link.token}/", {"pin": link.pin})
    before = ms(timezone.now())
    body = phone.get(f"/g/{one.game_id}/clock/").json()
    assert body["state"] == "running" and body["extra"] == 180
    assert before <= body["now"] <= ms(timezone.now())
    assert body["deadline"] - body["now"] == pytest.approx((90 + 3) * 60 * 1000, abs=2000)
    other = phone.get(f"/g/{two.game_id}/clock/").json()  # a public competition's game
    assert other["extra"] == 0 and other["deadline"] < body["deadline"]
    page = phone.get(f"/g/{one.game_id}/").content.decode()
    assert 'data-extra="180"' in page and "+3 min for this table" in page
    board = phone.get(f"/g/{one.game_id}/board/").content.decode()
    assert 'id="table-clock"' in board and 'data-state="running"' in board


def test_the_director_sets_the_warning_and_extra_time_on_the_round_page(night, olga):
    one, _two = tables(night)
    organizer = login(olga)
    page = organizer.get("/c/uno/k/notte/rounds/1/").content.decode()
    assert "Give extra time" in page and "Set the warning" in page
    answer = organizer.post("/c/uno/k/notte/rounds/1/clock/", {"last_hand_minutes": "8"})
    assert answer.status_code == 302
    answer = organizer.post(
        "/c/uno/k/notte/rounds/1/clock/", {"table": str(one.pk), "extra_minutes": "4"}
    )
    assert answer.status_code == 302
    night.refresh_from_db()
    one.refresh_from_db()
    assert (night.last_hand_minutes, one.extra_seconds) == (8, 240)
    # A bad number changes nothing and says why.
    answer = organizer.post(
        "/c/uno/k/notte/rounds/1/clock/", {"last_hand_minutes": "lots"}, follow=True
    )
    assert "enter" in answer.content.decode().lower()
    night.refresh_from_db()
    assert night.last_hand_minutes == 8


def test_the_api_sets_the_clock_and_names_a_bad_field(night, olga, sara):
    competition_id = night.competition_id
    url = f"/api/v1/competitions/{competition_id}/rounds/1/clock/"
    bad = api_as(olga).post(url, {"last_hand_minutes": 999}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "last_hand_minutes"
    assert api_as(sara).post(url, {"last_hand_minutes": 5}, format="json").status_code == 403
    done = api_as(olga).post(url, {"last_hand_minutes": 5}, format="json")
    assert done.status_code == 200 and done.json()["last_hand_minutes"] == 5
    extra = f"/api/v1/competitions/{competition_id}/rounds/1/tables/2/extra-time/"
    bad = api_as(olga).post(extra, {"minutes": "two"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "minutes"
    done = api_as(olga).post(extra, {"minutes": 2}, format="json")
    assert done.status_code == 200 and done.json()["clock"]["extra"] == 120
    assert (
        api_as(olga)
        .post(
            f"/api/v1/competitions/{competition_id}/rounds/1/tables/9/extra-time/",
            {"minutes": 2},
            format="json",
        )
        .status_code
        == 404
    )
    _one, two = tables(night)
    shown = api_as(sara).get(f"/api/v1/games/{two.game_id}/clock/").json()
    assert shown["last_hand"] == 300 and shown["extra"] == 120


@pytest.mark.django_db(transaction=True)
def test_each_tables_phones_hear_a_clock_event_when_the_timer_or_its_settings_change(
    night, olga, streams
):
    one, two = tables(night)
    link = one.game.table_link
    phone = Client()
    phone.post(f"/t/{link.token}/", {"pin": link.pin})
    stream = streams(f"/g/{one.game_id}/events/", client=phone)
    assert stream.next()["event"] == "hello"
    by = Actor.for_user(olga)
    services.set_round_timer(round_=night, by=by, action="start")
    assert stream.next()["event"] == "clock"
    services.set_last_hand(round_=night, by=by, minutes=5)
    assert stream.next()["event"] == "clock"
    services.give_extra_time(table=two, by=by, minutes=5)
    assert stream.next()["event"] == "clock"  # every table asks again; only table 2's changed
