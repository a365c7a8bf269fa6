"""The circuit pages: creating one, refusals next to their field with nothing stored, the other
club's consent on its own page, links, the public page, the projector and the CSV."""

from __future__ import annotations

import pytest

from circuits import services as circuits
from circuits.models import Circuit, CircuitClub, CircuitLink
from tests.builders import by
from tests.circuits.circuit_helpers import competition_with_results
from tests.clients import login

pytestmark = pytest.mark.django_db


def test_a_circuit_is_created_on_the_clubs_page_and_bad_settings_show_by_their_field(club, olga):
    client = login(olga)
    page = client.get("/c/uno/circuits/")
    assert page.status_code == 200
    once = page.context["form"]["once"].value()
    bad = client.post(
        "/c/uno/circuits/",
        {"action": "create", "once": once, "name": "Circuito", "points_table": "10, 12, 4"},
    )
    assert bad.status_code == 400
    assert "a place may not earn more than the place before it" in str(
        bad.context["form"].errors["points_table"]
    )
    assert not Circuit.objects.exists()
    zero = client.post(
        "/c/uno/circuits/", {"action": "create", "once": once, "name": "Circuito", "best_of": "0"}
    )
    assert "at least 1" in str(zero.context["form"].errors["best_of"])
    made = client.post(
        "/c/uno/circuits/",
        {"action": "create", "once": once, "name": "Circuito", "points_table": "10, 6, 4"},
    )
    assert made.status_code == 302 and made["Location"] == "/c/uno/circuits/circuito/"
    assert Circuit.objects.get().points_table == [10, 6, 4]


def test_the_other_club_accepts_on_its_own_page_and_adds_its_competition(
    club, other_club, olga, bea
):
    circuit = circuits.create_circuit(club=club, by=by(olga), name="Circuito")
    organizer = login(olga)
    invited = organizer.post(
        f"/c/uno/circuits/{circuit.slug}/", {"action": "invite", "club": "due"}
    )
    assert invited.status_code == 302
    guest = login(bea)
    page = guest.get("/c/due/circuits/").content.decode()
    assert "Accept the invitation" in page
    assert (
        guest.post("/c/due/circuits/", {"action": "accept", "circuit": circuit.pk}).status_code
        == 302
    )
    assert CircuitClub.objects.get(club=other_club).joined
    competition = competition_with_results(other_club, bea, "Coppa Due", {"Elena": 3})
    added = guest.post(
        "/c/due/circuits/",
        {"action": "add", "circuit": circuit.pk, f"c{circuit.pk}-competition": competition.pk},
    )
    assert added.status_code == 302
    assert circuit.competitions.get().competition == competition


def test_a_link_of_two_players_of_one_club_is_refused_next_to_the_field(club, olga, players):
    circuit = circuits.create_circuit(club=club, by=by(olga), name="Circuito")
    uno = competition_with_results(club, olga, "Coppa", {"Anna": 3, "Bruno": 1})
    circuits.add_competition(circuit=circuit, by=by(olga), competition=uno)
    answer = login(olga).post(
        f"/c/uno/circuits/{circuit.slug}/",
        {"action": "link", "a": players[0].pk, "b": players[1].pk},
    )
    assert answer.status_code == 400
    assert "same club (Circolo Uno)" in str(answer.context["link_form"].errors["b"])
    assert not CircuitLink.objects.exists()


@pytest.fixture
def season(club, other_club, olga, bea):
    circuit = circuits.create_circuit(club=club, by=by(olga), name="Circuito", best_of=5)
    circuits.invite_club(circuit=circuit, by=by(olga), club=other_club)
    circuits.accept_invitation(circuit=circuit, by=by(bea), club=other_club)
    uno = competition_with_results(club, olga, "Coppa Uno", {"Anna": 9, "Bruno": 5})
    due = competition_with_results(other_club, bea, "Coppa Due", {"Elena": 9, "Gina": 5})
    live = competition_with_results(club, olga, "Coppa Viva", {"Anna": 1, "Bruno": 4}, final=False)
    for competition, user in ((uno, olga), (due, bea), (live, olga)):
        circuits.add_competition(circuit=circuit, by=by(user), competition=competition)
    circuits.link_players(
        circuit=circuit,
        by=by(olga),
        a=club.players.get(display_name="Anna"),
        b=other_club.players.get(display_name="Elena"),
    )
    return circuit


def test_the_public_page_shows_the_linked_person_once_and_what_counts(client, season):
    page = client.get(f"/circuits/uno/{season.slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    ranked = page.context["ranked"]
    assert [(r["name"], r["points"]) for r in ranked] == [
        ("Elena / Anna", 4),
        ("Bruno", 1),
        ("Gina", 1),
    ]
    assert html.count("Elena / Anna") == 1
    assert "Only competitions whose results are declared final count." in html
    assert "provisional" in html


def test_the_projector_and_the_csv(client, season):
    projector = client.get(f"/circuits/uno/{season.slug}/projector/").content.decode()
    assert "Elena / Anna" in projector and 'class="projector"' in projector
    csv = client.get(f"/circuits/uno/{season.slug}/standings.csv")
    assert csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[0] == "Rank;Name;Clubs;Points;Competitions;Coppa Uno;Coppa Due;Coppa Viva"
    assert lines[1] == "1;Elena / Anna;Circolo Due, Circolo Uno;4;2;2;2;1*"


def test_a_private_circuit_is_hidden_from_strangers(client, club, olga, bea):
    circuit = circuits.create_circuit(club=club, by=by(olga), name="Interno", public=False)
    assert client.get(f"/circuits/uno/{circuit.slug}/").status_code == 404
    assert login(bea).get(f"/c/uno/circuits/{circuit.slug}/").status_code == 404
    assert login(olga).get(f"/circuits/uno/{circuit.slug}/").status_code == 200


def test_the_public_page_says_who_can_still_win(client, club, olga):
    """Points 10, 6, 3; Anna 20, Bruno 12, Carla 6 after two finals; the final still open to
    entries (no round, no registration): Bruno and Anna can still win, Carla cannot (16 at
    most); each badge's title gives the final ranks still possible (Bruno: anyone of the three
    may end above him; a newcomer cannot, with 10 at most)."""
    circuit = circuits.create_circuit(
        club=club, by=by(olga), name="Stagione", points_table=[10, 6, 3]
    )
    for name in ("Coppa Uno", "Coppa Due"):
        done = competition_with_results(club, olga, name, {"Anna": 9, "Bruno": 5, "Carla": 1})
        circuits.add_competition(circuit=circuit, by=by(olga), competition=done)
    page = client.get(f"/circuits/uno/{circuit.slug}/").content.decode()
    assert 'data-outlook="' not in page and 'data-note="outlook"' not in page
    last = competition_with_results(club, olga, "Finale", {"Bruno": 0, "Carla": 0}, final=False)
    circuits.add_competition(circuit=circuit, by=by(olga), competition=last)
    page = client.get(f"/circuits/uno/{circuit.slug}/").content.decode()
    rows = {
        name: page.split(f'<td class="name">{name}')[1].split("</td>")[0]
        for name in ("Anna", "Bruno", "Carla")
    }
    assert 'data-outlook="can_win"' in rows["Anna"] and "can still win<" in rows["Anna"]
    assert (
        'data-outlook="can_win"' in rows["Bruno"]
        and "data-ranks>Final rank between 1 and 3<" in rows["Bruno"]
    )
    assert 'data-outlook="cannot_win"' in rows["Carla"]
    assert 'data-note="outlook"' in page and "Who can still win" in page
