"""One word for rounds per kind of competition (league nights, tournament rounds) and dates
day first in every language of the site (issue 11, the wording bullets)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from scoring.services import Actor
from tests.clients import login
from tournaments import services

from .helpers import enter, make_competition

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("kind", "fmt", "word", "other"),
    [
        ("league", "club_night", "Night 1", "Round 1"),
        ("tournament", "rotation", "Round 1", "Night 1"),
    ],
)
def test_a_round_is_named_by_the_kind_of_competition(club, olga, kind, fmt, word, other):
    competition = make_competition(club, olga, slug="coppa", kind=kind, format=fmt)
    enter(competition, olga, 6)
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by, date=dt.date(2025, 3, 1))
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    for url in (
        "/c/uno/k/coppa/rounds/1/",
        "/p/uno/coppa/rounds/1/",
        "/p/uno/coppa/",
        "/p/uno/coppa/projector/",
    ):
        html = login(olga).get(url).content.decode()
        assert word in html and other not in html, url
    entry = round_.tables.first().seats.first().entry_id
    html = Client().get(f"/p/uno/coppa/where/?entry={entry}").content.decode()
    assert word in html and other not in html


def test_a_round_name_is_translated(club, olga):
    competition = make_competition(club, olga, slug="coppa", kind="league", format="club_night")
    services.add_round(competition=competition, by=Actor.for_user(olga))
    html = login(olga).get("/c/uno/k/coppa/rounds/1/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Serata 1" in html
    html = login(olga).get("/c/uno/k/coppa/rounds/1/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Soirée 1" in html


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_dates_are_day_first_in_every_language(club, olga, language):
    make_competition(club, olga, slug="coppa", start_date=dt.date(2025, 3, 1))
    html = login(olga).get("/c/uno/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert "01/03/2025" in html and "03/01/2025" not in html
