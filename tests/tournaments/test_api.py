"""The competition API: every endpoint, its status codes and error shapes, who may do what, the
standings' ETag, the schedule preview, and the OpenAPI schema."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import services as scoring
from scoring.models import Game, Player
from scoring.rules import RULESETS, RuleViolation
from scoring.services import Actor
from tests.clients import api_as
from tournaments import services
from tournaments.models import (
    Adjustment,
    Competition,
    CompetitionEvent,
    Entry,
    Format,
    Kind,
    RepeatObjective,
    Round,
    StandingsSnapshot,
    Table,
)
from tournaments.scheduling.cli import build
from tournaments.standings import SCHEMES, TIE_BREAKS

from .helpers import (
    enter,
    make_competition,
    play,
    tables_of,
    terziglio_in_order,
    terziglio_won_by,
)

pytestmark = pytest.mark.django_db


def fields(response) -> set[tuple[str | None, str]]:
    """(field, code) of every error; every error also has a hand (None) and a message."""
    errors = response.json()["errors"]
    assert all(set(e) >= {"hand", "field", "code", "message"} and e["message"] for e in errors)
    return {(e["field"], e["code"]) for e in errors}


@pytest.fixture
def tournament(club, olga):
    """A public Terziglio tournament of club A: six entries, two rounds planned, none drawn."""
    competition = make_competition(club, olga, name="Torneo", planned_rounds=2)
    enter(competition, olga, 6)
    return competition


@pytest.fixture
def drawn(tournament, olga):
    """The tournament with round 1 added and every round drawn (seed 1)."""
    first = services.add_round(competition=tournament, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    return tournament


def seats(response) -> list[list[int]]:
    """Entry ids of each table of a round answer, in seat order."""
    return [[s["entry"] for s in t["seats"]] for t in response.json()["tables"]]


def url(competition, rest: str = "") -> str:
    return f"/api/v1/competitions/{competition.pk}/{rest}"


# ---------------------------------------------------------------------------------------------
# Competitions of a club


def test_create_a_competition(api, club, olga):
    body = {
        "name": "Torneo di primavera",
        "rulesets": ["terziglio"],
        "format": "rotation",
        "planned_rounds": 4,
        "options": {"terziglio": {"target_score": 31}},
        "start_date": "2026-04-11",
        "placement_points": {"3": [5, 2, 0]},
        "public": False,
    }
    response = api.post("/api/v1/clubs/uno/competitions/", body, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    competition = Competition.objects.get()
    assert response["Location"] == f"/api/v1/competitions/{competition.pk}/"
    assert data["id"] == competition.pk and data["slug"] == "torneo-di-primavera"
    assert (data["club"], data["kind"], data["format"], data["rulesets"]) == (
        "uno",
        "tournament",
        "rotation",
        ["terziglio"],
    )
    assert (data["start_date"], data["end_date"], data["public"]) == ("2026-04-11", None, False)
    assert data["options"] == {"terziglio": {"target_score": 31}}
    assert data["placement_points"] == {"3": [5, 2, 0]}
    assert (data["rounds"], data["entries"], data["role"], data["can_manage"]) == (
        [],
        0,
        "owner",
        True,
    )
    assert competition.created_by == olga


def test_create_names_every_field_of_the_wrong_type(api, club):
    response = api.post(
        "/api/v1/clubs/uno/competitions/",
        {
            "name": 5,
            "rulesets": "terziglio",
            "options": {"terziglio": 31},
            "start_date": "11/04/2026",
            "end_date": "2026-02-30",
            "public": "yes",
            "planned_rounds": "4",
            "placement_points": {"3": "4 2 0", "x": [1]},
            "tie_breaks": ["wins", 3],
            "colour": "red",
        },
        format="json",
    )
    assert response.status_code == 400
    assert fields(response) == {
        ("name", "type"),
        ("rulesets", "type"),
        ("options.terziglio", "type"),
        ("start_date", "type"),
        ("end_date", "type"),
        ("public", "type"),
        ("planned_rounds", "type"),
        ("placement_points.3", "type"),
        ("placement_points.x", "unknown_key"),
        ("tie_breaks[1]", "type"),
        ("colour", "unknown_key"),
    }
    response = api.post(
        "/api/v1/clubs/uno/competitions/",
        {"name": "Coppa", "rulesets": ["terziglio"], "options": [1], "placement_points": 3},
        format="json",
    )
    assert fields(response) == {("options", "type"), ("placement_points", "type")}
    body = {"name": "Coppa", "rulesets": ["terziglio"]}
    assert api.post("/api/v1/clubs/nowhere/competitions/", body, format="json").status_code == 404
    assert not Competition.objects.exists()


def test_create_passes_on_the_services_checks(api, club):
    response = api.post(
        "/api/v1/clubs/uno/competitions/",
        {"name": "X" * 121, "rulesets": ["poker"], "table_size": 12},
        format="json",
    )
    # The body's own checks (lengths, the registry's games) come first, all named at once.
    assert fields(response) == {("name", "range"), ("rulesets[0]", "choice")}
    response = api.post(
        "/api/v1/clubs/uno/competitions/",
        {
            "name": "Coppa",
            "rulesets": ["briscola", "terziglio"],
            "table_size": 12,
            "format": "knockout",
        },
        format="json",
    )
    assert response.status_code == 400
    assert fields(response) == {
        ("rulesets", "inconsistent"),
        ("table_size", "range"),
        ("format", "inconsistent"),
    }
    for body in ([1, 2], "name", {}):
        response = api.post("/api/v1/clubs/uno/competitions/", body, format="json")
        assert response.status_code == 400
    assert fields(api.post("/api/v1/clubs/uno/competitions/", [1], format="json")) == {
        ("document", "type")
    }
    assert fields(api.post("/api/v1/clubs/uno/competitions/", {}, format="json")) == {
        ("name", "required"),
        ("rulesets", "required"),
    }
    malformed = api.generic(
        "POST", "/api/v1/clubs/uno/competitions/", "{nope", content_type="application/json"
    )
    assert malformed.status_code == 400 and fields(malformed) == {("document", "parse_error")}


def test_members_list_every_competition_others_the_public_ones(club, olga, sara, bea, other_club):
    public = make_competition(club, olga, name="Aperto")
    private = make_competition(club, olga, name="Riservato", public=False)
    for client, expected in (
        (api_as(olga), {public.pk, private.pk}),
        (api_as(sara), {public.pk, private.pk}),
        (api_as(bea), {public.pk}),
        (APIClient(), {public.pk}),
    ):
        response = client.get("/api/v1/clubs/uno/competitions/")
        assert response.status_code == 200
        assert {c["id"] for c in response.json()} == expected
    row = next(c for c in api_as(olga).get("/api/v1/clubs/uno/competitions/").json())
    assert set(row) >= {"id", "club", "name", "slug", "kind", "format", "rulesets", "public"}
    assert APIClient().get("/api/v1/clubs/nowhere/competitions/").status_code == 404
    # A private club without public competitions is not even known to outsiders (a
    # competition with a trail cannot be deleted: history is permanent).
    type(public).objects.filter(pk=public.pk).update(public=False)
    assert APIClient().get("/api/v1/clubs/uno/competitions/").status_code == 404
    assert APIClient().get("/api/v1/clubs/due/competitions/").json() == []


def test_only_owners_and_organizers_create(club, sara, oscar, bea):
    body = {"name": "Coppa", "rulesets": ["briscola"]}
    assert (
        api_as(oscar).post("/api/v1/clubs/uno/competitions/", body, format="json").status_code
        == 201
    )
    denied = api_as(sara).post("/api/v1/clubs/uno/competitions/", {"name": 1}, format="json")
    assert denied.status_code == 403 and fields(denied) == {(None, "permission_denied")}
    # Club A now has a public competition: outsiders know the club, and get a 403.
    assert (
        api_as(bea).post("/api/v1/clubs/uno/competitions/", body, format="json").status_code == 403
    )
    assert (
        APIClient().post("/api/v1/clubs/uno/competitions/", body, format="json").status_code == 403
    )
    assert Competition.objects.count() == 1  # fmt: skip


def test_competition_detail_summarises_the_rounds(api, drawn):
    data = api.get(url(drawn)).json()
    assert data["id"] == drawn.pk and data["entries"] == 6 and data["planned_rounds"] == 2
    assert [(r["number"], r["status"], r["tables"], r["ruleset"]) for r in data["rounds"]] == [
        (1, "draft", 2, "terziglio"),
        (2, "draft", 2, "terziglio"),
    ]
    assert api.get("/api/v1/competitions/999999/").status_code == 404
    assert api.get("/api/v1/competitions/99999999999999999999999/").status_code == 404


# ---------------------------------------------------------------------------------------------
# Entries


def test_enter_players_by_id_or_new_name(api, tournament, club, olga):
    zelda = scoring.add_player(club=club, display_name="Zelda", by=Actor.for_user(olga))
    response = api.post(url(tournament, "entries/"), {"player": zelda.pk, "seed": 3}, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert (data["name"], data["player"], data["partner"], data["seed"], data["late"]) == (
        "Zelda",
        {"id": zelda.pk, "name": "Zelda"},
        None,
        3,
        False,
    )
    assert data["status"] == "active" and data["registered_at"]
    response = api.post(url(tournament, "entries/"), {"player": "  Zeno  Rossi "}, format="json")
    assert response.status_code == 201
    assert Player.objects.get(pk=response.json()["player"]["id"]).display_name == "Zeno Rossi"
    listed = api.get(url(tournament, "entries/")).json()
    assert len(listed) == 8
    assert {e["name"] for e in listed} >= {"Zelda", "Zeno Rossi", "Anna"}
    duplicate = api.post(url(tournament, "entries/"), {"player": "zelda"}, format="json")
    assert duplicate.status_code == 400 and fields(duplicate) == {("player", "duplicate")}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, {("player", "required")}),
        ({"player": 2.5}, {("player", "type")}),
        ({"player": True}, {("player", "type")}),
        ({"player": " "}, {("player", "type")}),
        ({"player": "Z" * 81}, {("player", "range")}),
        ({"player": 10**9}, {("player", "not_found")}),
        ({"player": "Zeno", "seed": 0}, {("seed", "range")}),
        ({"player": "Zeno", "seed": "1"}, {("seed", "type")}),
        ({"player": "Zeno", "team": "A"}, {("team", "unknown_key")}),
        ({"player": "Zeno", "partner": ["x"]}, {("partner", "type")}),
    ],
)
def test_bad_entries_name_the_field(api, tournament, body, expected):
    response = api.post(url(tournament, "entries/"), body, format="json")
    assert response.status_code == 400
    assert fields(response) == expected
    assert tournament.entries.count() == 6


def test_briscola_pairs_enter_with_a_partner(api, club, olga):
    competition = make_competition(
        club, olga, rulesets=["briscola"], options={"briscola": {"format": "pairs"}}
    )
    missing = api.post(url(competition, "entries/"), {"player": "Anna"}, format="json")
    assert fields(missing) == {("partner", "required")}
    same = api.post(url(competition, "entries/"), {"player": "Anna", "partner": "anna"}, format="json")  # fmt: skip
    assert fields(same) == {("partner", "duplicate")}
    response = api.post(url(competition, "entries/"), {"player": "Anna", "partner": "Bruno"}, format="json")  # fmt: skip
    assert response.status_code == 201
    assert (response.json()["name"], response.json()["partner"]["name"]) == (
        "Anna & Bruno",
        "Bruno",
    )


def test_withdraw_an_entry(api, drawn):
    entry = drawn.entries.first()
    response = api.post(url(drawn, f"entries/{entry.pk}/withdraw/"), {"reason": "ill"}, format="json")  # fmt: skip
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "withdrawn" and response.json()["withdrawn_at"]
    assert CompetitionEvent.objects.get(action="withdraw_entry").reason == "ill"
    seated = {e for r in drawn.rounds.all() for t in tables_of(r) for e in t}
    assert entry.pk not in seated and len(seated) == 5
    assert api.post(url(drawn, "entries/999999/withdraw/"), format="json").status_code == 404
    bad = api.post(url(drawn, f"entries/{entry.pk}/withdraw/"), {"reason": 1}, format="json")
    assert fields(bad) == {("reason", "type")}


def test_a_withdrawal_the_drafts_cannot_absorb_changes_nothing(api, club, olga):
    competition = make_competition(club, olga, planned_rounds=1)
    entries = enter(competition, olga, 3)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    response = api.post(url(competition, f"entries/{entries[0].pk}/withdraw/"), format="json")
    assert response.status_code == 400 and fields(response) == {("entries", "range")}
    entries[0].refresh_from_db()
    assert entries[0].status == "active"


def test_a_withdrawal_the_scheduler_refuses_is_a_400(api, club, olga):
    knockout = make_competition(
        club, olga, name="Ko", rulesets=["briscola"], format="knockout", third_place=True
    )
    entries = enter(knockout, olga, 4, seeded=True)
    first = services.add_round(competition=knockout, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga))
    response = api.post(url(knockout, f"entries/{entries[3].pk}/withdraw/"), format="json")
    # Three entrants left cannot play a third-place match: the draw is refused, nothing changes.
    assert response.status_code == 400 and fields(response) == {("entries", "range")}
    entries[3].refresh_from_db()
    assert entries[3].status == "active"
    assert len(tables_of(first)) == 2


def test_an_entry_of_another_competition_is_not_found(api, tournament, club, olga):
    other = make_competition(club, olga, name="Altro")
    (entry,) = enter(other, olga, 1)
    assert api.post(url(tournament, f"entries/{entry.pk}/withdraw/"), format="json").status_code == 404  # fmt: skip
    entry.refresh_from_db()
    assert entry.status == "active"


# ---------------------------------------------------------------------------------------------
# Rounds


def test_add_a_round_with_its_date_and_time(api, tournament):
    response = api.post(
        url(tournament, "rounds/"),
        {"date": "2026-04-11", "start_time": "15:30", "duration_minutes": 120},
        format="json",
    )
    assert response.status_code == 201, response.json()
    data = response.json()
    assert response["Location"] == url(tournament, "rounds/1/")
    assert (data["number"], data["date"], data["start_time"], data["duration_minutes"]) == (
        1,
        "2026-04-11",
        "15:30",
        120,
    )
    assert (data["status"], data["ruleset"], data["tables"], data["byes"]) == (
        "draft",
        "terziglio",
        [],
        [],
    )
    second = api.post(url(tournament, "rounds/"), format="json")
    assert second.status_code == 201 and second.json()["number"] == 2
    assert second.json()["date"] is None and second.json()["duration_minutes"] == 90
    assert [r["number"] for r in api.get(url(tournament, "rounds/")).json()] == [1, 2]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"date": "11/04/2026"}, {("date", "type")}),
        ({"date": "2026-13-01"}, {("date", "type")}),
        ({"date": "2026-4-1"}, {("date", "type")}),
        ({"date": 20260411}, {("date", "type")}),
        ({"start_time": "25:00"}, {("start_time", "type")}),
        ({"start_time": "3pm"}, {("start_time", "type")}),
        ({"start_time": "15:30:00"}, {("start_time", "type")}),
        ({"duration_minutes": 5}, {("duration_minutes", "range")}),
        ({"duration_minutes": "90"}, {("duration_minutes", "type")}),
        ({"ruleset": "briscola"}, {("ruleset", "choice")}),
        ({"ruleset": ["terziglio"]}, {("ruleset", "type")}),
        (
            {"date": "2026-02-30", "start_time": "", "number": 3},
            {("date", "type"), ("start_time", "type"), ("number", "unknown_key")},
        ),
    ],
)
def test_bad_round_fields_are_named(api, tournament, body, expected):
    response = api.post(url(tournament, "rounds/"), body, format="json")
    assert response.status_code == 400
    assert fields(response) == expected
    assert not tournament.rounds.exists()


def test_a_round_shows_its_tables_seats_games_and_figures(api, drawn):
    response = api.get(url(drawn, "rounds/1/"))
    assert response.status_code == 200
    data = response.json()
    names = {e.pk: e.name for e in drawn.entries.all()}
    assert len(data["tables"]) == 2
    for table in data["tables"]:
        assert [s["position"] for s in table["seats"]] == [0, 1, 2]
        assert all(s["name"] == names[s["entry"]] for s in table["seats"])
        assert all(s["game_seats"] == [s["position"]] for s in table["seats"])
        assert table["game"] is None and table["forfeited"] is False
        assert Table.objects.get(pk=table["id"]).number == table["number"]
    # Six players at two tables of three cannot play two rounds without a repeat.
    assert (data["metrics"]["lower_bound"], data["method"]) == (1, "rotation")
    assert set(data["metrics"]) >= {"repeated_pairs", "max_meetings", "first_dealer", "sit_outs"}
    assert data["byes"] == [] and data["check_ins"] == [] and data["seed"] == 1
    assert api.get(url(drawn, "rounds/9/")).status_code == 404


def test_check_ins(api, club, olga):
    league = make_competition(club, olga, kind="league", format="club_night")
    entries = enter(league, olga, 5)
    services.add_round(competition=league, by=Actor.for_user(olga))
    present = [e.pk for e in entries[:3]]
    response = api.post(url(league, "rounds/1/check-ins/"), {"entries": present}, format="json")
    assert response.status_code == 200 and response.json()["check_ins"] == sorted(present)
    listed = api.get(url(league, "rounds/")).json()
    assert [(r["number"], r["check_ins"]) for r in listed] == [(1, sorted(present))]
    generated = api.post(url(league, "rounds/1/generate/"), {"seed": 4}, format="json").json()
    assert sorted(s["entry"] for t in generated["tables"] for s in t["seats"]) == sorted(present)
    for body, expected in (
        ({"entries": "all"}, {("entries", "type")}),
        ({"entries": [present[0], "x", 1.5]}, {("entries[1]", "type"), ("entries[2]", "type")}),
        ({}, {("entries", "required")}),
        ({"entries": [10**6]}, {("entries", "not_found")}),
    ):
        response = api.post(url(league, "rounds/1/check-ins/"), body, format="json")
        assert response.status_code == 400 and fields(response) == expected, body
    # Ids no row can have (found by schemathesis: a 500 on both databases) are refused by name.
    response = api.post(
        url(league, "rounds/1/check-ins/"), {"entries": [-140, 2**79, present[0]]}, format="json"
    )
    assert response.status_code == 400
    assert {field for field, _code in fields(response)} == {"entries[0]", "entries[1]"}
    with pytest.raises(RuleViolation) as refused:
        services.set_check_ins(
            round_=league.rounds.get(), entries=[present[0], 2**79], by=Actor.for_user(olga)
        )
    assert [(p.field, p.code) for p in refused.value.problems] == [("entries", "not_found")]
    listed = api.get(url(league, "rounds/")).json()
    assert [(r["number"], r["check_ins"]) for r in listed] == [(1, sorted(present))]


def test_generate_draws_the_same_tables_for_the_same_seed(api, tournament):
    api.post(url(tournament, "rounds/"), format="json")
    first = api.post(url(tournament, "rounds/1/generate/"), {"seed": 11}, format="json")
    assert first.status_code == 200, first.json()
    again = api.post(url(tournament, "rounds/1/generate/"), {"seed": 11}, format="json")
    assert seats(again) == seats(first)
    assert api.post(url(tournament, "rounds/1/generate/"), format="json").status_code == 200
    for body, expected in (
        ({"seed": "x"}, {("seed", "type")}),
        ({"seed": -1}, {("seed", "range")}),
        ({"seed": 2**31}, {("seed", "range")}),
    ):
        assert fields(api.post(url(tournament, "rounds/1/generate/"), body, format="json")) == expected  # fmt: skip


def test_generate_refuses_what_cannot_be_drawn(api, club, olga):
    too_few = make_competition(club, olga, name="Pochi")
    enter(too_few, olga, 2)
    services.add_round(competition=too_few, by=Actor.for_user(olga))
    response = api.post(url(too_few, "rounds/1/generate/"), format="json")
    assert response.status_code == 400 and fields(response) == {("entries", "range")}
    # A third-place match needs four players: three are refused on the entries, as a 400.
    knockout = make_competition(
        club, olga, name="Ko", rulesets=["briscola"], format="knockout", third_place=True
    )
    enter(knockout, olga, 3)
    services.add_round(competition=knockout, by=Actor.for_user(olga))
    response = api.post(url(knockout, "rounds/1/generate/"), format="json")
    assert response.status_code == 400 and fields(response) == {("entries", "range")}
    assert not Table.objects.filter(round__competition=knockout).exists()


def test_rescheduling_a_round_changes_only_what_is_sent(api, drawn, sara):
    response = api.patch(
        url(drawn, "rounds/1/"), {"date": "2026-05-02", "start_time": "21:00"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert (response.json()["date"], response.json()["start_time"]) == ("2026-05-02", "21:00")
    response = api.patch(url(drawn, "rounds/1/"), {"duration_minutes": 120}, format="json")
    round_ = drawn.rounds.get(number=1)
    assert (str(round_.date), str(round_.start_time), round_.duration_minutes) == (
        "2026-05-02",
        "21:00:00",
        120,
    )
    assert (
        api.patch(url(drawn, "rounds/1/"), {"start_time": None}, format="json").status_code == 200
    )
    round_.refresh_from_db()
    assert (str(round_.date), round_.start_time) == ("2026-05-02", None)
    for body, expected in (
        ({"date": "2 May"}, {("date", "type")}),
        ({"duration_minutes": 5}, {("duration_minutes", "range")}),
        ({"ruleset": "poker"}, {("ruleset", "choice")}),
        ({"when": "soon"}, {("when", "unknown_key")}),
    ):
        response = api.patch(url(drawn, "rounds/1/"), body, format="json")
        assert response.status_code == 400 and fields(response) == expected, body
    round_.refresh_from_db()
    assert (str(round_.date), round_.duration_minutes) == ("2026-05-02", 120)
    assert (
        api_as(sara).patch(url(drawn, "rounds/1/"), {"date": None}, format="json").status_code
        == 403
    )
    assert api.patch(url(drawn, "rounds/9/"), {"date": None}, format="json").status_code == 404


def test_swap_two_entries_of_a_draft(api, drawn):
    (a, b, _), (c, _, _) = tables_of(drawn.rounds.get(number=2))
    response = api.post(url(drawn, "rounds/2/swap/"), {"a": a, "b": c}, format="json")
    assert response.status_code == 200, response.json()
    swapped = seats(response)
    assert swapped[0][0] == c and swapped[1][0] == a
    assert response.json()["metrics"]["repeated_pairs"] >= 0
    for body, expected in (
        ({"a": a}, {("b", "required")}),
        ({"a": "x", "b": b}, {("a", "type")}),
        ({"a": a, "b": 10**6}, {("b", "not_found")}),
    ):
        response = api.post(url(drawn, "rounds/2/swap/"), body, format="json")
        assert response.status_code == 400 and fields(response) == expected


def test_publish_then_close_a_round(api, drawn, olga):
    response = api.post(url(drawn, "rounds/1/publish/"))
    assert response.status_code == 200, response.json()
    data = response.json()
    assert data["status"] == "published" and data["published_at"]
    games = [t["game"] for t in data["tables"]]
    assert all(g["status"] == "in_progress" and g["hand_count"] == 0 for g in games)
    assert {g.title for g in Game.objects.all()} == {"Torneo · R1 · T1", "Torneo · R1 · T2"}
    again = api.post(url(drawn, "rounds/1/publish/"), format="json")
    assert again.status_code == 400 and fields(again) == {("round", "not_allowed")}
    swap = api.post(url(drawn, "rounds/1/swap/"), {"a": 1, "b": 2}, format="json")
    assert swap.status_code == 400

    first = Game.objects.get(pk=games[0]["id"])
    play(first, terziglio_won_by(1, 3), olga)
    refused = api.post(url(drawn, "rounds/1/close/"), format="json")
    assert refused.status_code == 400 and fields(refused) == {("round", "unfinished")}
    play(Game.objects.get(pk=games[1]["id"]), terziglio_won_by(2, 3), olga)
    closed = api.post(url(drawn, "rounds/1/close/"), format="json")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert [t["game"]["status"] for t in closed.json()["tables"]] == ["finished", "finished"]
    assert fields(api.post(url(drawn, "rounds/2/close/"), format="json")) == {
        ("round", "not_allowed")
    }
    assert fields(api.post(url(drawn, "rounds/1/publish/"), {"now": True}, format="json")) == {
        ("now", "unknown_key")
    }


def test_forfeit_a_table(api, drawn):
    api.post(url(drawn, "rounds/1/publish/"))
    round_ = drawn.rounds.get(number=1)
    table = round_.tables.get(number=1)
    d, e, _f = tables_of(round_)[0]
    target = url(drawn, f"tables/{table.pk}/forfeit/")
    for body, expected in (
        ({}, {("reason", "required")}),
        ({"reason": "x", "points": [1]}, {("points", "type")}),
        ({"reason": "x", "points": {"abc": 1}}, {("points.abc", "type")}),
        ({"reason": "x", "points": {"999999": 1}}, {("points.999999", "not_found")}),
        ({"reason": "x", "points": {str(d): "lots"}}, {(f"points.{d}", "type")}),
        ({"reason": "x", "points": {str(d): 10**6}}, {(f"points.{d}", "range")}),
    ):
        response = api.post(target, body, format="json")
        assert response.status_code == 400 and fields(response) == expected, body

    response = api.post(
        target, {"reason": "Dario left", "points": {str(d): 2, str(e): 0.5}}, format="json"
    )

    assert response.status_code == 200, response.json()
    shown = response.json()["tables"][0]
    assert (shown["forfeited"], shown["forfeit_reason"], shown["game"]["status"]) == (
        True,
        "Dario left",
        "abandoned",
    )
    assert sorted(Adjustment.objects.values_list("entry_id", "points")) == [(d, 2), (e, 0.5)]
    other = make_competition(drawn.club, drawn.created_by, name="Altro")
    assert api.post(url(other, f"tables/{table.pk}/forfeit/"), {"reason": "x"}, format="json").status_code == 404  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Standings


def test_standings_with_etag_and_304(api, drawn, olga, django_capture_on_commit_callbacks):
    response = api.get(url(drawn, "standings/"))
    assert response.status_code == 200
    one, two = f'"s{drawn.pk}.1"', f'"s{drawn.pk}.2"'
    assert response["ETag"] == one
    data = response.json()
    assert data["version"] == 1 and data["scheme"] == "placement"
    assert len(data["tables"][0]["rows"]) == 6 and data["games_counted"] == 0
    assert StandingsSnapshot.objects.get(competition=drawn).version == 1
    unchanged = api.get(url(drawn, "standings/"), HTTP_IF_NONE_MATCH=one)
    assert unchanged.status_code == 304 and unchanged["ETag"] == one
    # The old form, a bare version, names no competition: it is not the standings' validator.
    assert api.get(url(drawn, "standings/"), HTTP_IF_NONE_MATCH='"1"').status_code == 200

    api.post(url(drawn, "rounds/1/publish/"))
    game = Game.objects.filter(competition_table__round__number=1).order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=True):
        play(game, terziglio_in_order([2, 1, 0]), olga)

    changed = api.get(url(drawn, "standings/"), HTTP_IF_NONE_MATCH=one)
    assert changed.status_code == 200 and changed["ETag"] == two
    rows = changed.json()["tables"][0]["rows"]
    seats = [s.entry_id for s in game.competition_table.seats.order_by("position")]
    assert [(r["entry"], r["rank"], r["points"]) for r in rows[:4]] == [
        (seats[2], 1, 4),
        (seats[1], 2, 2),
        (seats[0], 3, 0),
        (rows[3]["entry"], 4, 0),
    ]
    assert api.get(url(drawn, "standings/"), HTTP_IF_NONE_MATCH=f"W/{two}").status_code == 304


@pytest.mark.parametrize("header", ['"²"', '"' + "9" * 5000 + '"', 'W/"s²"', '"s1.1" "s1.1"'])
def test_a_garbled_if_none_match_on_public_standings_just_gets_them(drawn, header):
    anonymous = APIClient()
    assert anonymous.get(url(drawn, "standings/"), HTTP_IF_NONE_MATCH=header).status_code == 200
    page = Client().get(f"/p/{drawn.club.slug}/{drawn.slug}/standings/", HTTP_IF_NONE_MATCH=header)
    assert page.status_code == 200


def test_private_competitions_are_hidden_from_outsiders(club, olga, sara, bea):
    private = make_competition(club, olga, name="Riservato", public=False)
    for client in (api_as(bea), APIClient()):
        for path in ("", "entries/", "rounds/", "standings/"):
            response = client.get(url(private, path))
            assert response.status_code == 404 and fields(response) == {(None, "not_found")}
    assert not StandingsSnapshot.objects.exists()
    assert api_as(sara).get(url(private, "standings/")).status_code == 200


# ---------------------------------------------------------------------------------------------
# Who may do what


def write_calls(client, competition) -> list:
    """One call to every write URL of ``competition`` (valid bodies where it matters)."""
    round_ = competition.rounds.order_by("number").first()
    number = round_.number if round_ else 1
    table = Table.objects.filter(round__competition=competition).first()
    entry = competition.entries.first()
    ids = list(competition.entries.values_list("pk", flat=True))
    return [
        client.post(url(competition, "entries/"), {"player": "Intruso"}, format="json"),
        client.post(url(competition, f"entries/{entry.pk}/withdraw/"), {}, format="json"),
        client.post(url(competition, "rounds/"), {"date": "2026-01-01"}, format="json"),
        client.post(
            url(competition, f"rounds/{number}/check-ins/"), {"entries": ids}, format="json"
        ),
        client.post(url(competition, f"rounds/{number}/generate/"), {"seed": 1}, format="json"),
        client.post(
            url(competition, f"rounds/{number}/swap/"), {"a": ids[0], "b": ids[1]}, format="json"
        ),
        client.post(url(competition, f"rounds/{number}/publish/"), format="json"),
        client.post(url(competition, f"rounds/{number}/close/"), format="json"),
        client.post(
            url(competition, f"tables/{table.pk}/forfeit/"), {"reason": "x"}, format="json"
        ),
    ]


def read_calls(client, competition) -> list:
    return [
        client.get(url(competition)),
        client.get(url(competition, "entries/")),
        client.get(url(competition, "rounds/")),
        client.get(url(competition, "rounds/1/")),
        client.get(url(competition, "standings/")),
    ]


def drawn_in(club, owner, **fields) -> Competition:
    competition = make_competition(club, owner, planned_rounds=2, **fields)
    enter(competition, owner, 6)
    first = services.add_round(competition=competition, by=Actor.for_user(owner))
    services.generate_round(round_=first, by=Actor.for_user(owner), seed=1)
    return competition


def snapshot_of_writes():
    return (
        CompetitionEvent.objects.count(),
        Entry.objects.count(),
        Round.objects.count(),
        Game.objects.count(),
        list(Round.objects.values_list("status", flat=True)),
    )


def test_an_organizer_of_club_a_gets_403_or_404_on_every_club_b_competition(oscar, bea, other_club):
    public = drawn_in(other_club, bea, name="Aperto")
    private = drawn_in(other_club, bea, name="Chiuso", public=False)
    client = api_as(oscar)
    before = snapshot_of_writes()
    # Round 1 is a draft: outside the club it does not exist yet, its seating included.
    writes = write_calls(client, public)
    assert [r.status_code for r in writes] == [403] * 3 + [404] * 6
    assert {r.status_code for r in write_calls(client, private)} == {404}
    assert {r.status_code for r in read_calls(client, private)} == {404}
    assert [r.status_code for r in read_calls(client, public)] == [200, 200, 200, 404, 200]
    assert client.get(url(public, "rounds/")).json() == []
    body = {"name": "Intrusione", "rulesets": ["briscola"]}
    assert client.post("/api/v1/clubs/due/competitions/", body, format="json").status_code == 403
    assert [c["id"] for c in client.get("/api/v1/clubs/due/competitions/").json()] == [public.pk]
    assert snapshot_of_writes() == before
    assert not CompetitionEvent.objects.filter(actor=oscar).exists()


def test_a_scorer_reads_everything_and_writes_nothing(club, olga, sara):
    private = drawn_in(club, olga, name="Interno", public=False)
    client = api_as(sara)
    before = snapshot_of_writes()
    responses = write_calls(client, private)
    assert {r.status_code for r in responses} == {403}
    assert all(fields(r) == {(None, "permission_denied")} for r in responses)
    assert {r.status_code for r in read_calls(client, private)} == {200}
    assert snapshot_of_writes() == before


def test_anyone_reads_a_public_competition_and_nobody_anonymous_writes(club, olga):
    public = drawn_in(club, olga, name="Aperto")
    anonymous = APIClient()
    assert [r.status_code for r in read_calls(anonymous, public)] == [200, 200, 200, 404, 200]
    assert anonymous.get(url(public)).json()["can_manage"] is False
    before = snapshot_of_writes()
    writes = write_calls(anonymous, public)
    assert [r.status_code for r in writes] == [403] * 3 + [404] * 6
    assert snapshot_of_writes() == before


@pytest.mark.parametrize("body", [None, [], "x", 5, [1, 2], {"zzz": 1}])
def test_no_write_answers_500_to_a_strange_body(api, drawn, body):
    round_ = drawn.rounds.get(number=1)
    table = round_.tables.first()
    entry = drawn.entries.first()
    paths = [
        "entries/",
        f"entries/{entry.pk}/withdraw/",
        "rounds/",
        "rounds/1/check-ins/",
        "rounds/1/generate/",
        "rounds/1/swap/",
        "rounds/1/close/",
        f"tables/{table.pk}/forfeit/",
    ]
    for path in paths:
        response = api.post(url(drawn, path), body, format="json")
        assert response.status_code < 500, (path, response.content)
        if response.status_code == 400:
            fields(response)
    for path in ("/api/v1/clubs/uno/competitions/", "/api/v1/schedule/"):
        assert api.post(path, body, format="json").status_code == 400


# ---------------------------------------------------------------------------------------------
# Schedule preview


def without_seconds(data: dict) -> dict:
    return data | {"metrics": {k: v for k, v in data["metrics"].items() if k != "seconds"}}


@pytest.mark.parametrize(
    "body",
    [
        {"players": 13, "table_size": 3, "rounds": 4, "format": "rotation", "seed": 2},
        {"players": 9, "table_size": 3, "rounds": 3, "format": "swiss"},
        {"players": 5, "table_size": 2, "rounds": 6, "format": "round_robin"},
    ],
)
def test_schedule_preview_is_the_cli_build(api, body):
    response = api.post("/api/v1/schedule/", body, format="json")
    assert response.status_code == 200, response.json()
    expected = build(
        body["players"], body["table_size"], body["rounds"], body["format"], body.get("seed", 0)
    )
    assert without_seconds(response.json()) == without_seconds(expected)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, {("players", "required"), ("table_size", "required"), ("rounds", "required")}),
        ({"players": 501, "table_size": 3, "rounds": 4}, {("players", "range")}),
        ({"players": 1, "table_size": 3, "rounds": 4}, {("players", "range")}),
        ({"players": 3, "table_size": 4, "rounds": 4}, {("players", "range")}),
        ({"players": 12, "table_size": 9, "rounds": 4}, {("table_size", "range")}),
        ({"players": 12, "table_size": 1, "rounds": 4}, {("table_size", "range")}),
        ({"players": 12, "table_size": 3, "rounds": 61}, {("rounds", "range")}),
        ({"players": 12, "table_size": 3, "rounds": 0}, {("rounds", "range")}),
        ({"players": "12", "table_size": 3.0, "rounds": True}, {
            ("players", "type"), ("table_size", "type"), ("rounds", "type")}),
        ({"players": 12, "table_size": 3, "rounds": 4, "format": "ko"}, {("format", "choice")}),
        ({"players": 12, "table_size": 3, "rounds": 4, "format": "round_robin"},
         {("table_size", "choice")}),
        ({"players": 12, "table_size": 3, "rounds": 4, "seed": -5}, {("seed", "range")}),
        ({"players": 12, "table_size": 3, "rounds": 4, "tables": 4}, {("tables", "unknown_key")}),
    ],
)  # fmt: skip
def test_schedule_preview_validation_names_the_field(api, body, expected):
    response = api.post("/api/v1/schedule/", body, format="json")
    assert response.status_code == 400
    assert fields(response) == expected


def test_schedule_preview_needs_a_signed_in_caller():
    body = {"players": 13, "table_size": 3, "rounds": 4}
    response = APIClient().post("/api/v1/schedule/", body, format="json")
    assert response.status_code in (401, 403)
    assert "rounds" not in response.json()


# ---------------------------------------------------------------------------------------------
# OpenAPI


def test_the_openapi_schema_lists_the_competition_paths(api):
    response = api.get("/api/schema/?format=json")
    assert response.status_code == 200
    paths = json.loads(response.content)["paths"]
    prefix = "/api/v1/competitions/{competition_id}"
    expected = {
        "/api/v1/clubs/{slug}/competitions/": {"get", "post"},
        f"{prefix}/": {"get"},
        f"{prefix}/entries/": {"get", "post"},
        f"{prefix}/entries/{{entry_id}}/withdraw/": {"post"},
        f"{prefix}/rounds/": {"get", "post"},
        f"{prefix}/rounds/{{number}}/": {"get"},
        f"{prefix}/rounds/{{number}}/check-ins/": {"post"},
        f"{prefix}/rounds/{{number}}/generate/": {"post"},
        f"{prefix}/rounds/{{number}}/swap/": {"post"},
        f"{prefix}/rounds/{{number}}/publish/": {"post"},
        f"{prefix}/rounds/{{number}}/close/": {"post"},
        f"{prefix}/tables/{{table_id}}/forfeit/": {"post"},
        f"{prefix}/standings/": {"get"},
        "/api/v1/schedule/": {"post"},
    }
    for path, methods in expected.items():
        assert path in paths, path
        assert set(paths[path]) >= methods, path
    operation = paths[f"{prefix}/standings/"]["get"]
    assert "If-None-Match" in {p["name"] for p in operation["parameters"]}
    assert "304" in operation["responses"]


def resolved(schema: dict, node: dict) -> dict:
    """``node`` with its ``$ref`` (and those of an ``allOf`` of one) looked up in ``schema``."""
    while True:
        if "$ref" in node:
            node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
        elif len(node.get("allOf", ())) == 1:
            node = node["allOf"][0]
        else:
            return node


def request_fields(schema: dict, path: str) -> dict[str, dict]:
    body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return {
        name: resolved(schema, field)
        for name, field in resolved(schema, body)["properties"].items()
    }


def test_the_openapi_schema_shows_the_real_request_fields(api):
    schema = json.loads(api.get("/api/schema/?format=json").content)
    create = request_fields(schema, "/api/v1/clubs/{slug}/competitions/")
    assert set(create) == {
        "name", "slug", "kind", "format", "rulesets", "options", "table_size", "min_table_size",
        "max_table_size", "planned_rounds",
        "double_round", "third_place", "bracket_reset", "cut_to", "scheme", "placement_points",
        "early_rounds_hands_to_win", "semi_final_hands_to_win", "final_hands_to_win",
        "tie_breaks", "best_of",
        "min_rounds", "start_date", "end_date", "public", "notify_entrants", "description",
        "hands_must_be_accepted",
    }  # fmt: skip
    # Enums and limits come from the models and the registries, not from a copy.
    assert create["kind"]["enum"] == list(Kind.values)
    assert create["format"]["enum"] == list(Format.values)
    assert create["scheme"]["enum"] == list(SCHEMES)
    assert resolved(schema, create["rulesets"]["items"])["enum"] == list(RULESETS)
    assert resolved(schema, create["tie_breaks"]["items"])["enum"] == list(TIE_BREAKS)
    assert create["name"]["maxLength"] == Competition._meta.get_field("name").max_length
    assert create["start_date"]["format"] == "date"
    generate = request_fields(
        schema, "/api/v1/competitions/{competition_id}/rounds/{number}/generate/"
    )
    assert set(generate) == {"seed", "method", "objective"}
    assert (generate["seed"]["minimum"], generate["seed"]["maximum"]) == (0, Round.SEED_MAX)
    assert generate["method"]["enum"] == list(
        services.CLUB_NIGHT_METHODS + services.SWISS_FIRST_METHODS
    )
    assert generate["objective"]["enum"] == list(RepeatObjective.values)
    entry = request_fields(schema, "/api/v1/competitions/{competition_id}/entries/")
    assert set(entry) == {"player", "partner", "seed"}
    assert entry["seed"]["maximum"] == Entry.SEED_MAX
    # The hand documents are the rules registry's (tests/scoring/test_openapi_contract.py),
    # with examples.
    hands = schema["paths"]["/api/v1/games/{game_id}/hands/"]["post"]["requestBody"]
    assert hands["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/HandDocumentRequest"
    }
    assert hands["content"]["application/json"]["examples"]


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_a_refusal_reads_the_same_on_the_page_and_in_the_api(api, drawn, olga, language):
    api.post(url(drawn, "rounds/1/publish/"))
    play(drawn.rounds.get(number=1).tables.get(number=1).game, terziglio_won_by(1, 3), olga)
    refused = api.post(url(drawn, "rounds/1/close/"), format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert refused.status_code == 400 and fields(refused) == {("round", "unfinished")}
    from_api = refused.json()["errors"][0]["message"]
    page = Client()
    page.force_login(olga)
    response = page.post(
        f"/c/{drawn.club.slug}/k/{drawn.slug}/rounds/1/",
        {"action": "close", "confirm": "yes"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    shown = re.findall(
        r'<p class="error" role="alert" data-action="close">(.*?)</p>', response.content.decode()
    )
    assert [html.unescape(text) for text in shown] == [from_api]
    expected = {
        "en": "Table 2 has not finished: finish or forfeit it first.",
        "fr": "La table 2 n'a pas terminé\u00a0: terminez-la ou déclarez-la forfait d'abord.",
        "it": "Il tavolo 2 non ha finito: prima fallo finire o chiudilo con forfait.",
    }[language]
    assert from_api == expected


def test_a_draft_rounds_seating_never_reaches_anyone_outside_the_club(club, olga, sara, bea):
    """Its public page is a 404; so are its API resource, its place in the rounds' list and its
    tables, until it is published. Members of the club see it, as on the organizer pages."""
    competition = drawn_in(club, olga, name="Aperto")
    table = Table.objects.filter(round__competition=competition, round__number=1).first()
    for client in (APIClient(), api_as(bea)):
        assert client.get(url(competition, "rounds/1/")).status_code == 404
        assert client.get(url(competition, "rounds/")).json() == []
        forfeit = client.post(url(competition, f"tables/{table.pk}/forfeit/"), {}, format="json")
        assert forfeit.status_code == 404

    def seating(client):
        return [t["seats"] for t in client.get(url(competition, "rounds/1/")).json()["tables"]]

    drawn = seating(api_as(sara))
    assert drawn and all(drawn)
    services.publish_round(round_=competition.rounds.get(number=1), by=Actor.for_user(olga))
    assert seating(APIClient()) == drawn


# ---------------------------------------------------------------------------------------------
# What the pages can do, through the API: settings, deleting a draft round, reinstating, seasons


def test_patch_changes_only_the_settings_sent_and_names_a_bad_one(api, tournament):
    response = api.patch(url(tournament), {"name": "Torneo d'inverno", "best_of": None}, format="json")  # fmt: skip
    assert response.status_code == 200, response.content
    tournament.refresh_from_db()
    assert tournament.name == "Torneo d'inverno" and tournament.planned_rounds == 2
    bad = api.patch(url(tournament), {"planned_rounds": 0, "scheme": "nope"}, format="json")
    assert bad.status_code == 400
    assert ("scheme", "choice") in fields(bad)  # the types first, then the service's checks
    tournament.refresh_from_db()
    assert tournament.planned_rounds == 2
    unknown = api.patch(url(tournament), {"format": "knockout"}, format="json")
    assert unknown.status_code == 400 and ("format", "unknown_key") in fields(unknown)


def test_patch_of_counted_settings_after_a_played_round_needs_confirm(api, drawn, olga):
    first = drawn.rounds.get(number=1)
    services.publish_round(round_=first, by=Actor.for_user(olga))
    refused = api.patch(url(drawn), {"scheme": "game_score"}, format="json")
    assert refused.status_code == 400 and ("confirm", "required") in fields(refused)
    accepted = api.patch(url(drawn), {"scheme": "game_score", "confirm": True}, format="json")
    assert accepted.status_code == 200
    drawn.refresh_from_db()
    assert drawn.scheme == "game_score"


def test_a_scorer_cannot_patch_the_settings(drawn, sara):
    assert api_as(sara).patch(url(drawn), {"name": "X"}, format="json").status_code == 403


def test_delete_a_draft_round_and_not_a_published_one(api, drawn, olga):
    second = services.add_round(competition=drawn, by=Actor.for_user(olga))
    path = url(drawn, f"rounds/{second.number}/")
    assert api.delete(path, HTTP_IF_MATCH=api.get(path)["ETag"]).status_code == 204
    assert not drawn.rounds.filter(number=second.number).exists()
    services.publish_round(round_=drawn.rounds.get(number=1), by=Actor.for_user(olga))
    first = url(drawn, "rounds/1/")
    refused = api.delete(first, HTTP_IF_MATCH=api.get(first)["ETag"])
    assert refused.status_code in (400, 409)
    assert drawn.rounds.filter(number=1).exists()


def test_reinstate_a_withdrawn_entry(api, drawn):
    entry = drawn.entries.first()
    api.post(url(drawn, f"entries/{entry.pk}/withdraw/"), {"reason": "ill"}, format="json")
    response = api.post(url(drawn, f"entries/{entry.pk}/reinstate/"), {"reason": "back"}, format="json")  # fmt: skip
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "active"
    assert api.post(url(drawn, "entries/999999/reinstate/"), format="json").status_code == 404


def test_a_season_of_nights_in_one_call(api, club, olga):
    league = make_competition(
        club, olga, name="Lega", kind="league", rulesets=["terziglio", "turkish"]
    )
    response = api.post(
        url(league, "season/"),
        {"first_date": "2027-01-12", "nights": 4, "start_time": "21:00", "weekday": 1},
        format="json",
    )
    assert response.status_code == 201, response.content
    nights = response.json()
    assert [n["number"] for n in nights] == [1, 2, 3, 4]
    assert [n["date"] for n in nights] == ["2027-01-12", "2027-01-19", "2027-01-26", "2027-02-02"]
    assert [n["ruleset"] for n in nights] == ["terziglio", "turkish", "terziglio", "turkish"]
    bad = api.post(url(league, "season/"), {"first_date": "2027-01-12", "nights": 0}, format="json")
    assert bad.status_code == 400 and ("nights", "range") in fields(bad)
    late = api.post(
        url(league, "season/"), {"first_date": "9999-12-20", "nights": 3}, format="json"
    )
    assert late.status_code == 400 and ("first_date", "range") in fields(late)
