"""Issue 11, point 2: fast setup of rounds. The next round's date, time and game come from the
competition's calendar; check-in is carried from the last round and confirmed with one tap;
after closing a round the page offers the next one."""

import datetime as dt
import re

import pytest

from scoring.models import Game
from scoring.services import Actor
from tests.clients import login
from tests.tournaments.helpers import enter, make_competition, play, terziglio_won_by
from tournaments import services
from tournaments.models import CheckIn, CompetitionEvent

pytestmark = pytest.mark.django_db


def value_of(html, name):
    match = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html)
    return match.group(1) if match else None


def test_the_next_round_is_prefilled_from_the_leagues_calendar_and_rotates_the_games(olga, club):
    by = Actor.for_user(olga)
    make_competition(club, olga, name="Lega", slug="lega", kind="league",
                     rulesets=["terziglio", "briscola"], start_date=dt.date(2026, 3, 5))  # fmt: skip
    client = login(olga)
    page = client.get("/c/uno/k/lega/").content.decode()
    assert value_of(page, "date") == "2026-03-05"  # the first day, before any round
    competition = club.competitions.get()
    services.add_round(competition=competition, by=by, ruleset="terziglio",
                       date=dt.date(2026, 3, 5), start_time=dt.time(21, 0))  # fmt: skip
    page = client.get("/c/uno/k/lega/").content.decode()
    assert value_of(page, "date") == "2026-03-12"  # a week later
    assert value_of(page, "start_time").startswith("21:00")
    assert re.search(r'<option value="briscola" selected>', page)  # the game after terziglio


def test_check_in_is_carried_from_the_last_round_and_confirmed_with_one_tap(olga, club):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, slug="coppa", format="club_night",
                                   kind="league")  # fmt: skip
    entries = enter(competition, olga, 7)
    first = services.add_round(competition=competition, by=by)
    here = [e.pk for e in entries[:6]]
    services.set_check_ins(round_=first, entries=here, by=by)
    services.withdraw_entry(entry=entries[5], by=by)
    second = services.add_round(competition=competition, by=by)
    client = login(olga)
    page = client.get("/c/uno/k/coppa/rounds/2/").content.decode()
    assert "Ticked as at round 1: change who differs, then confirm." in page
    heading = page.split('id="check-in"', 1)[1].split("</summary>", 1)[0]
    assert "(5 ticked as at round 1, not confirmed yet)" in heading
    assert "nobody checked in" not in heading
    ticked = set(map(int, re.findall(r'name="present" value="(\d+)"[^>]*checked', page)))
    assert ticked == set(here[:5])  # the withdrawn one is not offered
    assert "Confirm who is present" in page
    # The one tap: the form as it stands.
    client.post("/c/uno/k/coppa/rounds/2/", {"action": "checkin", "present": sorted(ticked)})
    assert set(CheckIn.objects.filter(round=second).values_list("entry_id", flat=True)) == ticked
    page = client.get("/c/uno/k/coppa/rounds/2/").content.decode()
    assert "Ticked as at round 1" not in page
    assert "5 present" in page.split('id="check-in"', 1)[1].split("</summary>", 1)[0]


def test_a_closed_round_offers_the_next_one(olga, club):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, slug="coppa", kind="league", format="club_night")
    enter(competition, olga, 3)
    first = services.add_round(competition=competition, by=by, date=dt.date(2026, 4, 1),
                               start_time=dt.time(20, 30))  # fmt: skip
    services.generate_round(round_=first, by=by, seed=1)
    services.publish_round(round_=first, by=by)
    game = Game.objects.get(competition_table__round=first)
    play(game, terziglio_won_by(1, 3), olga)
    services.close_round(round_=first, by=by)
    client = login(olga)
    page = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert "Add the next round" in page
    form = page.split('id="next-round"', 1)[1]
    data = {name: value_of(form, name) for name in
            ("action", "ruleset", "date", "start_time", "duration_minutes")}  # fmt: skip
    assert data["date"] == "2026-04-08" and data["start_time"] == "20:30"
    answer = client.post("/c/uno/k/coppa/", data)
    assert answer.status_code == 302 and answer["Location"] == "/c/uno/k/coppa/rounds/2/"
    second = competition.rounds.get(number=2)
    assert (second.date, second.start_time) == (dt.date(2026, 4, 8), dt.time(20, 30))
    assert CompetitionEvent.objects.filter(action="add_round").count() == 2
    page = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert "Go to round 2" in page


def test_a_season_of_weekly_nights_is_planned_in_one_step_with_the_games_in_turn(olga, club):
    make_competition(club, olga, name="Lega", slug="lega", kind="league",
                     rulesets=["terziglio", "briscola"])  # fmt: skip
    client = login(olga)
    answer = client.post("/c/uno/k/lega/", {
        "action": "add_season", "first_date": "2026-09-01", "weekday": "3",
        "start_time": "21:00", "nights": "4", "rulesets": ["briscola", "terziglio"],
        "duration_minutes": "180",
    })  # fmt: skip
    assert answer.status_code == 302
    competition = club.competitions.get()
    rounds = list(competition.rounds.order_by("number").values_list("number", "date", "ruleset"))
    # 1 September 2026 is a Tuesday: the first Thursday is the 3rd.
    assert rounds == [
        (1, dt.date(2026, 9, 3), "briscola"),
        (2, dt.date(2026, 9, 10), "terziglio"),
        (3, dt.date(2026, 9, 17), "briscola"),
        (4, dt.date(2026, 9, 24), "terziglio"),
    ]
    assert all(r.start_time == dt.time(21) for r in competition.rounds.all())
    event = CompetitionEvent.objects.get(action="add_season")
    assert event.data["numbers"] == [1, 2, 3, 4]


def test_a_bad_season_is_refused_next_to_its_field_and_adds_nothing(olga, club):
    make_competition(club, olga, name="Lega", slug="lega", kind="league")
    answer = login(olga).post("/c/uno/k/lega/", {
        "action": "add_season", "first_date": "2026-09-01", "nights": "0",
        "duration_minutes": "180",
    })  # fmt: skip
    assert answer.status_code == 400
    assert 'data-field="nights"' in answer.content.decode()
    assert 'has-error" data-field="nights"' in answer.content.decode()
    assert not club.competitions.get().rounds.exists()


def test_planned_rounds_are_shown_from_the_start(olga, club):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, slug="coppa", planned_rounds=3)
    client = login(olga)
    page = client.get("/c/uno/k/coppa/").content.decode()
    assert "No round yet" not in page
    assert re.findall(r'data-planned="(\d)"', page) == ["1", "2", "3"]
    services.add_round(competition=competition, by=by)
    page = client.get("/c/uno/k/coppa/").content.decode()
    assert re.findall(r'data-planned="(\d)"', page) == ["2", "3"]
    assert "adds and draws every planned round at once" in page


def test_a_league_names_its_rounds_nights_on_the_organizer_page(olga, club):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name="Lega", slug="lega", kind="league",
                                   planned_rounds=3)  # fmt: skip
    services.add_round(competition=competition, by=by)
    page = login(olga).get("/c/uno/k/lega/").content.decode()
    assert "<strong>Night 1</strong>" in page and "<strong>Night 2</strong>" in page
    assert "<strong>Round 1</strong>" not in page and "<strong>Round 2</strong>" not in page
