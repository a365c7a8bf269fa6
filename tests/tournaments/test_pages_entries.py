"""The competition pages, entries: players from the club and new names, withdrawals and late
entries, Briscola pairs."""

import pytest

from scoring.models import Player
from scoring.services import Actor
from tests.clients import field_error, login
from tournaments import services

from .pages_helpers import SIX, make_competition

pytestmark = pytest.mark.django_db


# -- entries ----------------------------------------------------------------------------------


def test_entering_players_from_the_club_and_new_names(olga, club, players):
    competition = make_competition(club, olga, [])
    client = login(olga)
    response = client.post(
        "/c/uno/k/coppa/entries/",
        {"players": [players[0].pk, players[1].pk], "new_names": "Zoe\n  Ugo  Bassi \n\n"},
    )
    assert response.status_code == 302
    assert sorted(e.name for e in competition.entries.all()) == [
        "Anna",
        "Bruno",
        "Ugo Bassi",
        "Zoe",
    ]
    assert Player.objects.filter(club=club, display_name="Zoe").exists()
    page = client.get("/c/uno/k/coppa/entries/").content.decode()
    assert f'name="players" value="{players[0].pk}"' not in page  # Anna is no longer offered
    assert f'name="players" value="{players[2].pk}"' in page
    response = client.post("/c/uno/k/coppa/entries/", {"new_names": "zoe\nCarla"})
    assert response.status_code == 400
    assert field_error(response.content.decode(), "new_names") == "Zoe is already listed."
    assert competition.entries.count() == 5  # Carla was entered all the same
    empty = client.post("/c/uno/k/coppa/entries/", {"new_names": " "})
    assert "Choose players of the club or write new names." in empty.content.decode()


def test_withdrawing_needs_a_reason_and_a_late_entry_is_marked(olga, club, players):
    competition = make_competition(club, olga, SIX)
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    client = login(olga)
    anna = competition.entries.get(player__display_name="Anna")
    refused = client.post(
        "/c/uno/k/coppa/entries/", {"action": "withdraw", "entry": anna.pk, "reason": ""}
    )
    assert refused.status_code == 400
    assert field_error(refused.content.decode(), "reason") == "This field is required."
    response = client.post(
        "/c/uno/k/coppa/entries/", {"action": "withdraw", "entry": anna.pk, "reason": "flu"}
    )
    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.status == "withdrawn"
    assert competition.events.get(action="withdraw_entry").reason == "flu"
    client.post("/c/uno/k/coppa/entries/", {"new_names": "Gina"})
    gina = competition.entries.get(player__display_name="Gina")
    assert gina.late
    page = client.get("/c/uno/k/coppa/entries/").content.decode()
    gina_row = page.split(f'id="entry-{gina.pk}"', 1)[1].split("</li>", 1)[0]
    anna_row = page.split(f'id="entry-{anna.pk}"', 1)[1].split("</li>", 1)[0]
    assert "late entry" in gina_row and "withdrawn" in anna_row


def test_briscola_pairs_are_entered_as_pairs(olga, club, players):
    competition = make_competition(
        club,
        olga,
        [],
        name="Coppia",
        rulesets=["briscola"],
        options={"briscola": {"format": "pairs"}},
    )
    client = login(olga)
    page = client.get("/c/uno/k/coppia/entries/").content.decode()
    assert 'name="partner"' in page
    response = client.post(
        "/c/uno/k/coppia/entries/", {"player": players[0].pk, "partner_new": "Zoe"}
    )
    assert response.status_code == 302
    entry = competition.entries.get()
    assert entry.name == "Anna & Zoe"
    response = client.post("/c/uno/k/coppia/entries/", {"player": players[1].pk})
    assert field_error(response.content.decode(), "partner") == (
        "Choose a player or write a new name."
    )
