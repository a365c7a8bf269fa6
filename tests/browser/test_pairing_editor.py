"""Issue 32, point 7a in a browser: the organizer moves a player of a draft round to another
table with the manual pairing editor, on a laptop (1280×800) and on a phone (390×844); an
impossible table is refused next to the table field and nothing moves."""

import os

import pytest
from playwright.sync_api import expect

from scoring.services import Actor
from tests.browser.conftest import log_in
from tests.tournaments.helpers import enter, make_competition, tables_of
from tournaments import services
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def draft_of_seven(club, olga):
    competition = make_competition(club, olga, format="club_night")
    enter(competition, olga, 7)
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=round_, by=Actor.for_user(olga), seed=1)
    return round_


def name_of(entry_id: int) -> str:
    return Entry.objects.get(pk=entry_id).name


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_the_organizer_moves_a_player_and_an_impossible_table_is_refused(
    device, request, club, olga
):
    round_ = draft_of_seven(club, olga)
    (t1, t2) = tables_of(round_)
    page = request.getfixturevalue(device).new_page()
    log_in(page, "olga", "pw-olga")
    page.goto(f"/c/{club.slug}/k/{round_.competition.slug}/rounds/1/#pairing")
    editor = page.locator("#pairing")
    # A player of the table of three to the table of four: 2 and 5 are outside 3 to 4.
    editor.get_by_label("Move").select_option(str(t2[0]))
    editor.get_by_label("to", exact=True).select_option("1")
    editor.get_by_role("button", name="Move").tap()
    expect(editor.locator('[data-field="table"] .error')).to_contain_text(
        "Table 1 would seat 5: the tables of this competition seat 3 to 4."
    )
    assert tables_of(round_) == [t1, t2]
    shot(page, f"pairing-refused-{device}")
    # The first player of table 1 to a new seat at table 2: 3 and 4.
    editor = page.locator("#pairing")
    editor.get_by_label("Move").select_option(str(t1[0]))
    editor.get_by_label("to", exact=True).select_option("2")
    editor.get_by_role("button", name="Move").tap()
    expect(page.get_by_text("Moved: the quality of the draw is measured again.")).to_be_visible()
    assert tables_of(round_) == [t1[1:], (*t2, t1[0])]
    expect(page.locator('[data-table="2"] .seats li').last).to_have_text(name_of(t1[0]))
    expect(page.locator("#quality")).to_be_visible()
    shot(page, f"pairing-moved-{device}")


def test_a_swiss_public_page_shows_how_pairings_are_made_on_a_phone(page, club, olga):
    competition = make_competition(club, olga, format="swiss", public=True)
    page.goto(f"/p/{club.slug}/{competition.slug}/")
    rule = page.locator("#pairing-rule")
    expect(rule.get_by_role("heading", name="How pairings are made")).to_be_visible()
    assert rule.bounding_box()["width"] <= 390
    shot(page, "swiss-rule-phone")
