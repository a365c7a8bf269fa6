"""Issue 23, point 1 in a browser: a published round changed on the day. A no-show is replaced
by a late entrant and the phone already holding that table's link sees its new players; two
players are swapped between tables; a round published by mistake goes back to a draft after a
confirmation. The organizer works on a laptop (1280×800) and on a phone (390×844)."""

import os
import re

import pytest
from playwright.sync_api import expect

from scoring.models import TableLink
from scoring.services import Actor
from tests.browser.conftest import PHONE, TIMEOUT_MS, log_in
from tests.tournaments.helpers import play, published_night, tables_of, terziglio_won_by
from tournaments import services
from tournaments.models import Entry, RoundStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.fixture
def organizer(browser, live_server, olga, club):
    """Olga's phone (390×844), logged in."""
    context = browser.new_context(base_url=live_server.url, **PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    log_in(page, "olga", "pw-olga")
    yield page
    context.close()


def open_table(page, table) -> None:
    """The table's phone: its link and PIN, then the score sheet."""
    link = TableLink.objects.get(game=table.game)
    page.goto(f"/t/{link.token}/")
    page.get_by_label("PIN").fill(link.pin)
    page.get_by_role("button", name="Open the score sheet").tap()
    expect(page).to_have_url(re.compile(rf"/g/{table.game_id}/$"))


def names(ids) -> list[str]:
    by_id = {e.pk: e.name for e in Entry.objects.filter(pk__in=ids)}
    return [by_id[i] for i in ids]


def test_a_no_show_replaced_and_a_swap_after_publishing(page, laptop, club, olga):
    night = published_night(club, olga, 7)
    late = services.add_entry(competition=night.competition, player="Zeno", by=Actor.for_user(olga))
    four = [len(t) for t in tables_of(night)].index(4) + 1
    other = 3 - four
    table = night.tables.get(number=four)
    absent = tables_of(night)[four - 1][1]
    (absent_name,) = names([absent])

    # The phone of the table of four, opened before the change.
    open_table(page, table)
    expect(page.locator("main")).to_contain_text(absent_name)
    expect(page.locator("main")).not_to_contain_text("Zeno")

    desk = laptop.new_page()
    log_in(desk, "olga", "pw-olga")
    desk.goto(f"/c/{club.slug}/k/{night.competition.slug}/rounds/1/")
    shot(desk, "round-changes-1280")
    desk.locator("#change-replace").get_by_label("Absent player").select_option(str(absent))
    desk.locator("#change-replace").get_by_label("Replaced by").select_option(str(late.pk))
    desk.locator("#change-replace").get_by_role("button", name="Replace").click()
    expect(desk.locator("#reprint")).to_contain_text(f"Print the card of table {four} again")
    expect(desk.locator(f'[data-table="{four}"]')).to_contain_text("Zeno")
    shot(desk, "round-replaced-1280")

    # The same link, the same game: the phone, left open, loads itself again with the new
    # players (its poll sees them), its entry form naming them.
    expect(page.locator("#hand-form")).to_contain_text("Zeno")
    expect(page.locator("main")).to_contain_text("Zeno")
    expect(page.locator("main")).not_to_contain_text(absent_name)
    assert page.url.endswith(f"/g/{table.game_id}/")
    shot(page, "table-phone-after-replace-390")

    # A swap between the two tables, from the laptop.
    a, b = tables_of(night)[four - 1][0], tables_of(night)[other - 1][0]
    a_name, b_name = names([a, b])
    swap = desk.locator("#change-swap")
    swap.get_by_label("Swap").select_option(str(a))
    swap.get_by_label("with").select_option(str(b))
    swap.get_by_role("button", name="Swap them").click()
    expect(desk.locator("#reprint")).to_contain_text("Print the cards of tables 1, 2 again")
    expect(desk.locator(f'[data-table="{four}"]')).to_contain_text(b_name)
    expect(desk.locator(f'[data-table="{other}"]')).to_contain_text(a_name)
    shot(desk, "round-swapped-1280")
    expect(page.locator("#hand-form")).to_contain_text(b_name)
    expect(page.locator("main")).to_contain_text(b_name)
    expect(page.locator("main")).not_to_contain_text(a_name)
    shot(page, "table-phone-after-swap-390")


def test_a_swap_refused_on_the_phone_then_an_unpublish(organizer, club, olga):
    night = published_night(club, olga, 7)
    (t1, t2) = tables_of(night)
    play(night.tables.get(number=2).game, terziglio_won_by(1, len(t2))[:1], olga)
    organizer.goto(f"/c/{club.slug}/k/{night.competition.slug}/rounds/1/")
    swap = organizer.locator("#change-swap")
    swap.get_by_label("Swap").select_option(str(t1[0]))
    swap.get_by_label("with").select_option(str(t2[0]))
    swap.get_by_role("button", name="Swap them").tap()
    expect(organizer.locator('#change-swap [data-field="b"] .error')).to_contain_text(
        "Table 2 has hands entered"
    )
    shot(organizer, "round-swap-refused-390")
    assert tables_of(night) == [t1, t2]

    second = published_night(club, olga, 6, name="Serata", slug="serata")
    organizer.goto(f"/c/{club.slug}/k/serata/rounds/1/")
    organizer.get_by_role("link", name="Take back to a draft…").tap()
    confirm = organizer.get_by_label("Yes: abandon the games of this round")
    expect(confirm).to_be_visible()
    shot(organizer, "round-unpublish-ask-390")
    organizer.get_by_role("button", name="Take the round back to a draft").tap()
    expect(organizer.locator('[data-field="confirm"] .error')).to_have_text(
        "Tick the box to confirm."
    )
    organizer.get_by_label("Yes: abandon the games of this round").check()
    organizer.get_by_role("button", name="Take the round back to a draft").tap()
    expect(organizer.locator("#draw")).to_be_visible()
    shot(organizer, "round-unpublished-390")
    second.refresh_from_db()
    assert second.status == RoundStatus.DRAFT
