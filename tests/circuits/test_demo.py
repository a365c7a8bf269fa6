"""The demo's circuit of two clubs (``circuits/demo.py``): a second club with its own
tournament, both competitions final and counted, two players linked as one person across the
clubs; left alone when loaded again."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from circuits import demo, selectors
from circuits.models import Circuit, CircuitLink
from scoring.models import Club
from tests.demo_loading import load_demo
from tournaments import demo as competitions_demo
from tournaments import selectors as competition_selectors
from tournaments.models import Competition


def circuit() -> Circuit:
    return Circuit.objects.get(club__slug="circolo-demo", slug=demo.SLUG)


def rank_in(competition: Competition, name: str) -> int:
    (overall,) = competition_selectors.standings_of(competition)["tables"]
    (row,) = [row for row in overall["rows"] if row["name"] == name]
    return row["rank"]


@pytest.mark.django_db
def test_the_circuit_joins_two_clubs_and_counts_both_final_tournaments(demo_output):
    assert f"Created the circuit {demo.NAME}" in demo_output
    found = circuit()
    joined = found.clubs.filter(accepted_at__isnull=False, left_at__isnull=True)
    assert sorted(place.club.slug for place in joined) == ["circolo-del-ponte", "circolo-demo"]
    stages = [place.competition for place in found.competitions.select_related("competition")]
    assert sorted(c.slug for c in stages) == [
        demo.OTHER_TOURNAMENT_SLUG,
        competitions_demo.TOURNAMENT_SLUG,
    ]
    assert all(c.finalized_at is not None for c in stages)
    other = Competition.objects.get(slug=demo.OTHER_TOURNAMENT_SLUG)
    assert other.club.slug == demo.OTHER_CLUB_SLUG
    assert other.entries.count() == len(demo.OTHER_PLAYERS)


@pytest.mark.django_db
def test_a_player_of_both_clubs_is_one_person_whose_two_results_add_up(demo_output):
    found = circuit()
    assert CircuitLink.objects.filter(circuit=found).count() == len(demo.BOTH_CLUBS)
    rows = selectors.circuit_standings(found)["rows"]
    (anna,) = [row for row in rows if row["name"] == "Anna"]
    assert sorted(anna["clubs"]) == ["Circolo Demo", demo.OTHER_CLUB_NAME]
    places = [
        rank_in(Competition.objects.get(slug=slug), "Anna")
        for slug in (competitions_demo.TOURNAMENT_SLUG, demo.OTHER_TOURNAMENT_SLUG)
    ]
    # best of two: both results count, each worth its place in the points table
    assert anna["points"] == sum(
        demo.POINTS_TABLE[place - 1] if place <= len(demo.POINTS_TABLE) else 0 for place in places
    )
    assert anna["events"] == 2
    page = Client().get(reverse("public-circuit", args=["circolo-demo", demo.SLUG]))
    assert page.status_code == 200
    text = page.content.decode()
    assert demo.OTHER_CLUB_NAME in text and rows[0]["name"] in text


@pytest.mark.django_db
def test_loading_the_demo_again_keeps_the_circuit_and_the_second_club(demo_output):
    before = (Club.objects.count(), Circuit.objects.count(), Competition.objects.count())
    again = load_demo()
    assert f"Kept the circuit {demo.NAME}" in again
    assert (Club.objects.count(), Circuit.objects.count(), Competition.objects.count()) == before
