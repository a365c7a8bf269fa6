"""The score sheet of the largest table (6 seats, Turkish at tables of 6) fits portrait A4 when
printed (issue 32, point 4): under print emulation at an A4 page's width (210 mm at 96 px per
inch, less the page margins), the sheet and the page are no wider than the paper."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.services import Actor
from tournaments import services

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-seats")
#: A4 portrait is 210 mm wide; less the sheets' page margins (12 mm each side, competitions.css)
#: that leaves 186 mm: 703 CSS pixels at 96 per inch.
A4_WIDTH = 703


def test_the_six_seat_score_sheet_fits_portrait_a4(browser, live_server, club, olga):
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club, by=by, name="Serata turca", slug="turca", rulesets=["turkish"],
        min_table_size=6, max_table_size=6, table_size=6, planned_rounds=1,
    )  # fmt: skip
    names = ("Annamaria", "Bartolomeo", "Costantino", "Domenica", "Ermenegilda", "Fiorenzo")
    for name in names + tuple(f"{n} Secondo" for n in names):
        services.add_entry(competition=competition, player=name, by=by)
    round_ = services.add_round(competition=competition, by=by, duration_minutes=90)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    assert sorted(t.seats.count() for t in round_.tables.all()) == [6, 6]
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": A4_WIDTH, "height": 1123}, has_touch=True
    )
    page = context.new_page()
    log_in(page, "olga", "pw-olga")
    page.goto("/c/uno/k/turca/rounds/1/sheets/")
    expect(page.locator(".score-sheet")).to_have_count(2)
    page.emulate_media(media="print")
    sheet = page.locator(".score-sheet").first
    expect(sheet.locator(".sheet-grid")).to_be_visible()
    box = sheet.bounding_box()
    assert box is not None and box["x"] >= 0
    assert box["x"] + box["width"] <= A4_WIDTH, box
    grid_width = sheet.locator(".sheet-grid").evaluate("e => e.scrollWidth")
    assert grid_width <= box["width"], (grid_width, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= A4_WIDTH
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "sheet-6-print.png"), full_page=True)
    pdf = page.pdf(format="A4", path=str(SHOTS / "sheet-6.pdf"))
    assert pdf[:4] == b"%PDF"
    context.close()
