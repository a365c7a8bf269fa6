"""Issue 37, point 7: no two landmarks of a page share a role and a name (axe's
``landmark-unique``): the circuit's organizer page had two unnamed navigations, the top bar's and
the page's own. The project runs no axe: the landmarks and their names are read in the browser."""

import pytest

from circuits import services as circuits
from tests.builders import by
from tests.tournaments.test_bracket import knockout_of_six

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Every landmark of the page, as [role, accessible name] (the names axe compares).
LANDMARKS = """() => {
  const named = (e) => (e.getAttribute('aria-label') || (e.getAttribute('aria-labelledby') || '')
    .split(/\\s+/).map((id) => (document.getElementById(id) || {}).textContent || '').join(' ')).trim();
  const found = [];
  for (const e of document.querySelectorAll('nav, main, aside, header, footer, section, form, [role]')) {
    if (!e.getClientRects().length) continue;
    const tag = e.tagName.toLowerCase();
    let role = e.getAttribute('role');
    if (!role) {
      if (tag === 'nav') role = 'navigation';
      else if (tag === 'main') role = 'main';
      else if (tag === 'aside') role = 'complementary';
      else if ((tag === 'header' || tag === 'footer') && !e.closest('main, section, article, aside, nav'))
        role = tag === 'header' ? 'banner' : 'contentinfo';
      else if ((tag === 'section' || tag === 'form') && named(e)) role = tag === 'section' ? 'region' : 'form';
    }
    if (['navigation', 'main', 'complementary', 'banner', 'contentinfo', 'region', 'form', 'search'].includes(role))
      found.push([role, named(e)]);
  }
  return found;
}"""


def assert_unique(page):
    landmarks = page.evaluate(LANDMARKS)
    seen = [tuple(x) for x in landmarks]
    assert len(seen) == len(set(seen)), landmarks
    return landmarks


def test_the_circuit_organizer_page_has_no_duplicate_landmark(olga_page, club, olga):
    circuit = circuits.create_circuit(club=club, by=by(olga), name="Stagione")
    olga_page.goto(f"/c/{club.slug}/circuits/{circuit.slug}/")
    landmarks = assert_unique(olga_page)
    assert ["navigation", "Follow"] in landmarks


def test_the_bracket_page_has_no_duplicate_landmark(olga_page, club, olga):
    competition, _entries = knockout_of_six(club, olga)
    olga_page.goto(f"/p/{club.slug}/{competition.slug}/bracket/")
    assert_unique(olga_page)
