"""Issue 23, point 6: the standings fit a 390 px phone (the last column was cut by 10 px)."""

import os

import pytest

from tests.tournaments.helpers import played_briscola_swiss

from .conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")

LONG = [
    "Mariagrazia Bonaventura", "Gianfranco Santangelo", "Annamaria Passalacqua",
    "Massimiliano Caltagirone",
]  # fmt: skip


def swiss_briscola(club, user):
    return played_briscola_swiss(
        club, user, name="Svizzera di Briscola", names=LONG, more=12, rounds=3,
        tie_breaks=["opponents_strength", "wins", "card_points"],
    )  # fmt: skip


def overflow(page):
    return page.evaluate(
        """() => [document.documentElement.scrollWidth - window.innerWidth,
                  ...[...document.querySelectorAll('#standings table')].map(
                      t => t.scrollWidth - t.parentElement.clientWidth)]"""
    )


@pytest.mark.parametrize("locale", ["en-GB", "it-IT", "fr-FR"])
def test_the_standings_fit_a_phone_of_390_px(browser, live_server, club, olga, locale):
    swiss = swiss_briscola(club, olga)
    context = browser.new_context(base_url=live_server.url, **{**PHONE, "locale": locale})
    page = context.new_page()
    page.goto(f"/p/{club.slug}/{swiss.slug}/")
    assert page.locator("#standings th.tie-break").count() == 3
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/standings-390-{locale}.png", full_page=True)
    # Neither the page nor the standings table scrolls sideways: the last column shows whole.
    assert max(overflow(page)) <= 0, overflow(page)
    last = page.locator("#standings thead th.tie-break").last.bounding_box()
    assert last["x"] + last["width"] <= 390
    if SHOTS:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=f"{SHOTS}/standings-1280-{locale}.png", full_page=True)
    context.close()
