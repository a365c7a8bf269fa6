"""Issue 37, point 7: a table or a bracket wider than a 390 px phone says so — its edge fades
where more is hidden (``data-overflow`` names the sides, set by scroll_cue.js) — and its last
column can be scrolled to whole, inside the screen."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_phone_layout import shot
from tests.tournaments.helpers import played_briscola_swiss

from .conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = [
    "Mariagrazia Bonaventura", "Gianfranco Santangelo", "Annamaria Passalacqua",
    "Massimiliano Caltagirone",
]  # fmt: skip
FIVE = ["opponents_strength", "wins", "card_points", "hands_won", "head_to_head"]


def wide_swiss(club, user):
    return played_briscola_swiss(
        club, user, name="Svizzera larga", names=LONG, more=8, rounds=2, tie_breaks=FIVE
    )


def cue(wrap):
    return wrap.evaluate(
        "w => [w.scrollWidth - w.clientWidth, w.dataset.overflow || '', getComputedStyle(w).maskImage]"
    )


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "it-IT"])
def test_wide_standings_show_a_cue_and_their_last_column_whole(
    browser, live_server, club, olga, locale
):
    swiss = wide_swiss(club, olga)
    context = browser.new_context(base_url=live_server.url, **{**PHONE, "locale": locale})
    page = context.new_page()
    page.goto(f"/p/{club.slug}/{swiss.slug}/")
    expect(page.locator("#standings th.tie-break")).to_have_count(5)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    wrap = page.locator("#standings .table-wrap").first
    hidden, sides, mask = cue(wrap)
    assert hidden > 0  # five tie-breaks and long names do not fit 390 px: it scrolls...
    assert sides == "right" and "gradient" in mask, (sides, mask)  # ...and its edge says so
    shot(page, f"standings-cue-390-{locale}")
    wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
    expect(wrap).to_have_attribute("data-overflow", "left")
    # Scrolled to the end, the last column shows whole, inside the box and the screen.
    last = page.locator("#standings thead th:visible").last.bounding_box()
    box = wrap.bounding_box()
    assert last["x"] + last["width"] <= min(box["x"] + box["width"], 390) + 0.5, (last, box)
    assert last["x"] >= box["x"]
    shot(page, f"standings-cue-end-390-{locale}")
    page.set_viewport_size({"width": 1280, "height": 800})
    wrap.evaluate("w => { w.scrollLeft = 0; }")
    # Wider, the cue follows what is hidden: none when the table fits (in French it is still
    # a few pixels too wide, and says so).
    expect(wrap).not_to_have_attribute("data-overflow", "left")
    hidden, sides, _mask = cue(wrap)
    assert (hidden > 0) == (sides == "right"), (hidden, sides)
    shot(page, f"standings-cue-1280-{locale}")
    context.close()
