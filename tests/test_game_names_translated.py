"""Game names are words of the page: the home page, a competition's public page and its
settings speak the reader's language ("Turkish" is "Turco" in Italian, "Turc" in French)."""

import pytest
from django.test import Client

from tests.tournaments.helpers import make_competition

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "name"), [("it", "Turco"), ("fr", "Turc"), ("en", "Turkish")])
def test_the_home_page_names_the_games_in_the_readers_language(language, name):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/").content.decode()
    assert f"<li>{name} <span" in page


@pytest.mark.parametrize(("language", "name"), [("it", "Turco"), ("fr", "Turc")])
def test_a_competition_page_names_its_game_in_the_readers_language(club, olga, language, name):
    make_competition(club, olga, slug="coppa", rulesets=["turkish"])
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/p/uno/coppa/").content.decode()
    assert name in page and "Turkish" not in page


@pytest.mark.parametrize(
    ("language", "where"),
    [("it", "Turno 1 · Tavolo 2"), ("fr", "Tour 1 · Table 2"), ("en", "Round 1 · Table 2")],
)
def test_a_tables_game_title_reads_round_and_table_in_the_readers_language(
    club, olga, language, where
):
    from tests.tournaments.helpers import published_night

    round_ = published_night(club, olga, 7, slug="serata", name="Serata")
    game = round_.tables.get(number=2).game
    assert game.title == "Serata · R1 · T2"  # stored as the competition wrote it
    reader = Client(HTTP_ACCEPT_LANGUAGE=language)
    reader.force_login(olga)
    for url in (f"/g/{game.pk}/", f"/c/{club.slug}/"):
        page = reader.get(url).content.decode()
        assert f"Serata · {where}" in page, url
        assert "R1 · T2" not in page, url
