"""The offline page tells the truth (issue 37, point 3): reloaded without network, the game page
(the copy the service worker kept when the page last loaded, often older) shows the totals and
history this phone last saw, and every hand waiting to be sent, marked as waiting with what was
typed, under a heading that counts them. Back online, the waiting hands go and the list with
them. A 390×844 phone, offline through Playwright's ``set_offline``."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Hand
from tests.browser.test_table import expect_hand_count, expect_totals, save_hand, soloist_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-offline"))


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def passed_out(page: Page) -> None:
    page.locator("#hand-form fieldset.outcome label.chip").filter(has_text="Everybody passed").tap()
    save_hand(page)


def test_an_offline_reload_shows_the_last_totals_history_and_every_waiting_hand(
    olga_page, phone, terziglio
):
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/")
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    page.reload()  # the copy the worker keeps: no hand yet
    expect_hand_count(page, 0)
    page.wait_for_function("() => window.segnapuntiOutbox !== undefined")

    # Two hands sent while the network is there (the page is not loaded again meanwhile).
    soloist_hand(page, dealer="Anna", soloist="Anna", contract="Chiamo", points=7)
    save_hand(page)
    expect_totals(page, [2, -1, -1])
    soloist_hand(page, soloist="Bruno", contract="Chiamo", points=8)
    save_hand(page)
    expect_totals(page, [1, 1, -2])
    expect_hand_count(page, 2)

    # Then three typed without network: they wait, and the page lists them as waiting.
    phone.set_offline(True)
    passed_out(page)
    soloist_hand(page, soloist="Anna", contract="Chiamo", points=7)
    save_hand(page)
    passed_out(page)
    waiting = page.locator("#waiting-hands")
    expect(waiting.get_by_role("heading")).to_have_text("3 hands waiting to be sent.")

    page.reload()  # without network: the worker's copy, which had no hand
    expect(page.locator("#kept-note")).to_contain_text(
        "No network: the totals and hands as this phone last saw them."
    )
    expect_totals(page, [1, 1, -2])
    expect_hand_count(page, 2)
    expect(page.locator("#live .history tbody tr")).to_have_count(2)
    expect(page.locator("#live")).not_to_contain_text("No hand yet.")
    expect(page.locator("#outbox-status")).to_contain_text("3 hands waiting to be sent.")
    expect(waiting.get_by_role("heading")).to_have_text("3 hands waiting to be sent.")
    rows = waiting.locator("li.waiting")
    expect(rows).to_have_count(3)
    expect(rows.locator("strong")).to_have_text(["Hand 3", "Hand 4", "Hand 5"])
    expect(rows.locator(".badge")).to_have_text(["not sent yet"] * 3)
    expect(rows.nth(1)).to_contain_text("Anna")
    expect(rows.nth(1)).to_contain_text("Chiamo")
    expect(page.locator("[data-hand-heading]")).to_contain_text("Hand 6")
    shot(page, "offline-reload-390x844.png")

    phone.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect_hand_count(page, 5)
    expect(waiting).to_be_hidden()
    expect(page.locator("#kept-note")).to_have_count(0)
    assert Hand.objects.filter(game=terziglio).count() == 5
