"""Paper, as Chromium prints it (issue 11 point 8): score sheets and standings under print
emulation keep what belongs on paper and drop the site's bars and buttons."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.services import Actor
from tournaments import services

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-drawq")


def test_score_sheets_and_standings_print(browser, live_server, club, olga):
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club, by=by, name="Coppa", slug="coppa", rulesets=["terziglio"], planned_rounds=1
    )
    for name in ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"):
        services.add_entry(competition=competition, player=name, by=by)
    round_ = services.add_round(competition=competition, by=by, duration_minutes=90)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1280, "height": 800}, has_touch=True
    )
    page = context.new_page()
    log_in(page, "olga", "pw-olga")
    page.goto("/c/uno/k/coppa/rounds/1/sheets/")
    expect(page.locator(".score-sheet")).to_have_count(2)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "sheets-1280.png"), full_page=True)
    page.emulate_media(media="print")
    expect(page.locator(".topbar")).to_be_hidden()
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    expect(page.locator(".sheet-grid").first).to_be_visible()
    expect(page.locator(".sheet-grid").first.locator("tbody tr")).to_have_count(15)
    page.screenshot(path=str(SHOTS / "sheets-print.png"), full_page=True)
    assert page.pdf(format="A4")[:4] == b"%PDF"
    page.emulate_media(media="screen")
    page.goto("/p/uno/coppa/")
    expect(page.get_by_role("button", name="Print the standings")).to_be_visible()
    page.emulate_media(media="print")
    expect(page.locator("#schedule")).to_be_hidden()
    expect(page.locator(".public-links")).to_be_hidden()
    expect(page.locator(".standings")).to_be_visible()
    page.screenshot(path=str(SHOTS / "standings-print.png"), full_page=True)
    context.close()
