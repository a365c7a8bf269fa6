"""Issue 23, point 6: the standings fit a 390 px phone (the last column was cut by 10 px)."""

import os

import pytest

from scoring.services import Actor
from tests.tournaments.helpers import briscola_won_by, enter, make_competition, play
from tournaments import services

from .conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")

LONG = [
    "Mariagrazia Bonaventura", "Gianfranco Santangelo", "Annamaria Passalacqua",
    "Massimiliano Caltagirone",
]  # fmt: skip


def swiss_briscola(club, user):
    by = Actor.for_user(user)
    swiss = make_competition(
        club, user, name="Svizzera di Briscola", rulesets=["briscola"], format="swiss",
        table_size=2, planned_rounds=3, tie_breaks=["opponents_strength", "wins", "card_points"],
        options={"briscola": {"hands_to_win": 1}},
    )  # fmt: skip
    for name in LONG:
        services.add_entry(competition=swiss, player=name, by=by)
    enter(swiss, user, 12)
    for _ in range(3):
        round_ = services.add_round(competition=swiss, by=by)
        services.generate_round(round_=round_, by=by)
        services.publish_round(round_=round_, by=by)
        for table in round_.tables.select_related("game"):
            play(table.game, briscola_won_by(0, 2, 1), user)
        services.close_round(round_=round_, by=by)
    return swiss


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
