"""The game page on a phone, measured in the browser: a refused hand, once fixed, leaves a clean
form behind; the sticky totals hide neither the errors nor the scores (390×844, 320×700, 200 %
zoom); the history never scrolls sideways; tap targets and borders are big and dark enough
(WCAG 2.2 target size 44×44 CSS px, non-text contrast 3:1).

Screenshots of what is measured go to ``$SHOTS_DIR`` when it is set, to be looked at."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Hand
from scoring.services import Actor

from .conftest import PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# -- helpers ------------------------------------------------------------------------------------


def chip(page: Page, fieldset: str, text: str):
    return page.locator(f"#hand-form fieldset.{fieldset} label.chip").filter(
        has_text=re.compile(rf"^\s*{re.escape(text)}\s*$")
    )


def save_hand(page: Page) -> None:
    page.locator("#hand-form").get_by_role("button", name="Save hand").tap()


def shot(page: Page, name: str) -> None:
    folder = os.environ.get("SHOTS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=False)


def sized(browser, live_server, width: int, height: int, scale: float = 1):
    """A phone of ``width``×``height`` CSS px (a 200 % zoom of a 390×844 phone is 195×422 CSS
    px drawn at twice the density)."""
    context = browser.new_context(
        base_url=live_server.url,
        **{**PHONE, "viewport": {"width": width, "height": height}},
        device_scale_factor=scale,
    )
    return context


def visible_in_viewport(page: Page, selector: str) -> dict:
    """Where ``selector`` is, and whether anything sticky covers its middle."""
    return page.evaluate(
        """(selector) => {
            const el = document.querySelector(selector);
            const box = el.getBoundingClientRect();
            const x = box.left + Math.min(box.width / 2, 20), y = box.top + box.height / 2;
            const hit = document.elementFromPoint(x, y);
            return {top: box.top, bottom: box.bottom, height: window.innerHeight,
                    covered: !(hit && (el === hit || el.contains(hit)))};
        }""",
        selector,
    )


def no_sideways_scroll(page: Page) -> None:
    widths = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], widths


@pytest.fixture
def four(club, players, olga):
    """A Briscola game of the four players in pairs, two hands played (one won by each pair)."""
    by = Actor.for_user(olga)
    game = services.start_game(club=club, ruleset="briscola", players=players, by=by)
    for dealer, points in ((0, [70, 50]), (1, [40, 80])):
        services.record_hand(
            game=game, document={"dealer": dealer, "points": points}, by=by, idempotency_key=None
        )
    return game


FORM_STATE = """Array.from(document.querySelectorAll('#hand-form input')).filter(
    i => i.name !== 'csrfmiddlewaretoken' && i.name !== 'idempotency_key' && i.name !== 'dealer'
  ).map(i => [i.name, i.type === 'radio' || i.type === 'checkbox' ? i.checked : i.value])"""


# -- 1. a refused hand, fixed, leaves a clean form ------------------------------------------------


def test_after_a_refused_hand_is_fixed_the_next_hand_form_is_clean(olga_page, terziglio):
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/")
    chip(page, "dealer", "Anna").tap()
    chip(page, "outcome", "Played").tap()
    chip(page, "soloist", "Bruno").tap()
    chip(page, "contract", "Solo").tap()
    page.locator("#id_soloist_points").fill("12")
    save_hand(page)
    status = page.locator("#outbox-status")
    expect(status).to_contain_text("A waiting hand was refused: fix it below.")
    expect(page.locator('#hand-form [data-field="soloist_points"]')).to_have_class(
        re.compile(r"\bhas-error\b")
    )
    expect(page.locator("#hand-form .discard-control")).to_have_count(1)

    page.locator("#id_soloist_points").fill("8")
    save_hand(page)
    expect(page.locator("#live .totals .score")).to_have_text(["-2", "4", "-2"])
    expect(status).to_be_hidden()

    form = page.locator("#hand-form")
    expect(page.locator(".entry-card > h2")).to_have_text("Hand 2")
    expect(page.locator("#id_soloist_points")).to_have_value("")
    expect(form.locator('input[name="dealer"][value="1"]')).to_be_checked()  # Bruno deals
    expect(form.locator('input[name="soloist"]:checked')).to_have_count(0)
    expect(form.locator('input[name="contract"]:checked')).to_have_count(0)
    expect(form.locator(".has-error")).to_have_count(0)
    expect(form.locator(".error")).to_have_count(0)
    expect(form.locator("[aria-invalid=true]")).to_have_count(0)
    expect(page.locator(".discard-control")).to_have_count(0)
    expect(page.get_by_role("button", name="Discard this hand")).to_have_count(0)
    border = page.evaluate(
        "getComputedStyle(document.querySelector('#id_soloist_points')).borderTopColor"
    )
    assert border != "rgb(185, 28, 28)"  # not the red of an error
    shot(page, "clean-next-hand-390")
    # What the form holds is what a freshly served page holds for hand 2.
    state = page.evaluate(FORM_STATE)
    page.reload()
    assert page.evaluate(FORM_STATE) == state

    # And the clean form takes hand 2 like any other.
    chip(page, "outcome", "Played").tap()
    chip(page, "soloist", "Carla").tap()
    chip(page, "contract", "Chiamo").tap()
    page.locator("#id_soloist_points").fill("7")
    save_hand(page)
    expect(page.locator("#live .totals .score")).to_have_text(["-3", "3", "0"])
    assert list(
        Hand.objects.filter(game=terziglio).order_by("number").values_list("number", "deltas")
    ) == [(1, [-2, 4, -2]), (2, [-1, -1, 2])]


# -- 2. sticky totals, small screens, zoom, the history ------------------------------------------

#: 390×844 as it comes; 320×700, the smallest phones; 200 % zoom of a 390×844 phone.
SCREENS = [
    pytest.param(390, 844, 1, id="390x844"),
    pytest.param(320, 700, 1, id="320x700"),
    pytest.param(195, 422, 2, id="390x844-at-200%"),
]


def scores_readable(page: Page) -> None:
    """Every total shows its whole score, inside the viewport, and the sticky part leaves most
    of the screen to the form."""
    facts = page.evaluate(
        """() => Array.from(document.querySelectorAll('#live .totals .total')).map(t => {
            const s = t.querySelector('.score'), box = s.getBoundingClientRect();
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return {clipped: s.scrollWidth > s.clientWidth + 1, left: box.left,
                    right: box.right, width: window.innerWidth,
                    covered: box.bottom > 0 && box.top < window.innerHeight && !t.contains(hit)};
        })"""
    )
    for fact in facts:
        assert not fact["clipped"] and not fact["covered"], fact
        assert fact["left"] >= 0 and fact["right"] <= fact["width"], fact
    sticky = page.evaluate(
        """() => {
            let covered = 0;
            for (const el of document.querySelectorAll('.topbar, #live .totals')) {
                if (getComputedStyle(el).position === 'sticky') covered += el.getBoundingClientRect().height;
            }
            return covered / window.innerHeight;
        }"""
    )
    assert sticky <= 0.4, sticky


@pytest.mark.parametrize(("width", "height", "scale"), SCREENS)
def test_the_sticky_totals_never_hide_an_error_nor_the_scores(
    browser, live_server, four, olga, width, height, scale
):
    context = sized(browser, live_server, width, height, scale)
    page = context.new_page()
    log_in(page, "olga", "pw-olga")
    page.goto(f"/g/{four.pk}/")
    scores_readable(page)
    no_sideways_scroll(page)
    page.locator("#id_points_0").fill("60")
    page.locator("#id_points_1").fill("50")
    save_hand(page)
    error = page.locator("#hand-form .error").first
    expect(error).to_contain_text("120")
    page.wait_for_timeout(600)  # the smooth scroll to the refused form
    where = visible_in_viewport(page, "#hand-form .error")
    assert not where["covered"], where
    assert where["top"] >= 0 and where["bottom"] <= where["height"], where
    scores_readable(page)
    no_sideways_scroll(page)
    shot(page, f"briscola-error-{width}x{height}")
    # Scrolled down to the history, the scores stay readable and nothing scrolls sideways.
    page.locator("#live .history").scroll_into_view_if_needed()
    scores_readable(page)
    no_sideways_scroll(page)
    shot(page, f"briscola-history-{width}x{height}")
    context.close()


def test_a_large_font_keeps_the_scores_and_the_history_on_the_screen(
    browser, live_server, four, olga
):
    """The phone's text size at 200 %: the page follows the root font size."""
    context = sized(browser, live_server, 390, 844)
    page = context.new_page()
    log_in(page, "olga", "pw-olga")
    page.goto(f"/g/{four.pk}/")
    # Through the DOM, as the CSP allows (an injected <style> would be refused like any other).
    page.evaluate("document.documentElement.style.setProperty('font-size', '200%', 'important')")
    page.locator("#live .history").scroll_into_view_if_needed()
    scores_readable(page)
    no_sideways_scroll(page)
    shot(page, "briscola-large-font")
    context.close()


