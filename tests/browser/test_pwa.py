"""Segnapunti as an app at the table (issue 10, points 4, 5, 6 and the end of a game), on a
390×844 phone: a reload without network, the undo toast, the removal dialog, the end-of-game
card (rematch, share), the big-type scoreboard, the screen kept awake."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import AuditEvent, Game, Hand
from scoring.services import Actor
from tests.browser.test_outbox import outbox, type_hand
from tests.scoring.rules.games import hand_documents

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

G1 = hand_documents("terziglio", "G1")
SHOTS = Path("/tmp/shots-pwa")


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def play(game, documents, user):
    for document in documents:
        services.record_hand(game=game, document=document, by=Actor.for_user(user))
    return Game.objects.get(pk=game.pk)


def in_viewport(page: Page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 100) <= 844


# -- an installable app that survives a reload without network -----------------------------------


def test_a_reload_without_network_still_shows_the_game_and_its_outbox(
    olga_page, olga, phone, terziglio
):
    page = olga_page
    play(terziglio, G1[:1], olga)
    page.goto(f"/g/{terziglio.pk}/")
    # The worker installs and takes the page over; the next load of the page is kept.
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    page.reload()
    expect(page.locator("#live .history h2")).to_contain_text("(1)")

    phone.set_offline(True)
    chip = page.locator("#hand-form fieldset.outcome label.chip").filter(has_text="Played")
    chip.tap()
    page.locator("#hand-form fieldset.soloist label.chip").filter(has_text="Bruno").tap()
    page.locator("#hand-form fieldset.contract label.chip").filter(has_text="Chiamo").tap()
    page.locator("#id_soloist_points").fill("6")
    page.locator("#hand-form").get_by_role("button", name="Save hand").tap()
    expect(page.locator("#outbox-status")).to_contain_text("1 hand waiting to be sent.")

    page.reload()
    expect(page.get_by_role("heading", name="Terziglio")).to_be_visible()
    expect(page.locator("#live .totals .name")).to_have_text(["Anna", "Bruno", "Carla"])
    expect(page.locator("#outbox-status")).to_contain_text("1 hand waiting to be sent.")
    assert len(outbox(page)) == 1
    shot(page, "offline-reload")

    phone.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#live .history h2")).to_contain_text("(2)")
    assert Hand.objects.filter(game=terziglio).count() == 2


def passed_out_offline(page: Page) -> None:
    """One hand typed and saved without network: everybody passed (the dealer as shown)."""
    page.locator("#hand-form fieldset.outcome label.chip").filter(has_text="Everybody passed").tap()
    page.locator("#hand-form").get_by_role("button", name="Save hand").tap()


def test_a_reload_without_network_counts_the_hands_waiting_on_the_phone(
    olga_page, olga, phone, terziglio
):
    """Issue 21, point 2: reloaded offline with two hands waiting, the form shows the hand after
    them and its dealer; a hand typed there is stored online under its own number, not refused
    as entered by another phone."""
    page = olga_page
    play(terziglio, G1[:1], olga)  # Anna dealt hand 1: Bruno deals hand 2
    page.goto(f"/g/{terziglio.pk}/")
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    page.reload()
    heading = page.locator("[data-hand-heading]")
    expect(heading).to_contain_text("Hand 2")

    phone.set_offline(True)
    passed_out_offline(page)  # hand 2, Bruno deals
    passed_out_offline(page)  # hand 3, Carla deals
    expect(page.locator("#outbox-status")).to_contain_text("2 hands waiting to be sent.")

    page.reload()  # the page kept by the service worker shows hand 2 and Bruno
    expect(page.locator("#outbox-status")).to_contain_text("2 hands waiting to be sent.")
    expect(heading).to_contain_text("Hand 4")
    dealer = page.locator('#hand-form input[name="dealer"]:checked, #hand-form input[data-dealer]')
    assert dealer.first.input_value() == "0"  # Anna deals hand 4
    shot(page, "offline-reload-two-waiting")
    passed_out_offline(page)
    expect(page.locator("#outbox-status")).to_contain_text("3 hands waiting to be sent.")

    phone.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#live .history h2")).to_contain_text("(4)")
    expect(page.locator("#outbox-status")).not_to_contain_text("waiting")
    hands = Hand.objects.filter(game=terziglio).order_by("number")
    assert [h.document["dealer"] for h in hands] == [0, 1, 2, 0]
    assert [h.document.get("outcome") for h in hands][1:] == ["passed_out"] * 3


def test_manifest_icons_and_favicon_are_served(page, live_server):
    page.goto("/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    manifest = page.request.get(href).json()
    assert manifest["name"] == "Segnapunti" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert page.request.get(icon["src"]).ok
    assert page.request.get("/favicon.ico").status == 200


def test_the_screen_is_kept_awake_during_a_game_and_asked_again_when_shown(
    olga_page, olga, terziglio
):
    page = olga_page
    page.add_init_script(
        """
        window.__locks = [];
        Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
          request: function (type) {
            var sentinel = new EventTarget();
            sentinel.release = function () {
              sentinel.dispatchEvent(new Event("release")); return Promise.resolve();
            };
            window.__locks.push({ type: type, sentinel: sentinel });
            return Promise.resolve(sentinel);
          }
        }});
        """
    )
    page.goto(f"/g/{terziglio.pk}/")
    page.wait_for_function("window.__locks.length === 1")
    assert page.evaluate("window.__locks[0].type") == "screen"
    assert page.evaluate("window.segnapunti.pwa.wakeLock") is True
    # The browser drops the lock when the page is hidden; shown again, it is asked again.
    page.evaluate("window.__locks[0].sentinel.release()")
    assert page.evaluate("window.segnapunti.pwa.wakeLock") is False
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.__locks.length === 2")
    # A finished game lets the screen sleep: no lock is asked on its page.
    finished = play(terziglio, G1, olga)
    assert finished.status == "finished"
    page.goto(f"/g/{terziglio.pk}/")
    page.wait_for_load_state("load")
    assert page.evaluate("window.__locks.length") == 0


# -- point 4: undo -------------------------------------------------------------------------------


def test_the_hand_just_saved_is_undone_with_one_tap(olga_page, terziglio):
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/")
    type_hand(page)
    toast = page.locator("#undo-toast")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text("Hand 1 saved")
    undo = toast.get_by_role("button", name=re.compile(r"^Undo \(\d+ s\)$"))
    expect(undo).to_be_visible()
    box = undo.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    expect(page.locator("#live .history h2")).to_contain_text("(1)")
    shot(page, "undo-toast")
    undo.tap()
    expect(toast).to_contain_text("Hand 1 undone.")
    expect(page.locator("#live .history h2")).to_contain_text("(0)")
    assert Hand.objects.filter(game=terziglio).count() == 0
    assert AuditEvent.objects.filter(game=terziglio, action="undo_hand").count() == 1


def test_a_hand_queued_offline_can_be_undone_once_it_is_stored(olga_page, phone, terziglio):
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/")
    phone.set_offline(True)
    type_hand(page)
    toast = page.locator("#undo-toast")
    expect(page.locator("#outbox-status")).to_contain_text("1 hand waiting to be sent.")
    expect(toast).to_be_hidden()  # not stored yet: nothing to undo
    phone.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(toast).to_contain_text("Hand 1 saved")
    toast.get_by_role("button").tap()
    expect(toast).to_contain_text("Hand 1 undone.")
    assert Hand.objects.filter(game=terziglio).count() == 0


# -- point 5: the removal dialog -----------------------------------------------------------------


def test_removing_a_middle_hand_asks_what_was_meant_in_a_dialog(olga_page, olga, terziglio):
    page = olga_page
    play(terziglio, G1[:4], olga)
    page.goto(f"/g/{terziglio.pk}/hands/2/")
    page.get_by_label("Reason").last.fill("entered twice")
    page.get_by_role("button", name="Remove", exact=True).tap()
    dialog = page.get_by_role("alertdialog", name="Remove hand 2?")
    expect(dialog).to_be_visible()
    assert in_viewport(page, dialog)
    expect(dialog).to_contain_text("The 2 hands after it were dealt in turn after this one")
    # The safe answer has the focus (issue 21, point 14), not the most destructive one.
    expect(dialog.get_by_role("link", name="Keep the hand")).to_be_focused()
    shot(page, "removal-dialog")
    dialog.get_by_role("button", name="Remove only this hand and fix the dealers").tap()
    expect(page).to_have_url(re.compile(rf"/g/{terziglio.pk}/$"))
    expect(page.locator(".flash")).to_contain_text("Hand 2 removed;")
    expect(page.locator("#live .history h2")).to_contain_text("(3)")
    dealers = list(
        Hand.objects.filter(game=terziglio)
        .order_by("number")
        .values_list("document__dealer", flat=True)
    )
    assert dealers == [0, 1, 2]


def test_the_dialog_can_remove_the_hand_and_those_after_it(olga_page, olga, terziglio):
    page = olga_page
    play(terziglio, G1[:4], olga)
    page.goto(f"/g/{terziglio.pk}/hands/2/")
    page.get_by_label("Reason").last.fill("misdeal")
    page.get_by_role("button", name="Remove", exact=True).tap()
    page.get_by_role("button", name="Remove this hand and the 2 after it").tap()
    expect(page.locator(".flash")).to_contain_text("Hands 2 to 4 removed.")
    expect(page.locator("#live .history h2")).to_contain_text("(1)")


# -- the end of a game ---------------------------------------------------------------------------


def test_the_end_of_the_game_shows_without_reload_then_rematch(olga_page, olga, terziglio):
    page = olga_page
    play(terziglio, G1[:6], olga)
    page.goto(f"/g/{terziglio.pk}/")
    badge = page.locator("[data-status-badge]")
    expect(badge).to_have_text("in progress")
    play(terziglio, G1[6:], olga)  # the last hand, from another phone
    page.evaluate("window.segnapunti.live.refresh()")
    expect(badge).to_have_text("finished")
    over = page.locator("#game-over")
    expect(over.get_by_role("heading", name="Game over")).to_be_focused()
    expect(over).to_contain_text("Anna wins!")
    expect(over.locator(".ranking li")).to_have_count(3)
    page.wait_for_timeout(800)  # the smooth scroll
    shot(page, "game-over")
    heading = over.get_by_role("heading", name="Game over")
    stuck = page.locator("#live .totals").bounding_box()
    assert heading.bounding_box()["y"] >= stuck["y"] + stuck["height"] - 1  # not under the totals
    assert in_viewport(page, over)

    over.get_by_role("button", name="Rematch with the same players").tap()
    expect(page).to_have_url(re.compile(r"/g/\d+/\?dealer=1$"))
    new = Game.objects.exclude(pk=terziglio.pk).get()
    assert [s.player_id for s in new.seats.order_by("index")] == [
        s.player_id for s in terziglio.seats.order_by("index")
    ]
    assert new.options == Game.objects.get(pk=terziglio.pk).options
    # Anna dealt first last game: Bruno is offered the first deal.
    expect(page.locator('#hand-form fieldset.dealer input[value="1"]')).to_be_checked()


def test_share_the_result_uses_web_share_or_else_gives_the_link(olga_page, olga, terziglio):
    page = olga_page
    play(terziglio, G1, olga)
    page.add_init_script(
        "window.__shared = []; navigator.share = function (d) { window.__shared.push(d); return Promise.resolve(); };"
    )
    page.goto(f"/g/{terziglio.pk}/")
    page.get_by_role("button", name="Share the result").tap()
    expect(page.locator(".share-status")).to_have_text("Result shared.")
    shared = page.evaluate("window.__shared[0]")
    assert shared["url"].endswith(f"/g/{terziglio.pk}/") and shared["url"].startswith(
        "http://localhost"
    )
    assert shared["text"].startswith("Terziglio: 1° Anna")

    other = page.context.new_page()
    other.add_init_script(
        "delete Navigator.prototype.share;"
        "Object.defineProperty(navigator, 'clipboard', {value: undefined});"
    )
    other.goto(f"/g/{terziglio.pk}/")
    other.get_by_role("button", name="Share the result").tap()
    link = other.get_by_label("Link to the result")
    expect(link).to_be_visible()
    expect(link).to_have_value(re.compile(rf"/g/{terziglio.pk}/$"))
    expect(other.locator(".share-status")).to_have_text("Copy this link to share the result:")


def test_a_finished_game_is_not_abandoned_in_one_tap(olga_page, olga, terziglio):
    page = olga_page
    play(terziglio, G1, olga)
    page.goto(f"/g/{terziglio.pk}/")
    page.locator("summary", has_text="Abandon this game").tap()
    page.get_by_label("Reason").fill("oops")
    page.get_by_role("button", name="Abandon", exact=True).tap()
    assert Game.objects.get(pk=terziglio.pk).status == "finished"  # the browser asked first
    confirm = page.get_by_label("Yes, abandon this finished game and drop its ranking")
    expect(confirm).to_be_visible()
    confirm.check()
    page.get_by_role("button", name="Abandon", exact=True).tap()
    expect(page.locator("[data-status-badge]")).to_have_text("abandoned")


# -- the scoreboard for the middle of the table --------------------------------------------------


def test_the_scoreboard_shows_big_totals_and_follows_the_game(olga_page, olga, terziglio):
    page = olga_page
    play(terziglio, G1[:1], olga)
    page.goto(f"/g/{terziglio.pk}/")
    page.get_by_role("link", name="Scoreboard for the middle of the table").tap()
    expect(page).to_have_url(re.compile(rf"/g/{terziglio.pk}/board/$"))
    scores = page.locator("#board .score")
    expect(scores).to_have_text([str(t) for t in Game.objects.get(pk=terziglio.pk).totals])
    size = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#board .score')).fontSize)"
    )
    assert size >= 48
    shot(page, "board")
    play(terziglio, G1[1:3], olga)
    expect(page.locator(".board-meta")).to_contain_text("3 hands played", timeout=12_000)


# -- playing at the club -------------------------------------------------------------------------


def test_the_organizer_on_the_laptop_is_told_how_phones_reach_it(
    browser, live_server, olga, settings
):
    from tests.browser.conftest import log_in

    settings.DEBUG = True  # `make run`'s (a production server never shows the card)
    laptop = browser.new_context(
        base_url=live_server.url, viewport={"width": 1280, "height": 800}, has_touch=True
    )
    try:
        page = laptop.new_page()
        log_in(page, "olga", "pw-olga")
        page.goto("/")
        card = page.locator("#phones-address")
        expect(card.get_by_role("heading", name="Phones at the table")).to_be_visible()
        # The test server listens on this computer only: the page says how to serve the phones.
        port = live_server.url.rsplit(":", 1)[1]
        expect(card.locator("code")).to_have_text(f"make run HOST=0.0.0.0:{port}")
        shot(page, "home-laptop")
    finally:
        laptop.close()
