"""Issue 11's flows in a browser, as an organizer on a laptop (1280×800) and a phone: a late
entrant of a published round seated at a table that has not started, and a stray draft round
deleted, gone from the schedule and from the calendar feed."""

import datetime as dt
import os

import pytest
from playwright.sync_api import expect

from scoring.services import Actor
from tests.browser.conftest import log_in
from tests.tournaments.helpers import enter, make_competition
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def test_a_late_entrant_is_seated_at_a_table_that_has_not_started(laptop, club, olga):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, slug="coppa", format="swiss", planned_rounds=3)
    enter(competition, olga, 6)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=3)
    services.publish_round(round_=round_, by=by)
    services.add_entry(competition=competition, player="Maria", by=by)
    page = laptop.new_page()
    log_in(page, "olga", "pw-olga")
    page.goto("/c/uno/k/coppa/rounds/1/")
    warning = page.locator("#unseated")
    expect(warning).to_contain_text("Maria entered after round 1 was drawn and is not seated.")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/late-entrant-1280.png", full_page=True)
    warning.get_by_role("combobox").select_option(label="Table 2")
    warning.get_by_role("button", name="Seat at this table").click()
    expect(page.get_by_text("Maria now plays at table 2")).to_be_visible()
    expect(page.locator("#unseated")).to_have_count(0)
    expect(page.locator('article[data-table="2"]')).to_contain_text("Maria")


def test_a_deleted_draft_round_leaves_the_schedule_and_the_calendar(page, club, olga):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, slug="coppa", format="swiss")
    enter(competition, olga, 6)
    for day in (5, 12):
        services.add_round(competition=competition, by=by, date=dt.date(2026, 12, day))
    log_in(page, "olga", "pw-olga")
    assert page.request.get("/p/uno/coppa/calendar.ics").text().count("BEGIN:VEVENT") == 2
    page.goto("/c/uno/k/coppa/rounds/2/")
    page.locator("#delete-round summary").tap()
    page.locator("#delete-round").get_by_role("button").tap()
    expect(page.get_by_text("Round 2 was deleted.")).to_be_visible()
    page.goto("/p/uno/coppa/")
    expect(page.locator("#schedule .round-row")).to_have_count(1)
    expect(page.locator("#schedule")).not_to_contain_text("Round 2")
    assert page.request.get("/p/uno/coppa/calendar.ics").text().count("BEGIN:VEVENT") == 1
