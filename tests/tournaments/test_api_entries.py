"""The competition API, entries: enter, withdraw, reinstate, and the errors naming the field."""

from __future__ import annotations

import pytest

from scoring import services as scoring
from scoring.models import Player
from scoring.services import Actor
from tournaments import services
from tournaments.models import CompetitionEvent

from .api_helpers import fields, url
from .helpers import enter, make_competition, tables_of

pytestmark = pytest.mark.django_db


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
    listed = api.get(url(tournament, "entries/")).json()["results"]
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


def test_reinstate_a_withdrawn_entry(api, drawn):
    entry = drawn.entries.first()
    api.post(url(drawn, f"entries/{entry.pk}/withdraw/"), {"reason": "ill"}, format="json")
    response = api.post(url(drawn, f"entries/{entry.pk}/reinstate/"), {"reason": "back"}, format="json")  # fmt: skip
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "active"
    assert api.post(url(drawn, "entries/999999/reinstate/"), format="json").status_code == 404