@pytest.mark.parametrize("width", [390, 320])
def test_with_four_players_the_history_fits_the_phone(browser, live_server, four, olga, width):
    context = sized(browser, live_server, width, 844)
    page = context.new_page()
    log_in(page, "olga", "pw-olga")
    page.goto(f"/g/{four.pk}/")
    history = page.locator("#live .history")
    history.scroll_into_view_if_needed()
    no_sideways_scroll(page)
    wrap = page.evaluate(
        """() => { const w = document.querySelector('#live .history .table-wrap');
                   return [w.scrollWidth, w.clientWidth]; }"""
    )
    assert wrap[0] <= wrap[1], wrap
    # Each player's delta and running total are still shown for every hand.
    expect(history.locator("tbody tr")).to_have_count(2)
    expect(history.locator("tbody tr").first.locator(".running")).to_have_count(4)
    for cell in history.locator(".running").all():
        box = cell.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    shot(page, f"history-four-{width}")
    context.close()


# -- 3. tap targets and borders -----------------------------------------------------------------


def contrast(page: Page, foreground: str, background: str) -> float:
    """WCAG contrast ratio of two computed CSS colours (``rgb(...)``)."""

    def luminance(colour: str) -> float:
        parts = [int(p) for p in re.findall(r"\d+", colour)[:3]]
        linear = [
            c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
            for c in parts
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


BACKGROUND = """(el) => {
    for (let node = el.parentElement; node; node = node.parentElement) {
        const bg = getComputedStyle(node).backgroundColor;
        if (bg && bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return bg;
    }
    return 'rgb(255, 255, 255)';
}"""


def test_tap_targets_and_borders_are_big_and_dark_enough(olga_page, four):
    page = olga_page
    page.goto(f"/g/{four.pk}/")
    # The hand's number opens it to correct it; the language links in the footer.
    targets = page.locator("#live .history tbody td:first-child a").all()
    targets += page.locator("footer .lang button").all()
    assert len(targets) == 2 + 3
    for target in targets:
        box = target.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (target, box)
    # Borders of inputs and of choice chips: 3:1 against what is around them.
    page.goto("/c/uno/games/new/")
    page.locator("form.start-game label.chip").first.wait_for()
    for selector in (
        "form.start-game label.chip:not(:has(input:checked)) span",
        "form.start-game select",
    ):
        element = page.locator(selector).first
        border = element.evaluate("el => getComputedStyle(el).borderTopColor")
        around = element.evaluate(BACKGROUND)
        inside = element.evaluate("el => getComputedStyle(el).backgroundColor")
        assert contrast(page, border, around) >= 3, (selector, border, around)
        assert contrast(page, border, inside) >= 3, (selector, border, inside)
    page.goto(f"/g/{four.pk}/")
    field = page.locator("#id_points_0")
    border = field.evaluate("el => getComputedStyle(el).borderTopColor")
    assert contrast(page, border, field.evaluate(BACKGROUND)) >= 3
    assert contrast(page, border, "rgb(255, 255, 255)") >= 3
    shot(page, "tap-targets-390")
