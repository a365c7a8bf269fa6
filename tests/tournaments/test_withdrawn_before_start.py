"""An entry withdrawn before the competition started (before its first round was published) took
no part: it is out of the standings and of everything that reads them (the standings page and
its CSV, the projector, the results sheet, a circuit's field size, the final e-mail), and stays
in the entries' history. An entry withdrawn later keeps its results and its row (issue 32,
point 8)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from circuits import selectors as circuit_read
from circuits import services as circuits
from scoring import services as scoring
from scoring.services import Actor
from tournaments import services
from tournaments.models import StandingsSnapshot
from tournaments.selectors.standings import standings_of

from .helpers import enter, make_competition, play, terziglio_won_by

pytestmark = pytest.mark.django_db

PLAYED = {"Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"}


@pytest.fixture
def evening(club, olga, django_capture_on_commit_callbacks):
    """Seven Terziglio players entered; Gina withdraws before round 1 is drawn and published,
    the six others play it at two tables of three; Franco withdraws after it; the results are
    declared final. Everyone has an address."""
    by = Actor.for_user(olga)
    with django_capture_on_commit_callbacks(execute=True):
        competition = make_competition(club, olga, planned_rounds=1, format="club_night")
        entries = enter(competition, olga, 7)
        for entry in entries:
            name = entry.player.display_name.lower()
            scoring.update_player(player=entry.player, by=by, email=f"{name}@example.org")
        services.withdraw_entry(entry=entries[6], by=by, reason="ill")
        round_ = services.add_round(competition=competition, by=by)
        services.generate_round(round_=round_, by=by, seed=1)
        services.publish_round(round_=round_, by=by)
        for table in round_.tables.select_related("game"):
            play(table.game, terziglio_won_by(1, 3), olga)
        services.close_round(round_=round_, by=by)
        services.withdraw_entry(entry=entries[5], by=by, reason="left early")
        mail.outbox.clear()
        services.finalize_competition(competition=competition, by=by)
    return type(competition).objects.get(pk=competition.pk)


def names(rows) -> set[str]:
    return {row["name"] for row in rows}


def test_the_standings_leave_out_an_entry_withdrawn_before_the_start(evening):
    (overall,) = standings_of(evening)["tables"]
    assert names(overall["rows"]) == PLAYED
    franco = next(row for row in overall["rows"] if row["name"] == "Franco")
    assert franco["withdrawn"] and franco["games"] == 1


def test_no_page_that_reads_the_standings_names_it_but_the_entries_do(evening, olga):
    public, organizer = Client(), Client()
    organizer.force_login(olga)
    for client, path in (
        (public, "/p/uno/torneo/standings/"),
        (public, "/p/uno/torneo/standings.csv"),
        (public, "/p/uno/torneo/projector/"),
        (organizer, "/c/uno/k/torneo/prizes/results/"),
    ):
        response = client.get(path)
        text = response.content.decode()
        assert response.status_code == 200, path
        assert "Franco" in text and "Gina" not in text, path
    entries = organizer.get("/c/uno/k/torneo/entries/").content.decode()
    assert "Gina" in entries and "Franco" in entries


def test_the_final_email_goes_to_those_who_took_part_and_lists_them(evening):
    letters = {message.to[0]: message.body for message in mail.outbox}
    assert sorted(letters) == sorted(f"{name.lower()}@example.org" for name in PLAYED)
    assert all("Gina" not in body for body in letters.values())
    assert "Franco" in letters["anna@example.org"]


def test_a_circuits_field_size_counts_those_who_took_part(evening, club, olga):
    by = Actor.for_user(olga)
    circuit = circuits.create_circuit(club=club, by=by, name="Circuito", season="2026")
    circuits.add_competition(circuit=circuit, by=by, competition=evening)
    rows = circuit_read.circuit_standings(circuit)["rows"]
    assert {row["name"] for row in rows} == PLAYED
    assert {result["entrants"] for row in rows for result in row["results"]} == {6}


def test_an_entry_withdrawn_after_round_1_was_published_leaves_when_it_is_unpublished(
    club, olga, django_capture_on_commit_callbacks
):
    by = Actor.for_user(olga)
    with django_capture_on_commit_callbacks(execute=True):
        competition = make_competition(club, olga, planned_rounds=1, format="club_night")
        entries = enter(competition, olga, 7)
        round_ = services.add_round(competition=competition, by=by)
        services.generate_round(round_=round_, by=by, seed=1)
        services.publish_round(round_=round_, by=by)
        services.withdraw_entry(entry=entries[6], by=by, reason="ill")

    def cached() -> set[str]:
        return names(
            StandingsSnapshot.objects.get(competition=competition).data["tables"][0]["rows"]
        )

    assert cached() == PLAYED | {"Gina"}  # withdrawn once the competition had started
    with django_capture_on_commit_callbacks(execute=True):
        services.unpublish_round(round_=round_, by=by, reason="wrong draw")
    assert cached() == PLAYED  # round 1 not published after all: Gina took no part
