"""The competition API, competitions of a club: create, list, detail, and the settings'
PATCH."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.services import Actor
from tests.clients import api_as
from tournaments import services
from tournaments.models import Competition

from .api_helpers import fields, url
from .helpers import make_competition

pytestmark = pytest.mark.django_db


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
        assert {c["id"] for c in response.json()["results"]} == expected
    row = next(c for c in api_as(olga).get("/api/v1/clubs/uno/competitions/").json()["results"])
    assert set(row) >= {"id", "club", "name", "slug", "kind", "format", "rulesets", "public"}
    assert APIClient().get("/api/v1/clubs/nowhere/competitions/").status_code == 404
    # A private club without public competitions is not even known to outsiders (a
    # competition with a trail cannot be deleted: history is permanent).
    type(public).objects.filter(pk=public.pk).update(public=False)
    assert APIClient().get("/api/v1/clubs/uno/competitions/").status_code == 404
    assert APIClient().get("/api/v1/clubs/due/competitions/").json()["results"] == []


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
# The settings, through the API as on the settings page


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
