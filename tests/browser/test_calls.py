"""Calling the director (issue 37 point 4) in Chromium under ASGI (the streams): a table's phone
at 390×844 calls with a reason; the organizer's round page at 1280×800, open before the call,
shows it within 2 s with the table, who called and the waiting time, without a reload; "I'm
coming" reads "The director is coming" on the phone within 2 s, "Resolved" clears both."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import _asgi_context, log_in
from tests.browser.test_live import AT_ONCE, by_table_link, expect_streaming, mark, still_here
from tests.tournaments.helpers import published_night
from tournaments.models import DirectorCall

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-calls"))
LAPTOP = {"viewport": {"width": 1280, "height": 800}, "locale": "en-GB", "has_touch": True}


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


@pytest.fixture
def night(club, olga):
    round_ = published_night(club, olga, 6, slug="notte")
    return round_, round_.tables.get(number=2).game


def test_a_call_from_a_table_phone_reaches_the_round_page_and_is_resolved(
    browser, asgi_server, asgi_phone, night
):
    _round, game = night
    laptop = _asgi_context(browser, asgi_server, **LAPTOP)
    try:
        director = laptop.new_page()
        log_in(director, "olga", "pw-olga")
        director.goto("/c/uno/k/notte/rounds/1/")
        expect(director.locator("#director-calls")).to_contain_text("No table is calling")
        expect_streaming(director)
        mark(director)

        table = asgi_phone().new_page()
        by_table_link(table, game)
        expect(table.locator("#table-clock")).to_be_visible()
        table.get_by_text("Call the director", exact=True).first.tap()
        table.locator('#director-call label.chip:has(input[value="dispute"])').tap()
        table.get_by_label("A few words (optional)").fill("a revoke at trick 3")
        shot(table, "table-call-form-390.png")
        table.locator("[data-call-send]").tap()
        expect(table.locator("#director-call")).to_contain_text("The director has been called.")
        shot(table, "table-called-390.png")

        panel = director.locator("#director-calls")
        expect(panel).to_contain_text("Table 2", timeout=AT_ONCE)
        expect(panel).to_contain_text("a revoke at trick 3")
        expect(panel).to_contain_text("Called from the table’s phone")
        expect(panel).to_contain_text("waiting 0 min")
        assert still_here(director)
        assert director.evaluate("document.documentElement.dataset.callsRang") == "1"
        shot(director, "round-call-1280.png")

        panel.get_by_role("button", name="I’m coming").tap()
        expect(table.locator("#director-call")).to_contain_text(
            "The director is coming.", timeout=AT_ONCE
        )
        shot(table, "table-coming-390.png")
        panel.get_by_role("button", name="Resolved").tap()
        expect(panel).to_contain_text("No table is calling")
        expect(table.locator("#director-call")).to_contain_text(
            "The director has dealt with your call.", timeout=AT_ONCE
        )
        assert DirectorCall.objects.get().state == "resolved"
        width = table.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
    finally:
        laptop.close()
