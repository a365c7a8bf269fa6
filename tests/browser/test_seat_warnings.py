"""Issue 32, point 2 in a browser: a player withdraws after the round is published. The
organizer's withdrawal lands on a notice naming the table, whose button opens the round's
replacement with the withdrawn player chosen; the round page warns at the top until a late
entrant takes the seat. On a laptop (1280×800) and on a phone (390×844)."""

import os

import pytest
from playwright.sync_api import expect

from scoring.services import Actor
from tests.browser.conftest import PHONE, TIMEOUT_MS, log_in
from tests.tournaments.helpers import published_night, tables_of
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=False)


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_a_withdrawal_after_publishing_is_fixed_from_the_warning(
    browser, live_server, olga, club, device
):
    night = published_night(club, olga, 7)
    late = services.add_entry(competition=night.competition, player="Zeno", by=Actor.for_user(olga))
    (t1, _t2) = tables_of(night)
    gone = next(e for e in night.entries if e.pk == t1[0])
    shape = PHONE if device == "phone" else {"viewport": {"width": 1280, "height": 800}}
    context = browser.new_context(base_url=live_server.url, **({"has_touch": True} | shape))
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    log_in(page, "olga", "pw-olga")
    c = night.competition
    page.goto(f"/c/{c.club.slug}/k/{c.slug}/entries/")
    withdrawal = page.locator(f"#id_withdraw_{gone.pk}_reason")
    withdrawal.locator("xpath=ancestor::details").evaluate("d => d.open = true")
    withdrawal.fill("went home")
    withdrawal.locator("xpath=ancestor::form").locator("button[type=submit]").click()
    notice = page.locator("#to-fix")
    expect(notice).to_contain_text(f"{gone.name} is still seated")
    expect(notice).to_contain_text("Round 1, table 1")
    shot(page, f"withdrawal-notice-{device}")
    notice.get_by_role("link", name="Replace at this table").click()
    warning = page.locator("#seat-warnings")
    expect(warning).to_contain_text(f"Table 1: {gone.name} has withdrawn.")
    page.locator("#seat-warnings").scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"round-warning-{device}")
    expect(page.locator("#replace_absent")).to_have_value(str(gone.pk))
    page.locator("#replace_late").select_option(str(late.pk))
    page.locator("#change-replace button[type=submit]").click()
    expect(page.locator("#reprint")).to_be_visible()
    expect(page.locator("#seat-warnings")).to_have_count(0)
    assert tables_of(night)[0][0] == late.pk
    context.close()
