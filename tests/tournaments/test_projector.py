"""The round timer the organizer starts and pauses (shown live on the projector), the
projector's content, and "where do I sit?" in alphabetical order (issue 11 point 7)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.clients import login
from tournaments import presenters, services
from tournaments.models import CompetitionEvent, Round

from .helpers import codes, make_competition, play, terziglio_won_by

pytestmark = pytest.mark.django_db

NAMES = ["Zeno", "anna", "Bruno", "Élodie", "Carla", "Dario"]


@pytest.fixture
def published(club, olga):
    competition = make_competition(club, olga, slug="coppa", planned_rounds=1)
    by = Actor.for_user(olga)
    for name in NAMES:
        services.add_entry(competition=competition, player=name, by=by)
    round_ = services.add_round(competition=competition, by=by, duration_minutes=45)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    return round_


def test_the_timer_starts_runs_pauses_keeps_what_is_left_and_resets(published, olga):
    by = Actor.for_user(olga)
    assert presenters.timer_of(published, timezone.now()) | {"text": ""} == {
        "state": "idle", "left": 2700, "full": 2700, "text": "",
    }  # fmt: skip
    services.set_round_timer(round_=published, by=by, action="start")
    published.refresh_from_db()
    started = published.timer_started_at
    later = started + dt.timedelta(minutes=10, seconds=5)
    assert presenters.timer_of(published, later) == {
        "state": "running", "left": 2095, "full": 2700, "text": "34:55",
    }  # fmt: skip
    # Paused: what is left is kept, and does not run down.
    published.timer_started_at = started - dt.timedelta(minutes=10)
    published.save(update_fields=["timer_started_at"])
    services.set_round_timer(round_=published, by=by, action="pause")
    published.refresh_from_db()
    assert published.timer_started_at is None and 2095 <= published.timer_remaining <= 2100
    paused = presenters.timer_of(published, timezone.now() + dt.timedelta(hours=3))
    assert paused["state"] == "paused" and paused["left"] == published.timer_remaining
    # Resumed: it runs down from what was left.
    services.set_round_timer(round_=published, by=by, action="start")
    published.refresh_from_db()
    resumed = presenters.timer_of(published, published.timer_started_at + dt.timedelta(hours=1))
    assert resumed == {"state": "over", "left": 0, "full": 2700, "text": "00:00"}
    services.set_round_timer(round_=published, by=by, action="reset")
    published.refresh_from_db()
    assert presenters.timer_of(published, timezone.now())["state"] == "idle"
    actions = list(
        CompetitionEvent.objects.filter(action__startswith="timer_").values_list(
            "action", flat=True
        )
    )
    assert actions == ["timer_start", "timer_pause", "timer_start", "timer_reset"]


def test_the_timer_of_a_draft_round_or_an_unknown_action_is_refused(club, olga, published):
    by = Actor.for_user(olga)
    with pytest.raises(RuleViolation) as error:
        services.set_round_timer(round_=published, by=by, action="rewind")
    assert codes(error.value) == {("timer", "choice")}
    draft = services.add_round(competition=published.competition, by=by)
    with pytest.raises(RuleViolation) as error:
        services.set_round_timer(round_=draft, by=by, action="start")
    assert codes(error.value) == {("round", "not_allowed")}
    response = login(olga).post("/c/uno/k/coppa/rounds/1/", {"action": "timer", "timer": "x"})
    assert response.status_code == 400
    assert 'data-action="timer"' in response.content.decode()
    published.refresh_from_db()
    assert published.timer_started_at is None and published.timer_remaining is None


def test_the_organizer_starts_and_pauses_the_timer_on_the_round_page(published, olga):
    client = login(olga)
    html = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert 'id="timer" data-state="idle"' in html and ">45:00<" in html
    assert 'name="timer" value="start"' in html
    assert (
        client.post("/c/uno/k/coppa/rounds/1/", {"action": "timer", "timer": "start"}).status_code
        == 302
    )
    html = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert 'id="timer" data-state="running"' in html and 'name="timer" value="pause"' in html
    answer = Client().get("/p/uno/coppa/timer/").json()
    assert answer["state"] == "running" and answer["number"] == 1 and answer["full"] == 2700
    assert 2690 <= answer["left"] <= 2700
    client.post("/c/uno/k/coppa/rounds/1/", {"action": "timer", "timer": "pause"})
    assert Client().get("/p/uno/coppa/timer/").json()["state"] == "paused"
    projector = Client().get("/p/uno/coppa/projector/").content.decode()
    assert 'class="projector-timer" data-state="paused"' in projector


def test_the_timer_answer_without_a_round(club, olga):
    make_competition(club, olga, slug="coppa")
    assert Client().get("/p/uno/coppa/timer/").json() == {
        "number": None, "state": "none", "left": 0, "full": 0,
    }  # fmt: skip


def test_the_projector_shows_no_timer_once_the_round_is_closed_and_the_results_final(
    published, olga
):
    by = Actor.for_user(olga)
    services.set_round_timer(round_=published, by=by, action="start")
    assert 'class="projector-timer"' in Client().get("/p/uno/coppa/projector/").content.decode()
    for table in published.tables.select_related("game"):
        play(table.game, terziglio_won_by(0, 3), olga)
    services.close_round(round_=Round.objects.get(pk=published.pk), by=by)
    services.finalize_competition(competition=published.competition, by=by)
    projector = Client().get("/p/uno/coppa/projector/").content.decode()
    assert "projector-timer" not in projector and "data-timer-clock" not in projector
    assert Client().get("/p/uno/coppa/timer/").json() == {
        "number": 1, "state": "none", "left": 0, "full": 0,
    }  # fmt: skip


def test_the_projector_shows_the_tables_the_standings_and_a_qr_code_to_where(published):
    html = Client().get("/p/uno/coppa/projector/").content.decode()
    assert html.count('class="pager-item table-box') == published.tables.count()
    assert html.count('<li class="pager-item') == len(NAMES)
    assert 'href="http://testserver/p/uno/coppa/where/"' in html and "<svg" in html
    assert 'title="Élodie"' in html  # the full name, when a long one is cut


def test_where_do_i_sit_lists_the_names_alphabetically(published):
    html = Client().get("/p/uno/coppa/where/").content.decode()
    listed = html.split("data-where-list>", 1)[1].split("</ul>", 1)[0]
    import re

    names = re.findall(r'<a href="\?entry=\d+">(.*?)</a>', listed)
    assert names == ["anna", "Bruno", "Carla", "Dario", "Élodie", "Zeno"]
    bad = Client().get("/p/uno/coppa/where/?entry=999999")
    assert bad.status_code == 400
    block = bad.content.decode().split('data-field="entry"', 1)[1]
    assert '<p class="error" role="alert">' in block.split("data-where-list", 1)[0]
