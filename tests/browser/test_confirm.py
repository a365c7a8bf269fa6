"""Two phones at one table (two browser contexts at 390×844): confirmation by the table, and two
phones, one truth. Hands from the worked examples of ``docs/rules/terziglio.md``: Anna deals and
makes "chiamo" with 7 (+2, −1, −1)."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Acceptance, AuditAction, AuditEvent, Hand
from scoring.services import Actor
from tests.browser.conftest import PHONE, TIMEOUT_MS, log_in
from tests.browser.test_table import chip, expect_hand_count, expect_totals, save_hand, soloist_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-confirm"))


def second_phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, **PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    return context


def by_table_link(page: Page, game) -> None:
    link = game.table_link
    page.goto(f"/t/{link.token}/")
    page.get_by_label("PIN").fill(link.pin)
    page.get_by_role("button", name="Open the score sheet").tap()
    expect(page).to_have_url(re.compile(rf"/g/{game.pk}/$"))


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=False)


def test_an_opponent_accepts_the_hand_on_their_own_phone(
    olga_page, browser, live_server, club, players, olga
):
    game = services.start_game(
        club=club,
        ruleset="terziglio",
        players=players[:3],
        by=Actor.for_user(olga),
        hands_need_acceptance=True,
    )
    anna = olga_page
    anna.goto(f"/g/{game.pk}/")
    anna.locator("#hand-form fieldset.entering-seat label.chip").filter(has_text="Anna").tap()
    soloist_hand(anna, dealer="Anna", soloist="Anna", contract="Chiamo", points=7)
    save_hand(anna)
    # The verification screen, to hand to an opponent.
    card = anna.locator("#check-1")
    expect(card).to_be_visible()
    expect(card.locator(".verify")).to_contain_text("Anna +2, Bruno \u22121, Carla \u22121")
    expect(card).to_contain_text("not Anna")
    # What waits does not count yet: the totals say 0 and show the pending part apart.
    expect_totals(anna, [0, 0, 0])
    expect(anna.locator("#live .total .pending-points").first).to_have_text("+2 pending")
    shot(anna, "verification-390x844.png")
    assert Hand.objects.get(game=game).acceptance == Acceptance.PENDING

    # Carla, on her own phone through the table link, sees the hand to check.
    context = second_phone(browser, live_server)
    try:
        carla = context.new_page()
        by_table_link(carla, game)
        check = carla.locator("#check-1")
        expect(check).to_be_visible()
        # The one who entered it is not offered.
        expect(check.locator("fieldset.checker label.chip").filter(has_text="Anna")).to_have_count(
            0
        )
        check.locator("fieldset.checker label.chip").filter(has_text="Carla").tap()
        check.get_by_role("button", name="Accept").tap()
        expect(carla.locator(".flash")).to_contain_text("Hand 1 accepted")
        expect(carla.locator("#check-1")).to_have_count(0)
        expect_totals(carla, [2, -1, -1])
    finally:
        context.close()
    # Anna's phone follows within seconds: the card goes, the hand counts.
    expect(anna.locator("#check-1")).to_have_count(0)
    expect_totals(anna, [2, -1, -1])
    event = AuditEvent.objects.get(action=AuditAction.ACCEPT_HAND)
    assert event.after["player"] == "Carla"


def test_a_rejected_hand_goes_back_with_the_reason_next_to_the_field(
    olga_page, club, players, olga
):
    game = services.start_game(
        club=club,
        ruleset="terziglio",
        players=players[:3],
        by=Actor.for_user(olga),
        hands_need_acceptance=True,
    )
    page = olga_page
    page.goto(f"/g/{game.pk}/")
    page.locator("#hand-form fieldset.entering-seat label.chip").filter(has_text="Anna").tap()
    soloist_hand(page, dealer="Anna", soloist="Anna", contract="Chiamo", points=7)
    save_hand(page)
    card = page.locator("#check-1")
    card.locator("fieldset.checker label.chip").filter(has_text="Bruno").tap()
    card.get_by_role("button", name="Reject").tap()
    # No reason: said next to the field, nothing changes.
    expect(page.locator("#id_check1_reason_error")).to_be_visible()
    page.locator("#id_check1_reason").fill("Anna made 6")
    page.locator("#check-1 fieldset.checker label.chip").filter(has_text="Bruno").tap()
    page.locator("#check-1").get_by_role("button", name="Reject").tap()
    expect(page.locator("#check-1")).to_contain_text("Hand 1 was rejected")
    expect(page.locator("#check-1")).to_contain_text("Bruno rejected it: “Anna made 6”.")
    shot(page, "rejected-390x844.png")
    page.locator("#check-1").get_by_role("link", name="Correct hand 1").tap()
    expect(page).to_have_url(re.compile(rf"/g/{game.pk}/hands/1/$"))


def test_a_hand_entered_on_another_phone_appears_and_a_late_one_is_refused_as_such(
    olga_page, browser, live_server, club, players, olga, terziglio
):
    first = olga_page
    first.goto(f"/g/{terziglio.pk}/")
    context = second_phone(browser, live_server)
    try:
        second = context.new_page()
        log_in(second, "olga", "pw-olga")
        second.goto(f"/g/{terziglio.pk}/")
        soloist_hand(first, dealer="Anna", soloist="Anna", contract="Chiamo", points=7)
        save_hand(first)
        # Within seconds the other phone shows the hand, its totals and the next dealer together.
        expect_hand_count(second, 1)
        expect_totals(second, [2, -1, -1])
        expect(second.locator("#live .next")).to_contain_text("Next dealer: Bruno")

        # The second phone loses the network and types hand 2 while the first enters it.
        context.set_offline(True)
        second.evaluate("window.dispatchEvent(new Event('offline'))")
        soloist_hand(second, soloist="Bruno", contract="Chiamo", points=7)
        save_hand(second)
        soloist_hand(first, soloist="Bruno", contract="Chiamo", points=7)
        save_hand(first)
        expect_hand_count(first, 2)
        # Back online: at once, the refusal says what happened and the history shows that hand.
        context.set_offline(False)
        second.evaluate("window.dispatchEvent(new Event('online'))")
        expect(second.locator("#hand-form .error")).to_contain_text(
            "Hand 2 was just entered from another phone"
        )
        expect(second.locator('#live tr[data-hand="2"]')).to_have_class(re.compile("just-entered"))
        expect_hand_count(second, 2)
        expect(second.locator("#live .next")).to_contain_text("Next dealer: Carla")
        shot(second, "already-entered-390x844.png")
        assert Hand.objects.filter(game=terziglio).count() == 2
    finally:
        context.close()


def test_the_other_phone_is_refreshed_when_it_comes_back(
    olga_page, browser, live_server, club, players, olga, terziglio
):
    context = second_phone(browser, live_server)
    try:
        second = context.new_page()
        log_in(second, "olga", "pw-olga")
        second.goto(f"/g/{terziglio.pk}/")
        expect_hand_count(second, 0)
        # While the phone is in a pocket (hidden: no polling) a hand is entered elsewhere.
        second.evaluate(
            "Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})"
        )
        services.record_hand(
            game=terziglio,
            document={
                "dealer": 0,
                "outcome": "played",
                "soloist": 0,
                "contract": "chiamo",
                "soloist_points": 7,
            },
            by=Actor.for_user(olga),
        )
        second.wait_for_timeout(3500)
        expect_hand_count(second, 0)  # hidden: not asked
        second.evaluate(
            "Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
            "document.dispatchEvent(new Event('visibilitychange'))"
        )
        expect_hand_count(second, 1)
        expect(second.locator("#live .next")).to_contain_text("Next dealer: Bruno")
        expect(chip(second, "soloist", "Anna")).to_be_visible()
    finally:
        context.close()


def test_a_game_started_from_the_page_may_ask_for_confirmation(olga_page, players):
    from scoring.models import Game

    page = olga_page
    page.goto("/c/uno/")
    page.get_by_role("link", name="New game").tap()
    page.locator("form.start-game label.chip", has_text=re.compile(r"^\s*Terziglio\s*$")).tap()
    for seat, name in enumerate(["Anna", "Bruno", "Carla"]):
        page.locator(f"#id_seat_{seat}").select_option(label=name)
    page.get_by_label(
        "Each hand must be accepted by a player of another side before it counts"
    ).check()
    page.get_by_label(
        "Each hand must be accepted by a player of another side before it counts"
    ).scroll_into_view_if_needed()
    shot(page, "start-game-390x844.png")
    page.get_by_role("button", name="Start the game").tap()
    expect(page).to_have_url(re.compile(r"/g/\d+/$"))
    assert Game.objects.get().hands_need_acceptance
    expect(page.locator("#hand-form fieldset.entering-seat")).to_be_visible()
