"""Issue 11, point 2: picking club players for a competition on a laptop (1280×800): type to
find a name, Enter ticks the only match, "select all shown" ticks the rest, and a new name is
entered in the same request (added to the club and the competition)."""

import pytest
from playwright.sync_api import expect

from scoring import services as scoring
from scoring.services import Actor
from tests.browser.conftest import log_in
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Élodie", "Franco", "Gina", "Ugo", "Ivo", "Lia",
         "Mario", "Nina"]  # fmt: skip


def test_the_player_picker_searches_selects_all_and_adds_a_new_name(laptop, olga, club):
    by = Actor.for_user(olga)
    for name in NAMES:
        scoring.add_player(club=club, display_name=name, by=by)
    competition = services.create_competition(club=club, by=by, name="Coppa", slug="coppa",
                                              rulesets=["terziglio"])  # fmt: skip
    page = laptop.new_page()
    log_in(page, "olga", "pw-olga")
    page.goto("/c/uno/k/coppa/entries/")
    search = page.get_by_placeholder("Search by name")
    count = page.locator("[data-picker-count]")
    expect(count).to_have_text("0 selected")
    search.fill("elo")  # "Élodie": accents do not matter
    expect(page.locator("label.chip:visible")).to_have_count(1)
    search.press("Enter")
    expect(count).to_have_text("1 selected")
    expect(search).to_have_value("")
    search.fill("a")  # Anna, Carla, Dario, Franco, Gina, Lia, Mario, Nina; Élodie ticked
    page.get_by_role("button", name="Select all shown").click()
    expect(count).to_have_text("9 selected")
    search.fill("")
    expect(page.locator("label.chip:visible")).to_have_count(len(NAMES))
    page.locator('[name="new_names"]').fill("Zoe")
    page.screenshot(path="/tmp/shots-orgedit/entries-picker-1280.png", full_page=True)
    page.get_by_role("button", name="Enter", exact=True).click()
    expect(page.get_by_text("10 entries added.")).to_be_visible()
    entered = sorted(e.player.display_name for e in competition.entries.select_related("player"))
    assert entered == sorted(["Anna", "Carla", "Dario", "Élodie", "Franco", "Gina", "Lia",
                              "Mario", "Nina", "Zoe"])  # fmt: skip
    assert club.players.filter(display_name="Zoe").exists()
