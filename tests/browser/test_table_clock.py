"""The round's clock on every table (issue 37 point 6) in Chromium under ASGI: a table phone
whose own clock is ten minutes fast shows the server's time left; extra time the director gives
table 2 from the round page (1280×800) is on table 2's phone within 2 s and not on table 1's;
the last-hand warning the director sets shows on the tables."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.services import Actor
from tests.browser.conftest import _asgi_context, log_in
from tests.browser.test_live import AT_ONCE, by_table_link, expect_streaming
from tests.tournaments.helpers import published_night
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-clock"))
LAPTOP = {"viewport": {"width": 1280, "height": 800}, "locale": "en-GB", "has_touch": True}
#: A phone whose clock is ten minutes fast (Date.now and new Date() both).
FAST_PHONE = """
(() => {
  const skew = 10 * 60 * 1000, RealDate = Date, realNow = Date.now.bind(Date);
  class Skewed extends RealDate {
    constructor(...args) { super(...(args.length ? args : [realNow() + skew])); }
    static now() { return realNow() + skew; }
  }
  globalThis.Date = Skewed;
})();
"""


def minutes_shown(page, selector: str) -> int:
    text = page.locator(f"{selector} [data-clock-time]").inner_text()
    parts = [int(p) for p in text.split(":")]
    return parts[0] * 60 + parts[1] if len(parts) == 3 else parts[0]


def test_every_table_shows_the_servers_clock_its_own_extra_time_and_the_last_hand(
    browser, asgi_server, asgi_phone, club, olga
):
    round_ = published_night(club, olga, 6, slug="notte")
    one, two = (t.game for t in round_.tables.order_by("number"))
    services.set_round_timer(round_=round_, by=Actor.for_user(olga), action="start")
    fast = asgi_phone()
    fast.add_init_script(FAST_PHONE)
    first = fast.new_page()
    by_table_link(first, one)
    second = asgi_phone().new_page()
    by_table_link(second, two)
    for page in (first, second):
        expect(page.locator("#table-clock")).to_have_attribute("data-phase", "running")
        expect_streaming(page)
    # 90 minutes from the server's start: a phone ten minutes fast still shows 1:29.
    skew = first.evaluate("Date.now()") - second.evaluate("Date.now()")
    assert 9 * 60_000 < skew < 11 * 60_000
    # (Without the server's time it would show 1:19.)
    assert 88 <= minutes_shown(first, "#table-clock") <= 89
    assert abs(minutes_shown(first, "#table-clock") - minutes_shown(second, "#table-clock")) <= 1

    laptop = _asgi_context(browser, asgi_server, **LAPTOP)
    try:
        director = laptop.new_page()
        log_in(director, "olga", "pw-olga")
        director.goto("/c/uno/k/notte/rounds/1/")
        director.locator("#id_extra_table").select_option(label="Table 2")
        director.locator("#id_extra_minutes").fill("5")
        director.get_by_role("button", name="Give extra time").tap()
        expect(director.locator("#id_extra_table")).to_contain_text("Table 2 (+5)")
        expect(second.locator("[data-clock-extra]")).to_have_text(
            "+5 min for this table", timeout=AT_ONCE
        )
        assert 93 <= minutes_shown(second, "#table-clock") <= 94
        expect(first.locator("[data-clock-extra]")).to_be_hidden()
        assert 88 <= minutes_shown(first, "#table-clock") <= 89

        director.locator("#id_last_hand_minutes").fill("120")
        director.get_by_role("button", name="Set the warning").tap()
        for page in (first, second):
            expect(page.locator("#table-clock")).to_have_attribute(
                "data-phase", "last", timeout=AT_ONCE
            )
            expect(page.locator("[data-clock-label]")).to_have_text(
                "Last hand: finish this one and stop"
            )
        SHOTS.mkdir(parents=True, exist_ok=True)
        second.screenshot(path=str(SHOTS / "table-clock-390.png"))
        director.screenshot(path=str(SHOTS / "round-clock-1280.png"), full_page=True)
        board = second.context.new_page()
        board.goto(f"/g/{two.pk}/board/")
        expect(board.locator("#table-clock")).to_have_attribute("data-phase", "last")
        expect(board.locator("[data-clock-extra]")).to_have_text("+5 min for this table")
        board.screenshot(path=str(SHOTS / "board-clock-390.png"))
    finally:
        laptop.close()
