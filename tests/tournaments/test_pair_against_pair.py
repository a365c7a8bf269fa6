"""A table of Briscola pairs is named pair against pair on its pages, in the reader's language
(issue 32, point 8; measured on a phone in tests/browser/test_pairs_sides.py); a table of single
players keeps its seats one by one."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.services import Actor
from tournaments import services

from .helpers import enter_pairs, make_competition, published_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def pairs_game(club, olga):
    by = Actor.for_user(olga)
    competition = make_competition(
        club, olga, rulesets=["briscola"], options={"briscola": {"format": "pairs"}}
    )
    enter_pairs(competition, olga, 2)  # Anna & Bruno, Carla & Dario
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    return round_.tables.get().game


@pytest.mark.parametrize(
    ("language", "against"), [("en", "against"), ("fr", "contre"), ("it", "contro")]
)
def test_a_pairs_table_reads_pair_against_pair_in_the_readers_language(
    pairs_game, olga, language, against
):
    organizer = Client(HTTP_ACCEPT_LANGUAGE=language)
    organizer.force_login(olga)
    seats = [s.player.display_name for s in pairs_game.seats.order_by("index")]
    first, second = f"{seats[0]} &amp; {seats[2]}", f"{seats[1]} &amp; {seats[3]}"
    card = organizer.get(f"/g/{pairs_game.pk}/table/").content.decode()
    assert f'<span class="pair">{first}</span> <span class="against">{against}</span>' in card
    assert f'<span class="pair">{second}</span>' in card
    cards = organizer.get("/c/uno/k/torneo/rounds/1/cards/").content.decode()
    assert f'<span class="against">{against}</span> <span class="pair">{second}</span>' in cards
    for path in (f"/g/{pairs_game.pk}/", f"/g/{pairs_game.pk}/board/"):
        page = organizer.get(path).content.decode()
        assert f'<span class="against">{against}</span>' in page, path
    for path in ("/p/uno/torneo/rounds/1/", "/p/uno/torneo/projector/"):
        public = Client(HTTP_ACCEPT_LANGUAGE=language).get(path).content.decode()
        assert f'<li class="against">{against}</li>' in public, path
        assert first in public and second in public, path


def test_a_table_of_single_players_lists_its_seats(club, olga):
    round_ = published_night(club, olga, 4)
    game = round_.tables.get().game
    organizer = Client()
    organizer.force_login(olga)
    for path in (f"/g/{game.pk}/", f"/g/{game.pk}/board/", f"/g/{game.pk}/table/"):
        assert 'class="against"' not in organizer.get(path).content.decode(), path
    assert 'class="against"' not in Client().get("/p/uno/torneo/rounds/1/").content.decode()
