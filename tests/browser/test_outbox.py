"""Nothing typed is lost on a phone: a hand the server refuses for access or conflict stays in the
outbox, the page says why and offers the fix, and only the player sends it again or discards it.

The first test is the real story (a table session that expires on the server while the phone is
offline); the others answer the outbox's request with each status through ``page.route``."""

import json
import re

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from playwright.sync_api import Page, expect

from scoring import services as scoring
from scoring.models import Hand, TableLink, Via
from scoring.services import Actor
from tests.browser.conftest import PHONE, TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDS = "**/g/*/hands/"


@pytest.fixture
def phone(browser, live_server):
    """The phone of ``conftest.phone`` without the site's service worker: Playwright's
    ``page.route`` does not see a request made from a page the worker controls, and the worker
    (registered by every page) may take control in the middle of a test, when the hand then goes
    to the real server past the test's answer (1 run in about 15 before). Nothing here needs the
    worker: what it keeps offline is tested in test_pwa.py."""
    context = browser.new_context(base_url=live_server.url, service_workers="block", **PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    yield context
    context.close()


# -- helpers ------------------------------------------------------------------------------------


def chip(page: Page, fieldset: str, text: str):
    return page.locator(f"#hand-form fieldset.{fieldset} label.chip").filter(
        has_text=re.compile(rf"^\s*{re.escape(text)}\s*$")
    )


def type_hand(page: Page) -> None:
    """Hand 1 of the rulebook's G1 (Anna deals and calls Chiamo, 7 points), saved. Typed once
    the outbox listens (it defines ``segnapuntiOutbox`` as it starts listening): a tap before
    that posts the form the old way, past any route the test set."""
    page.wait_for_function("() => window.segnapuntiOutbox !== undefined")
    chip(page, "dealer", "Anna").tap()
    chip(page, "outcome", "Played").tap()
    chip(page, "soloist", "Anna").tap()
    chip(page, "contract", "Chiamo").tap()
    page.locator("#id_soloist_points").fill("7")
    page.locator("#hand-form").get_by_role("button", name="Save hand").tap()


def enter_pin(page: Page, link: TableLink) -> None:
    page.get_by_label("PIN").fill(link.pin)
    page.get_by_role("button", name="Open the score sheet").tap()
    expect(page).to_have_url(re.compile(rf"/g/{link.game_id}/$"))


def outbox(page: Page) -> list[dict]:
    return page.evaluate("window.segnapuntiOutbox.load()")


def stored(game) -> list[tuple]:
    return list(Hand.objects.filter(game=game).values_list("number", "deltas"))


def expect_totals(page: Page, values: list[int]) -> None:
    expect(page.locator("#live .totals .score")).to_have_text([str(v) for v in values])


def expect_tappable(locator) -> None:
    """A tap target at least 44 px high and wide (Apple's and WCAG's size for a finger)."""
    for index in range(locator.count()):
        box = locator.nth(index).bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44, box


def answer(page: Page, status: int, body: str, content_type: str) -> list[str]:
    """Answer every hand the outbox sends with ``status``; the list grows with each request."""
    seen: list[str] = []

    def fulfil(route):
        seen.append(route.request.method)
        route.fulfill(status=status, body=body, content_type=content_type)

    page.route(HANDS, fulfil)
    return seen


def errors(code: str, message: str) -> str:
    error = {"hand": None, "field": None, "code": code, "message": message}
    return json.dumps({"errors": [error]})


# -- the expired table session, for real ----------------------------------------------------------


def test_a_hand_typed_offline_outlives_an_expired_table_session_and_is_sent_once_after_the_pin(
    page, phone, terziglio
):
    link = TableLink.objects.get(game=terziglio)
    page.goto(f"/t/{link.token}/")
    enter_pin(page, link)
    status = page.locator("#outbox-status")

    phone.set_offline(True)
    type_hand(page)
    # Separate sentences, one per line.
    expect(status.locator("p")).to_have_text(
        [
            "1 hand waiting to be sent.",
            "Offline: hands are kept on this phone and sent when the network returns.",
        ]
    )

    # The table session ends on the server meanwhile (its row leaves the session store).
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"
    Session.objects.all().delete()
    phone.set_offline(False)

    kept = status.locator(".refused")
    expect(kept).to_contain_text("Hand 1 was not sent: it is kept on this phone.")
    expect(kept).to_contain_text("The table session on this phone has ended.")
    expect(kept).to_contain_text("Enter the table PIN again, then tap “Send again”.")
    assert [(e["number"], e["refused"]["code"]) for e in outbox(page)] == [(1, "not_authenticated")]
    assert stored(terziglio) == []
    expect_tappable(kept.locator("a.button, button"))

    kept.get_by_role("link", name="Enter the table PIN again").tap()
    expect(page).to_have_url(re.compile(rf"/t/{link.token}/$"))
    enter_pin(page, link)
    kept = page.locator("#outbox-status .refused")
    expect(kept).to_contain_text("Hand 1 was not sent: it is kept on this phone.")
    expect(kept).to_contain_text("This phone may enter hands in this game again.")
    assert stored(terziglio) == []  # the player decides when it goes

    kept.get_by_role("button", name="Send again").tap()
    expect_totals(page, [2, -1, -1])
    expect(page.locator("#outbox-status")).to_be_hidden()
    assert outbox(page) == []
    assert list(
        Hand.objects.filter(game=terziglio).values_list("number", "deltas", "entered_via")
    ) == [(1, [2, -1, -1], Via.TABLE)]


# -- every refusal keeps the hand and says why ----------------------------------------------------

JSON = "application/json"
HTML = "text/html; charset=utf-8"
PIN_WHY = "The table session on this phone has ended."
GONE_WHY = "The game is gone, or this phone can no longer see it."
CLOSED_WHY = "The round is closed: ask an organizer to reopen the game."
STALE_WHY = "The game has changed since this hand was typed: it may already be entered."
ROUND_3 = "Round 3 is closed: an organizer of the club can reopen this game."


@pytest.mark.parametrize(
    ("status", "body", "content_type", "why", "fix"),
    [
        pytest.param(
            401,
            errors("not_authenticated", "…"),
            JSON,
            PIN_WHY,
            "Enter the table PIN again",
            id="401",
        ),
        pytest.param(
            403,
            errors("not_authenticated", "…"),
            JSON,
            PIN_WHY,
            "Enter the table PIN again",
            id="403",
        ),
        pytest.param(
            403,
            "<h1>Forbidden (CSRF)</h1>",
            HTML,
            PIN_WHY,
            "Enter the table PIN again",
            id="403-page",
        ),
        pytest.param(
            404,
            errors("not_authenticated", "…"),
            JSON,
            PIN_WHY,
            "Enter the table PIN again",
            id="404-let-me-in",
        ),
        pytest.param(404, errors("not_found", "Not found."), JSON, GONE_WHY, None, id="404"),
        pytest.param(404, "<h1>Not Found</h1>", HTML, GONE_WHY, None, id="404-page"),
        pytest.param(409, errors("locked", ROUND_3), JSON, CLOSED_WHY, None, id="409"),
        pytest.param(
            409,
            errors("game_abandoned", "The game was abandoned: it cannot change any more."),
            JSON,
            GONE_WHY,
            None,
            id="409-abandoned",
        ),
        pytest.param(412, errors("stale", "Stale."), JSON, STALE_WHY, "Reload the game", id="412"),
        pytest.param(
            422, errors("reused", "Already sent."), JSON, STALE_WHY, "Reload the game", id="422"
        ),
        pytest.param(405, "", HTML, "The server refused it (error 405).", None, id="405"),
    ],
)
def test_a_refused_hand_stays_in_the_outbox_and_the_page_says_why(
    page, terziglio, status, body, content_type, why, fix
):
    link = TableLink.objects.get(game=terziglio)
    page.goto(f"/t/{link.token}/")
    enter_pin(page, link)
    sent = answer(page, status, body, content_type)
    type_hand(page)

    kept = page.locator("#outbox-status .refused")
    expect(kept.locator(".why")).to_have_text(why)
    expect(kept).to_contain_text("Hand 1 was not sent: it is kept on this phone.")
    if status == 409 and why == CLOSED_WHY:
        expect(kept.locator(".server")).to_have_text(ROUND_3)  # the server's own words too
    if status == 409 and why == GONE_WHY:  # the game was abandoned: said in the server's words
        expect(kept.locator(".server")).to_have_text(
            "The game was abandoned: it cannot change any more."
        )
    if status == 404 and why == GONE_WHY:  # no fix but the values, in plain sight to copy
        values = kept.locator("pre.values")
        expect(values).to_be_visible()
        for line in ("Dealer: Anna", "Soloist: Anna", "Contract: Chiamo", "Soloist's points: 7"):
            expect(values).to_contain_text(line)
    if fix is None:
        expect(kept.locator("a.fix")).to_have_count(0)
    else:
        target = f"/t/{link.token}/" if fix.startswith("Enter") else f"/g/{terziglio.pk}/"
        expect(kept.get_by_role("link", name=fix)).to_have_attribute("href", target)
    expect(kept.get_by_role("button", name="Send again")).to_be_visible()
    expect(kept.get_by_role("button", name="Discard this hand")).to_be_visible()

    (entry,) = outbox(page)
    assert entry["refused"]["status"] == status
    page.evaluate("window.segnapuntiOutbox.flush()")  # a later flush leaves it alone
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(kept).to_have_count(1)
    assert sent == ["POST"]
    assert len(outbox(page)) == 1
    assert stored(terziglio) == []


def test_a_signed_in_scorer_refused_for_access_is_sent_to_log_in(olga_page, terziglio):
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/")
    answer(page, 403, errors("not_authenticated", "…"), JSON)
    type_hand(page)
    kept = page.locator("#outbox-status .refused")
    expect(kept.locator(".why")).to_have_text(
        "You are not logged in with an account that may enter hands in this game."
    )
    expect(kept.get_by_role("link", name="Log in again")).to_have_attribute(
        "href", f"/login/?next=%2Fg%2F{terziglio.pk}%2F"
    )


# -- only the player sends again or discards -------------------------------------------------------


def test_send_again_stores_a_kept_hand_once_when_the_round_is_reopened(olga_page, terziglio):
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/")
    answer(page, 409, errors("locked", ROUND_3), JSON)
    type_hand(page)
    kept = page.locator("#outbox-status .refused")
    expect(kept.locator(".why")).to_have_text(CLOSED_WHY)

    page.unroute(HANDS)  # the organizer reopens the game
    kept.get_by_role("button", name="Send again").tap()
    expect_totals(page, [2, -1, -1])
    expect(page.locator("#outbox-status")).to_be_hidden()
    assert outbox(page) == []
    assert stored(terziglio) == [(1, [2, -1, -1])]


def test_discard_asks_first_and_keep_it_keeps_it(olga_page, terziglio):
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/")
    answer(page, 404, errors("not_found", "Not found."), JSON)
    type_hand(page)
    kept = page.locator("#outbox-status .refused")

    kept.get_by_role("button", name="Discard this hand").tap()
    expect(kept).to_contain_text("Discard hand 1 for good? Nobody can get it back.")
    expect_tappable(kept.locator(".discard-control button"))
    kept.get_by_role("button", name="Keep it").tap()
    expect(kept.get_by_role("button", name="Discard this hand")).to_be_visible()
    assert len(outbox(page)) == 1

    kept.get_by_role("button", name="Discard this hand").tap()
    kept.get_by_role("button", name="Yes, discard it").tap()
    expect(page.locator("#outbox-status")).to_be_hidden()
    assert outbox(page) == []
    assert stored(terziglio) == []


def test_a_server_error_keeps_the_hand_waiting_and_it_goes_by_itself_later(olga_page, terziglio):
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/")
    sent = answer(page, 503, "<h1>Service Unavailable</h1>", HTML)
    # The status line says "waiting" as soon as the hand is queued, before its POST even reaches
    # the route (whose handler runs only when Playwright next dispatches its events): the test
    # waits for the route's answer before counting what it saw, not for the status line alone.
    with page.expect_response(lambda r: r.request.method == "POST" and "/hands/" in r.url):
        type_hand(page)
    status = page.locator("#outbox-status")
    expect(status).to_have_text("1 hand waiting to be sent.")
    expect(status.locator(".refused")).to_have_count(0)
    assert sent == ["POST"]

    page.unroute(HANDS)
    # As when the network returns. The 503 may still be on its way back to the page (the status
    # line says "waiting" before the answer comes), and a flush under way ignores the event: the
    # event comes again until the outbox is empty, as a phone's network does.
    page.wait_for_function(
        "() => { window.dispatchEvent(new Event('online'));"
        " return window.segnapuntiOutbox.load().length === 0; }",
        polling=200,
    )
    expect_totals(page, [2, -1, -1])
    expect(status).to_be_hidden()
    assert stored(terziglio) == [(1, [2, -1, -1])]


def test_a_phone_whose_table_link_was_renewed_is_told_so_not_shown_a_debug_page(
    page, terziglio, olga, settings
):
    """Issue 21, point 4: with DEBUG on (``make run``'s default), the live poll's 404 after the
    organizer renewed the table link must not become Django's yellow page: the game stays, and
    the page says why it stopped following and what to do."""
    settings.DEBUG = True
    link = TableLink.objects.get(game=terziglio)
    page.goto(f"/t/{link.token}/")
    enter_pin(page, link)
    expect(page.get_by_role("heading", name="Terziglio")).to_be_visible()

    scoring.rotate_table_link(game=terziglio, by=Actor.for_user(olga))

    notice = page.locator("#live-gone")
    expect(notice).to_contain_text("its table link was renewed", timeout=10_000)
    expect(notice).to_contain_text("Scan the table’s new QR code and type its PIN")
    expect(page.get_by_role("heading", name="Terziglio")).to_be_visible()
    expect(page.locator("#live .totals .name")).to_have_text(["Anna", "Bruno", "Carla"])
    assert "Page not found" not in page.content()
    # It stops asking: no second notice, and no more polls of the region.
    polls = []
    page.on(
        "request", lambda request: polls.append(request.url) if "/live/" in request.url else None
    )
    page.wait_for_timeout(4000)
    assert polls == [] and page.locator("#live-gone").count() == 1
