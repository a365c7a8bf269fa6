"""Your table on your phone (issue 37 point 5) in Chromium under ASGI: a player with an account
has My games open on their phone (390×844); the organizer publishes the round; within 2 s, without
a reload, the phone says "Round 1 is published: table N", with whom, and links to the round."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring import services as scoring
from scoring.services import Actor
from tests.browser.conftest import log_in
from tests.browser.test_live import AT_ONCE, expect_streaming, mark, still_here
from tests.tournaments.helpers import enter, make_competition
from tournaments import services
from tournaments.models import TableSeat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-your-table"))


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_a_players_phone_shows_their_table_when_the_round_is_published(
    asgi_phone, club, olga, oscar, language
):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name="Coppa", slug="coppa")
    oscars = scoring.add_player(club=club, display_name="Oscar", by=by, user=oscar)
    mine = services.add_entry(competition=competition, player=oscars, by=by)
    enter(competition, olga, 5)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    locale = {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}[language]
    page = asgi_phone(locale=locale).new_page()
    if language == "en":
        log_in(page, "oscar", "pw-oscar")
    else:
        page.goto("/login/")
        page.locator('input[name="username"]').fill("oscar")
        page.locator('input[name="password"]').fill("pw-oscar")
        page.locator('input[name="password"]').press("Enter")
        page.wait_for_url("**/")
    page.goto("/me/games/")
    expect_streaming(page)
    mark(page)
    services.publish_round(round_=round_, by=by)
    seat = TableSeat.objects.select_related("table").get(entry=mine)
    news = page.locator("#my-news")
    expect(news).to_be_visible(timeout=AT_ONCE)
    number = seat.table.number
    sentence = {
        "en": f"Round 1 is published: table {number}",
        "fr": str(number),
        "it": str(number),
    }[language]
    expect(news).to_contain_text(sentence)
    others = [s.entry.name for s in seat.table.seats.order_by("position") if s.entry_id != mine.pk]
    expect(news.locator(".my-news-details")).to_contain_text(", ".join(others))
    if language == "en":
        expect(news.locator(".my-news-details")).to_contain_text("with ")
    assert still_here(page)
    link = news.get_by_role("link").first
    assert re.search(r"/p/uno/coppa/rounds/1/$", link.get_attribute("href"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"my-games-{language}-390.png"))
