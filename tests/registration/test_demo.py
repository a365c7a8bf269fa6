"""The demo club's open registration (``registration/demo.py``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from registration import demo
from registration.models import CapacityUnit, RegistrationSettings
from tests.demo_loading import load_demo
from tournaments.models import Competition


@pytest.mark.django_db
def test_the_demo_opens_registration_for_a_pairs_tournament_and_keeps_it_on_a_second_load():
    output = load_demo()
    assert f"Created the tournament {demo.NAME}, registration open for 8 tables" in output
    competition = Competition.objects.get(club__slug="circolo-demo", slug=demo.SLUG)
    assert (competition.format, competition.pairs, competition.public) == ("swiss", True, True)
    found = RegistrationSettings.objects.get(competition=competition)
    assert (found.capacity, found.unit, found.state()) == (8, CapacityUnit.TABLES, "open")
    assert found.places == 16  # pairs: two a table
    page = Client().get(reverse("public-competition", args=["circolo-demo", demo.SLUG]))
    register = reverse("registration-register", args=["circolo-demo", demo.SLUG])
    assert f'href="{register}"' in page.content.decode()
    again = load_demo()
    assert f"Kept the tournament {demo.NAME} and its registration" in again
    assert RegistrationSettings.objects.filter(competition__slug=demo.SLUG).count() == 1
