"""Issue 11, point 1: a stray draft round is deleted (gone from the schedule, the public pages
and the calendar feed; the rounds after it move up), a published one never is, and the deletion
is in the competition's events."""

import datetime as dt

import pytest
from django.test import Client

from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.clients import login
from tests.tournaments.helpers import codes, enter, make_competition
from tournaments import services
from tournaments.models import CompetitionEvent, Round, RoundStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(club, olga):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name="Lega", slug="lega", kind="league")
    enter(competition, olga, 6)
    for day in (2, 9, 16, 23):
        services.add_round(
            competition=competition, by=by, date=dt.date(2026, 3, day), start_time=dt.time(21)
        )
    return competition


def test_a_stray_draft_round_is_deleted_from_the_page_and_leaves_the_schedule_and_calendar(
    olga, league
):
    client = login(olga)
    assert "<strong>Night 4</strong>" in Client().get("/p/uno/lega/").content.decode()
    assert client.get("/p/uno/lega/calendar.ics").content.decode().count("BEGIN:VEVENT") == 4
    page = client.get("/c/uno/k/lega/rounds/4/").content.decode()
    assert "Delete round 4" in page
    answer = client.post("/c/uno/k/lega/rounds/4/", {"action": "delete"})
    assert answer.status_code == 302 and answer["Location"] == "/c/uno/k/lega/"
    assert list(league.rounds.values_list("number", flat=True)) == [1, 2, 3]
    calendar = Client().get("/p/uno/lega/calendar.ics").content.decode()
    assert calendar.count("BEGIN:VEVENT") == 3 and "20260323" not in calendar
    public = Client().get("/p/uno/lega/").content.decode()
    assert "<strong>Night 4</strong>" not in public and "<strong>Night 3</strong>" in public
    assert client.get("/c/uno/k/lega/rounds/4/").status_code == 404
    event = CompetitionEvent.objects.filter(action="delete_round").get()
    assert event.data["number"] == 4 and event.actor == olga
    # The row stays for the events that name it; a new round takes the number again.
    assert Round.with_deleted.filter(competition=league).count() == 4
    again = services.add_round(competition=league, by=Actor.for_user(olga))
    assert again.number == 4


def test_deleting_a_middle_draft_moves_the_later_drafts_up(olga, league):
    by = Actor.for_user(olga)
    services.delete_round(round_=league.rounds.get(number=2), by=by)
    dates = list(league.rounds.order_by("number").values_list("number", "date"))
    assert dates == [(1, dt.date(2026, 3, 2)), (2, dt.date(2026, 3, 16)), (3, dt.date(2026, 3, 23))]


def test_a_drawn_draft_round_loses_its_tables_with_it(olga, league):
    by = Actor.for_user(olga)
    round_ = league.rounds.get(number=4)
    services.generate_round(round_=round_, by=by, seed=1)
    assert round_.tables.exists()
    services.delete_round(round_=round_, by=by)
    assert not round_.tables.exists() and not round_.byes.exists()


def test_a_published_round_and_a_round_before_a_published_one_are_not_deleted(olga, league):
    by = Actor.for_user(olga)
    first, second = league.rounds.order_by("number")[:2]
    services.generate_round(round_=second, by=by, seed=1)
    services.publish_round(round_=second, by=by)
    with pytest.raises(RuleViolation) as refused:
        services.delete_round(round_=second, by=by)
    assert codes(refused.value) == {("round", "not_allowed")}
    client = login(olga)
    answer = client.post("/c/uno/k/lega/rounds/1/", {"action": "delete"})
    assert answer.status_code == 400
    assert "A later round is already published" in answer.content.decode()
    assert league.rounds.filter(status=RoundStatus.PUBLISHED).count() == 1
    assert league.rounds.count() == 4 and first.pk in league.rounds.values_list("pk", flat=True)
    assert not CompetitionEvent.objects.filter(action="delete_round").exists()


def test_a_scorer_cannot_delete_a_round(sara, league):
    answer = login(sara).post("/c/uno/k/lega/rounds/4/", {"action": "delete"})
    assert answer.status_code == 403
    assert league.rounds.count() == 4
