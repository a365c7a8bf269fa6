"""Issue 37, point 7: the league page's links are tap targets a finger can hit — each player's
name in the standings at least 44×44 CSS px, every other link at least 24×24 (WCAG 2.5.8; links
inside a sentence are exempt) — measured in the browser at 390×844."""

import pytest

from tests.browser.test_phone_layout import shot

from .conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TARGETS = """() => [...document.querySelectorAll('main a')]
  .filter((a) => a.getClientRects().length && !a.closest('p.hint, .hint'))
  .map((a) => { const r = a.getBoundingClientRect();
                return [a.textContent.trim(), Math.round(r.width), Math.round(r.height),
                        !!a.closest('td.name') && !a.classList.contains('badge')]; })"""


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "it-IT"])
def test_the_league_pages_links_are_big_enough_to_tap(browser, live_server, club, olga, locale):
    from tests.tournaments.test_standings_explained import best_of_one

    club.results_public = True
    club.save(update_fields=["results_public"])
    league = best_of_one.__wrapped__(club, olga)
    context = browser.new_context(base_url=live_server.url, **{**PHONE, "locale": locale})
    page = context.new_page()
    page.goto(f"/p/{club.slug}/{league.slug}/")
    targets = page.evaluate(TARGETS)
    names = [t for t in targets if t[3]]
    assert [n[0] for n in names] == ["Anna", "Bruno", "Carla"] or len(names) == 3, targets
    small = [t for t in targets if t[1] < 24 or t[2] < 24]
    assert not small, small
    assert all(w >= 44 and h >= 44 for _n, w, h, _name in names), names
    shot(page, f"league-targets-390-{locale}")
    context.close()
