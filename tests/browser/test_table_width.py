"""Issue 37, point 7: a Turkish game of six or eight at 390×844 — every first name whole in the
history's headers (they were cut to three letters) and the totals inside the screen (eight
players' totals were 444 px wide, and the page scrolled sideways)."""

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.services import Actor
from tests.browser.test_phone_layout import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Mariagrazia", "Gianfranco", "Annamaria", "Massimiliano", "Sandro", "Franco", "Bruno", "Carla"]  # fmt: skip


def turkish_of(club, olga, size):
    by = Actor.for_user(olga)
    players = [services.add_player(club=club, display_name=n, by=by) for n in NAMES[:size]]
    game = services.start_game(club=club, ruleset="turkish", players=players, by=by)
    penalties = [{"seat": s, "points": 10 * s + 5} for s in range(1, size)]
    services.record_hand(
        game=game, document={"dealer": 0, "went_out": 0, "penalties": penalties}, by=by
    )
    return game


HEADERS = """() => [...document.querySelectorAll('.history thead th')].slice(2).map((th) => {
  const r = th.getBoundingClientRect();
  return [th.textContent.trim(), th.scrollWidth <= th.clientWidth + 1,
          th.scrollHeight <= th.clientHeight + 1, r.left >= 0 && r.right <= innerWidth];
})"""


@pytest.mark.parametrize("size", [6, 8])
def test_a_turkish_history_shows_every_first_name_whole(olga_page, club, olga, size):
    game = turkish_of(club, olga, size)
    page = olga_page
    page.goto(f"/g/{game.pk}/")
    expect(page.locator(".history tbody tr")).to_have_count(1)
    headers = page.evaluate(HEADERS)
    assert [h[0] for h in headers] == NAMES[:size]
    assert all(wide and tall and inside for _n, wide, tall, inside in headers), headers
    page.locator(".history").scroll_into_view_if_needed()
    shot(page, f"turkish-{size}-history-390")


def test_a_turkish_game_of_eight_does_not_scroll_sideways(olga_page, club, olga):
    game = turkish_of(club, olga, 8)
    page = olga_page
    page.goto(f"/g/{game.pk}/")
    expect(page.locator("#live .totals .total")).to_have_count(8)
    widths = page.evaluate(
        """() => [document.documentElement.scrollWidth - innerWidth,
                  ...[...document.querySelectorAll('#live .totals, .history .table-wrap')]
                      .map((e) => e.scrollWidth - e.clientWidth)]"""
    )
    assert max(widths) <= 0, widths
    box = page.locator("#live .totals").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    # Every score whole; a name that does not fit keeps its full name in its title.
    cells = page.eval_on_selector_all(
        "#live .total .name, #live .total .score",
        "els => els.map((e) => [e.textContent, e.title, e.scrollWidth <= e.clientWidth])",
    )
    for text, title, fits in cells:
        assert fits or title == text, cells
    assert all(fits for _t, _ti, fits in cells[1::2]), cells
    shot(page, "turkish-8-totals-390")
