"""Circuits through the API: the same services, refusals as 400 naming the field, readers and
writers as the module says, and the endpoints in the OpenAPI schema."""

from __future__ import annotations

import pytest

from circuits.models import Circuit, CircuitClub, CircuitEvent, CircuitLink
from tests.circuits.circuit_helpers import competition_with_results
from tests.clients import api_as

pytestmark = pytest.mark.django_db


def counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Circuit, CircuitClub, CircuitLink, CircuitEvent))


def error(answer, status: int = 400) -> dict:
    assert answer.status_code == status, answer.content
    (only,) = answer.json()["errors"]
    return only


def test_a_circuit_of_two_clubs_through_the_api(club, other_club, olga, bea):
    organizer, guest = api_as(olga), api_as(bea)
    made = organizer.post(
        "/api/v1/clubs/uno/circuits/",
        {"name": "Circuito", "points_table": [10, 6, 4, 2]},
        format="json",
    )
    assert made.status_code == 201, made.content
    circuit = made.json()["id"]
    base = f"/api/v1/circuits/{circuit}"
    assert organizer.post(f"{base}/clubs/", {"club": "due"}, format="json").status_code == 201
    # Only the invited club's managers accept.
    assert organizer.post(f"{base}/clubs/due/accept/").status_code == 403
    early = competition_with_results(other_club, bea, "Coppa Zero", {"Elena": 1})
    # No competition of a club that has not accepted: refused naming the club and the field.
    refused = error(
        organizer.post(f"{base}/competitions/", {"competition": early.pk}, format="json")
    )
    assert refused["field"] == "competition" and "Circolo Due has not joined" in refused["message"]
    assert guest.post(f"{base}/clubs/due/accept/").json()["state"] == "joined"
    uno = competition_with_results(club, olga, "Coppa Uno", {"Anna": 9, "Bruno": 5})
    due = competition_with_results(other_club, bea, "Coppa Due", {"Elena": 9, "Gina": 5})
    assert (
        organizer.post(f"{base}/competitions/", {"competition": uno.pk}, format="json").status_code
        == 201
    )
    assert (
        guest.post(f"{base}/competitions/", {"competition": due.pk}, format="json").status_code
        == 201
    )
    twice = error(guest.post(f"{base}/competitions/", {"competition": due.pk}, format="json"))
    assert (twice["field"], twice["code"]) == ("competition", "duplicate")
    anna = club.players.get(display_name="Anna").pk
    elena = other_club.players.get(display_name="Elena").pk
    link = organizer.post(f"{base}/links/", {"a": anna, "b": elena}, format="json")
    assert link.status_code == 201
    standings = api_as(None).get(f"{base}/standings/").json()
    assert [(r["rank"], r["name"], r["points"]) for r in standings["rows"]] == [
        (1, "Elena / Anna", 20),
        (2, "Bruno", 6),
        (2, "Gina", 6),
    ]
    assert standings["contenders"] is None
    assert organizer.delete(f"{base}/links/{link.json()['id']}/").status_code == 204
    assert guest.post(f"{base}/clubs/due/leave/").json()["state"] == "left"
    detail = organizer.get(f"{base}/").json()
    assert [c["state"] for c in detail["clubs"]] == ["joined", "left"]
    assert [c["counts"] for c in detail["competitions"]] == [True, False]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"points_table": [5, 9]}, "points_table", id="increasing"),
        pytest.param({"points_table": [5, -2]}, "points_table", id="negative"),
        pytest.param({"best_of": 0}, "best_of", id="best-of-0"),
        pytest.param({"points_table": "many"}, "points_table", id="not-a-list"),
    ],
)
def test_bad_settings_are_a_400_naming_the_field_and_nothing_is_stored(club, olga, body, field):
    before = counts()
    answer = api_as(olga).post("/api/v1/clubs/uno/circuits/", {"name": "C"} | body, format="json")
    assert error(answer)["field"] == field
    assert counts() == before


def test_bad_links_are_a_400_naming_the_field(club, olga, players):
    circuit = api_as(olga).post("/api/v1/clubs/uno/circuits/", {"name": "C"}, format="json")
    base = f"/api/v1/circuits/{circuit.json()['id']}"
    competition = competition_with_results(club, olga, "Coppa", {"Anna": 3, "Bruno": 1})
    api_as(olga).post(f"{base}/competitions/", {"competition": competition.pk}, format="json")
    before = counts()
    itself = error(
        api_as(olga).post(f"{base}/links/", {"a": players[0].pk, "b": players[0].pk}, format="json")
    )
    assert (itself["field"], itself["code"]) == ("b", "not_allowed")
    same = error(
        api_as(olga).post(f"{base}/links/", {"a": players[0].pk, "b": players[1].pk}, format="json")
    )
    assert same["field"] == "b" and "same club" in same["message"]
    assert counts() == before


def test_strangers_may_not_write_and_a_private_circuit_is_hidden(club, olga, bea):
    made = api_as(olga).post(
        "/api/v1/clubs/uno/circuits/", {"name": "C", "public": False}, format="json"
    )
    base = f"/api/v1/circuits/{made.json()['id']}"
    assert api_as(None).get(f"{base}/standings/").status_code == 404
    assert api_as(bea).patch(f"{base}/", {"best_of": 3}, format="json").status_code == 404
    api_as(olga).patch(f"{base}/", {"public": True}, format="json")
    assert api_as(bea).patch(f"{base}/", {"best_of": 3}, format="json").status_code == 403
    assert api_as(bea).post(
        "/api/v1/clubs/uno/circuits/", {"name": "X"}, format="json"
    ).status_code in (
        403,
        404,
    )


def test_the_schema_describes_the_circuit_endpoints(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    text = schema.content.decode()
    for path in (
        "/api/v1/clubs/{slug}/circuits/",
        "/api/v1/circuits/{circuit_id}/standings/",
        "/api/v1/circuits/{circuit_id}/links/",
        "/api/v1/circuits/{circuit_id}/clubs/{club_slug}/accept/",
    ):
        assert path in text
