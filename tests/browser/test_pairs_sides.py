"""Issue 32, point 8: a table of Briscola pairs shown pair against pair — both partners' names of
each side, whole — on a phone (390×844): the game page's totals, the scoreboard, the table card
and the printed table cards, the round's tables (public and organizer's) and the projector. The
totals listed four single names, cut to "Gianfr…" and "Annam…"."""

import pytest
from playwright.sync_api import expect

from scoring.services import Actor
from tests.browser.test_phone_layout import no_sideways_scroll, shot
from tests.tournaments.helpers import make_competition, play
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAIRS = [
    ("Mariagrazia", "Massimiliano"),
    ("Gianfranco", "Annamaria"),
    ("Anna", "Bruno"),
    ("Carla", "Dario"),
]

#: every element of ``selector``: its text, whether it is shown whole (nothing cut or scrolled
#: inside it) and whether it lies inside the screen's width
WHOLE = """(selector) => [...document.querySelectorAll(selector)].map((e) => {
  const r = e.getBoundingClientRect();
  return [e.textContent.replace(/\\s+/g, " ").trim(), e.scrollWidth <= e.clientWidth + 1,
          r.left >= 0 && r.right <= innerWidth + 0.5];
})"""


@pytest.fixture
def pairs_round(club, olga):
    """Round 1 of a Briscola pairs tournament published; table 1 has played one hand."""
    by = Actor.for_user(olga)
    competition = make_competition(
        club, olga, rulesets=["briscola"], options={"briscola": {"format": "pairs"}}
    )
    for a, b in PAIRS:
        services.add_entry(competition=competition, player=a, partner=b, by=by)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=3)
    services.publish_round(round_=round_, by=by)
    table = round_.tables.select_related("game").order_by("number").first()
    game = play(table.game, [{"dealer": 0, "points": [70, 50]}], olga)
    seats = [s.player.display_name for s in game.seats.order_by("index")]
    return game, (f"{seats[0]} & {seats[2]}", f"{seats[1]} & {seats[3]}")


def whole(page, selector):
    found = page.evaluate(WHOLE, selector)
    assert found and all(fits and inside for _t, fits, inside in found), found
    return [text for text, _f, _i in found]


def test_the_game_page_and_the_scoreboard_show_pair_against_pair(olga_page, pairs_round):
    game, (first, second) = pairs_round
    page = olga_page
    page.goto(f"/g/{game.pk}/")
    expect(page.locator("#live .totals .total")).to_have_count(2)
    expect(page.locator("#live .totals .against")).to_have_text("against")
    names = whole(page, "#live .totals .total .name")
    assert " & ".join(names[:2]) == first and " & ".join(names[2:]) == second
    assert page.locator("#live .totals .score").all_text_contents() == ["1", "0"]
    no_sideways_scroll(page)
    shot(page, "pairs-game-390")

    page.goto(f"/g/{game.pk}/board/")
    expect(page.locator(".board .seat")).to_have_count(2)
    expect(page.locator(".board .against")).to_have_text("against")
    names = whole(page, ".board .seat .name")
    assert " & ".join(names[:2]) == first and " & ".join(names[2:]) == second
    assert page.locator(".board .seat.leader .score").text_content() == "1"
    no_sideways_scroll(page)
    shot(page, "pairs-scoreboard-390")


def test_the_table_cards_and_the_rounds_tables_show_pair_against_pair(olga_page, pairs_round):
    game, (first, second) = pairs_round
    page = olga_page
    against = f"{first} against {second}"
    page.goto(f"/g/{game.pk}/table/")
    assert whole(page, ".table-card .pairs") == [against]
    no_sideways_scroll(page)
    shot(page, "pairs-table-card-390")

    page.goto("/c/uno/k/torneo/rounds/1/cards/")
    card = page.locator('.print-card[data-table="1"]')
    assert card.locator(".pairs").text_content().split() == against.split()
    whole(page, ".print-card .pairs .pair")
    card.scroll_into_view_if_needed()
    shot(page, "pairs-print-cards-390")

    for path in ("/p/uno/torneo/rounds/1/", "/c/uno/k/torneo/rounds/1/"):
        page.goto(path)
        table = page.locator('.table-box[data-table="1"] .seats')
        rows = [" ".join(t.split()) for t in table.locator("li").all_text_contents()]
        assert rows == [f"{first} 1", "against", f"{second} 0"], (path, rows)
        whole(page, '.table-box[data-table="1"] .pair-row .grow')
        no_sideways_scroll(page)
    shot(page, "pairs-round-390")
