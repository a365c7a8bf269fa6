"""A draw asked in the background and refused is kept, shown, and forgotten once a draw succeeds.

Large rounds are drawn by a Celery task (``tournaments.tasks.generate_round``): eager inside the
organizer's request when no broker is configured, on a worker otherwise. Nobody waits for its
answer, so a refusal must neither escape as a 500 (eager) nor vanish into a worker's log: the
round keeps it (``Round.draw_problem``, a ``draw_refused`` event), the round page and the API
say why and what to do, until a later draw succeeds.
"""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.services import Actor
from tests.clients import api_as
from tests.tournaments.helpers import enter, make_competition
from tournaments import scheduling, services, tasks
from tournaments.models import CompetitionEvent, Round, RoundStatus, Table
from tournaments.views import rounds as round_views

pytestmark = pytest.mark.django_db

URL = "/c/uno/k/serate/rounds/1/"


@pytest.fixture
def by(olga):
    return Actor.for_user(olga)


@pytest.fixture
def night(club, olga):
    """A club night of Terziglio (three players a table) with six players entered."""
    competition = make_competition(
        club, olga, name="Serate", slug="serate", kind="league", format="club_night"
    )
    enter(competition, olga, 6)
    return competition


@pytest.fixture
def two_present(night, by):
    """Round 1, with only two players checked in: too few for a table of Terziglio."""
    round_ = services.add_round(competition=night, by=by)
    services.set_check_ins(round_=round_, entries=list(night.entries.order_by("pk")[:2]), by=by)
    return round_


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_refused_background_draw_in_eager_mode_is_no_500_and_the_page_says_why(
    two_present, night, olga, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(round_views, "TASK_THRESHOLD", 1)  # two present: the task draws
    client = logged_in(olga)
    with django_capture_on_commit_callbacks(execute=True):  # the eager task runs at commit
        response = client.post(URL, {"action": "generate", "seed": "4"})
    assert response.status_code == 302 and "?drawing=" in response["Location"]
    assert not Table.objects.exists()
    page = client.get(response["Location"]).content.decode()
    assert 'http-equiv="refresh"' not in page and 'class="box drawing"' not in page
    notice = page.split('id="draw-refused"', 1)[1].split("</div>", 1)[0]
    assert "The background draw was refused." in notice
    assert "Asked by Olga (" in notice
    assert "At least 3 players must be present to draw the tables; there are 2." in notice
    assert "then draw again" in notice


def test_the_task_body_records_the_refusal_on_the_round_and_in_the_events(two_present, olga):
    result = tasks.generate_round.apply(args=(two_present.pk, olga.pk, 4, None))  # as a worker
    assert result.successful()
    round_ = Round.objects.get(pk=two_present.pk)
    assert round_.status == RoundStatus.DRAFT and not round_.tables.exists()
    problem = round_.draw_problem
    assert (problem["by"], problem["by_name"]) == (olga.pk, "Olga")
    assert problem["at"]
    assert problem["problems"] == [
        {"field": "entries", "code": "range", "params": {"min": 3, "max": 10_000, "value": 2}}
    ]
    (event,) = CompetitionEvent.objects.filter(action="draw_refused")
    assert (event.round_id, event.actor_id) == (round_.pk, olga.pk)
    assert event.data["problems"] == problem["problems"]


def test_the_api_round_carries_the_refusal_until_a_draw_succeeds(two_present, night, olga, by):
    tasks.generate_round(two_present.pk, olga.pk)
    api = api_as(olga)
    url = f"/api/v1/competitions/{night.pk}/rounds/1/"
    refused = api.get(url).json()["draw_problem"]
    assert refused["asked_by"] == "Olga" and refused["at"]
    assert [(p["hand"], p["field"], p["code"]) for p in refused["problems"]] == [
        (None, "entries", "range")
    ]
    assert refused["problems"][0]["message"].startswith("At least 3 players must be present")
    assert "draw again" in refused["advice"]
    listed = api.get(f"/api/v1/competitions/{night.pk}/rounds/").json()["results"]
    assert listed[0]["draw_problem"] == refused

    services.set_check_ins(round_=two_present, entries=list(night.entries.all()), by=by)
    tasks.generate_round(two_present.pk, olga.pk, 5)
    assert api.get(url).json()["draw_problem"] is None
    assert Round.objects.get(pk=two_present.pk).draw_problem is None
    page = logged_in(olga).get(URL).content.decode()
    assert 'id="draw-refused"' not in page and "Draft tables" in page


def test_a_draw_refused_for_a_round_published_meanwhile_leaves_only_the_event(night, olga, by):
    round_ = services.add_round(competition=night, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    tasks.generate_round(round_.pk, olga.pk)
    round_.refresh_from_db()
    assert round_.draw_problem is None and round_.status == RoundStatus.PUBLISHED
    (event,) = CompetitionEvent.objects.filter(action="draw_refused")
    assert event.data["problems"][0]["params"] == {"reason": "published"}


def test_a_draw_asked_by_someone_no_longer_an_organizer_is_recorded_not_raised(
    two_present, sara, olga
):
    tasks.generate_round(two_present.pk, sara.pk)  # a scorer: may not draw
    round_ = Round.objects.get(pk=two_present.pk)
    assert round_.draw_problem["problems"] == [
        {"field": "round", "code": "not_allowed", "params": {"reason": "not_manager"}}
    ]
    page = logged_in(olga).get(URL).content.decode()
    assert "Only the owner or an organizer of the club may draw the tables." in page


def test_a_knockout_draw_refused_in_the_task_is_recorded(club, olga, by):
    cup = make_competition(
        club, olga, name="Coppa", rulesets=["briscola"], format="knockout", third_place=True
    )
    enter(cup, olga, 3)
    round_ = services.add_round(competition=cup, by=by)
    tasks.generate_round(round_.pk, olga.pk)  # a third-place match needs four entrants
    problems = Round.objects.get(pk=round_.pk).draw_problem["problems"]
    assert problems == [
        {"field": "entries", "code": "range", "params": {"min": 4, "max": 10_000, "value": 3}}
    ]


def test_a_scheduler_refusal_in_the_task_is_recorded_with_its_reason(
    two_present, night, olga, by, monkeypatch
):
    def cannot_seat(*args, **kwargs):
        raise ValueError("no seating fits these tables")

    monkeypatch.setattr(scheduling, "club_night", cannot_seat)
    services.set_check_ins(round_=two_present, entries=list(night.entries.all()), by=by)
    tasks.generate_round(two_present.pk, olga.pk)
    problems = Round.objects.get(pk=two_present.pk).draw_problem["problems"]
    assert problems == [
        {
            "field": "round",
            "code": "not_allowed",
            "params": {"reason": "no seating fits these tables"},
        }
    ]


def test_the_notice_is_translated(two_present, olga):
    tasks.generate_round(two_present.pk, olga.pk)
    client = logged_in(olga)
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    notice = page.split('id="draw-refused"', 1)[1].split("</div>", 1)[0]
    assert "Le tirage en arrière-plan a été refusé." in notice
    assert "refaites le tirage" in notice
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    notice = page.split('id="draw-refused"', 1)[1].split("</div>", 1)[0]
    assert "Il sorteggio in background è stato rifiutato." in notice
    assert "rifai il sorteggio" in notice


def schema_of(schema: dict, node: dict) -> dict:
    """``node`` with its ``$ref`` (or the one of an ``allOf``) looked up in ``schema``."""
    while "$ref" in node or "allOf" in node:
        if "allOf" in node:
            node = node["allOf"][0]
        else:
            node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def test_the_schema_documents_the_round_as_the_api_answers_it(two_present, night, olga):
    tasks.generate_round(two_present.pk, olga.pk)
    api = api_as(olga)
    schema = api.get("/api/schema/?format=json").json()
    path = schema["paths"]["/api/v1/competitions/{competition_id}/rounds/{number}/"]
    documented = schema_of(
        schema, path["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    )
    answer = api.get(f"/api/v1/competitions/{night.pk}/rounds/1/").json()
    assert set(documented["properties"]) == set(answer)
    problem = documented["properties"]["draw_problem"]
    # Nullable as strict validators read it: the reference, or null (scoring/api/schema.py).
    reference, null = problem["oneOf"]
    assert null.get("nullable") is True and null.get("enum") == [None]
    assert set(schema_of(schema, reference)["properties"]) == set(answer["draw_problem"])
    for action in ("generate", "publish", "close", "check-ins", "swap"):
        post = schema["paths"][
            f"/api/v1/competitions/{{competition_id}}/rounds/{{number}}/{action}/"
        ]
        ok = post["post"]["responses"]["200"]["content"]["application/json"]["schema"]
        assert schema_of(schema, ok) == documented
