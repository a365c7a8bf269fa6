"""Issue 37, point 7: the bracket on a phone (390×844) says it scrolls sideways and shows every
badge whole; on a projector (1920×1080) it uses the width of the screen and joins each match to
the next round's by connector lines."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_phone_layout import shot
from tests.tournaments.test_bracket import knockout_of_six

from .conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BADGES = """() => [...document.querySelectorAll('.bracket .badge')].map((b) => {
  const r = b.getBoundingClientRect(), box = b.closest('.bracket-match').getBoundingClientRect();
  return [b.textContent.trim(), b.scrollWidth <= b.clientWidth + 1, r.left >= box.left - 0.5,
          r.right <= box.right + 0.5];
})"""


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "it-IT"])
def test_the_bracket_on_a_phone_shows_a_cue_and_whole_badges(
    browser, live_server, club, olga, locale
):
    competition, _entries = knockout_of_six(club, olga)
    context = browser.new_context(base_url=live_server.url, **{**PHONE, "locale": locale})
    page = context.new_page()
    page.goto(f"/p/{club.slug}/{competition.slug}/bracket/")
    bracket = page.locator(".bracket").first
    expect(bracket).to_have_attribute("data-overflow", "right")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    badges = page.evaluate(BADGES)
    assert badges and all(all(b[1:]) for b in badges), badges
    shot(page, f"bracket-390-{locale}")
    bracket.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    expect(bracket).to_have_attribute("data-overflow", "left")
    badges = page.evaluate(BADGES)
    assert all(all(b[1:]) for b in badges), badges
    shot(page, f"bracket-end-390-{locale}")
    context.close()


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "it-IT"])
def test_the_bracket_on_a_projector_uses_the_width_and_draws_connectors(
    browser, live_server, club, olga, locale
):
    competition, _entries = knockout_of_six(club, olga)
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1920, "height": 1080}, locale=locale
    )
    page = context.new_page()
    page.goto(f"/p/{club.slug}/{competition.slug}/bracket/")
    box = page.locator(".bracket").first.bounding_box()
    assert box["width"] >= 0.8 * 1920, box
    expect(page.locator(".bracket").first).not_to_have_attribute("data-overflow", "right")
    # Each match of a round before the last has a connector line towards the next round.
    lines = page.evaluate(
        """() => [...document.querySelectorAll('.bracket')].slice(0, 1).flatMap((b) =>
              [...b.querySelectorAll('.bracket-round:not(:last-child) .bracket-match:not(.third-place)')]
              .map((m) => { const s = getComputedStyle(m, '::after');
                            return [s.content !== 'none' && s.content !== '', parseFloat(s.width),
                                    s.borderTopStyle]; }))"""
    )
    assert lines and all(has and width > 0 and style == "solid" for has, width, style in lines), (
        lines
    )
    shot(page, f"bracket-1920-{locale}")
    context.close()
