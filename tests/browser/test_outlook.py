"""Issue 25, point 5: a league's standings say who can still win, and each entry's page says it
in full, at 390 px and 1280 px."""

import os

import pytest

from tests.tournaments.test_outlook_pages import league_two_nights_in

from .conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)])
def test_a_league_says_who_can_still_win(browser, live_server, club, olga, viewport):
    """A league of club nights, one point a win, three nights planned, two played by four
    entries: the leader has 2 points (won both), two have 1, one has 0 (lost both). One night
    is left, where a win is worth 1 point at most. The leader and the two on 1 point can still
    win: the two can reach 2, level with the leader (a tie on points counts as first place, the
    tie-breaks not being known); nobody has clinched. The one on 0 reaches 1 at most, below
    the leader's 2 already: it cannot win."""
    competition, who = league_two_nights_in(club, olga)
    width, height = viewport
    context = browser.new_context(
        base_url=live_server.url, **{**PHONE, "viewport": {"width": width, "height": height}}
    )
    page = context.new_page()
    page.goto(f"/p/{club.slug}/{competition.slug}/standings/")
    badge = page.locator(f'#standings tr[data-entry="{who["two"]}"] .badge.outlook')
    assert badge.inner_text() == "can still win"
    for entry in who["one"]:
        row = page.locator(f'#standings tr[data-entry="{entry}"] .badge.outlook')
        assert row.inner_text() == "can still win"
    last = page.locator(f'#standings tr[data-entry="{who["none"]}"] .badge.outlook')
    assert last.inner_text() == "cannot win"
    assert page.locator("#standings [data-note=outlook]").is_visible()
    # the page does not scroll sideways
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/outlook-standings-{width}.png", full_page=True)
    last.click()
    page.wait_for_url(f"**/entries/{who['none']}/")
    assert page.locator("#outlook .badge.outlook").inner_text() == "cannot win"
    assert "Final rank between 2 and 4" in page.locator("#outlook").inner_text()
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/outlook-entry-{width}.png", full_page=True)
    context.close()
