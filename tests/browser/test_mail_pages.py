"""In a real browser (issue 32, points 3 and 8): the Briscola correction form fills in the other
side as one side is typed over the stored hand, and the organizer's withdrawal asks first, on a
phone and on a laptop."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Hand
from scoring.services import Actor
from tests.browser.conftest import log_in
from tests.registration import test_registration as service_tests
from tests.tournaments.test_table_mail import coppie, pair  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

mails_now = service_tests.mails_now


def test_typing_one_side_of_a_stored_briscola_hand_fills_in_the_other(
    olga_page, club, players, olga
):
    game = services.start_game(
        club=club,
        ruleset="briscola",
        players=players[:2],
        options={"free_dealer": True, "hands_to_win": 10},
        by=Actor.for_user(olga),
    )
    services.record_hand(
        game=game, document={"dealer": 0, "points": [70, 50]}, by=Actor.for_user(olga)
    )
    olga_page.goto(f"/g/{game.pk}/hands/1/")
    first, second = (
        olga_page.locator('input[name="points_0"]'),
        olga_page.locator('input[name="points_1"]'),
    )
    expect(second).to_have_value("50")
    first.fill("85")
    expect(second).to_have_value("35")
    olga_page.screenshot(path="/tmp/mail/correction-390.png", full_page=True)
    olga_page.get_by_role("button", name="Save the correction").click()
    expect(olga_page.locator(".flash")).to_contain_text("Hand 1 corrected.")
    assert Hand.objects.get(game=game, number=1).document["points"] == [85, 35]


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_the_withdrawal_page_asks_first(browser, live_server, coppie, olga, size):  # noqa: F811
    pair(coppie, "Anna", "Bruno", "it")
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": size[0], "height": size[1]},
        has_touch=True,
        locale="en-GB",
    )
    page = context.new_page()
    log_in(page, "olga", "pw-olga")
    page.goto(f"/c/{coppie.club.slug}/k/{coppie.slug}/registration/")
    page.locator("#registrations").get_by_role("button", name="Withdraw").first.click()
    expect(page.locator("#confirm-withdraw")).to_contain_text("Withdraw Anna & Bruno?")
    expect(page.locator("#confirm-withdraw")).to_contain_text("bruno@example.org")
    page.screenshot(path=f"/tmp/mail/withdraw-{size[0]}.png", full_page=True)
    page.get_by_role("button", name="Yes, withdraw Anna & Bruno").click()
    expect(page.locator(".flash")).to_contain_text("Anna & Bruno withdrew.")
    context.close()
