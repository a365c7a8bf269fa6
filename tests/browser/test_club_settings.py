"""The club's settings page in a browser (issue 23, point 4), on a laptop (1280×800) and a phone
(390×844): the owner changes the time zone, and the competition's schedule and calendar feed
follow; a refused name is said next to its field."""

import datetime as dt
import os

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.builders import by
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_the_owner_changes_the_time_zone_and_the_calendar_follows(request, device, club, olga):
    competition = services.create_competition(
        club=club, by=by(olga), name="Coppa", rulesets=["terziglio"], public=True
    )
    services.add_round(
        competition=competition,
        by=by(olga),
        date=dt.date(2025, 3, 1),
        start_time=dt.time(21, 0),
        duration_minutes=90,
    )
    page = request.getfixturevalue(device).new_page()
    log_in(page, "olga", "pw-olga")
    assert "DTSTART:20250301T200000Z" in page.request.get("/p/uno/coppa/calendar.ics").text()
    page.goto("/c/uno/")
    page.get_by_role("link", name="Settings").click()
    expect(page.get_by_role("heading", name="The club's settings")).to_be_visible()
    page.get_by_label("Name of the club").fill(" ")
    page.get_by_role("button", name="Save the settings").click()
    expect(page.locator('[data-field="name"] .error')).to_be_visible()
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/club-settings-error-{device}.png", full_page=True)
    page.get_by_label("Name of the club").fill("Circolo Primo")
    page.get_by_label("Time zone").select_option("Europe/London")
    page.get_by_role("button", name="Save the settings").click()
    expect(page.get_by_text("The club's settings are saved.")).to_be_visible()
    expect(page.get_by_label("Time zone")).to_have_value("Europe/London")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/club-settings-{device}.png", full_page=True)
    assert "DTSTART:20250301T210000Z" in page.request.get("/p/uno/coppa/calendar.ics").text()
    page.goto("/p/uno/coppa/")
    expect(page.locator("body")).to_contain_text("Europe/London")
    expect(page.locator("body")).to_contain_text("Circolo Primo")
