"""At the table, the smaller ones of issue 37 (point 7): the "Hand N saved · Undo" toast never
covers the next hand's Save button (a fast tap would undo the hand just saved), wherever the
button is on a 390×844 screen; and Turkish keeps its way of entry ("Quick total") from one hand
to the next."""

import re

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Hand
from scoring.services import Actor
from tests.browser.test_table import chip, expect_hand_count, save_hand, soloist_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def boxes_meet(one: dict, two: dict) -> bool:
    return not (
        one["x"] + one["width"] <= two["x"]
        or two["x"] + two["width"] <= one["x"]
        or one["y"] + one["height"] <= two["y"]
        or two["y"] + two["height"] <= one["y"]
    )


def save_button(page: Page):
    return page.locator("#hand-form").get_by_role("button", name="Save hand")


def expect_toast_clear(page: Page) -> None:
    toast = page.locator("#undo-toast")
    expect(toast).to_be_visible()
    expect(toast.get_by_role("button", name=re.compile(r"^Undo"))).to_be_visible()
    toast_box, save_box = toast.bounding_box(), save_button(page).bounding_box()
    assert not boxes_meet(toast_box, save_box), (toast_box, save_box)


def test_the_undo_toast_never_covers_the_next_save_button(olga_page, terziglio):
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/")
    for number, (soloist, dealer) in enumerate([("Anna", "Anna"), ("Bruno", None)], start=1):
        soloist_hand(page, soloist=soloist, contract="Chiamo", points=7, dealer=dealer)
        # The button at the very bottom of the screen, where the toast appears by default.
        save_button(page).evaluate("b => b.scrollIntoView({block: 'end'})")
        save_hand(page)
        expect_hand_count(page, number)
        expect_toast_clear(page)
        # Scrolled while the toast shows, the button meets it nowhere either.
        for where in ("center", "end", "start"):
            save_button(page).evaluate(f"b => b.scrollIntoView({{block: '{where}'}})")
            page.wait_for_function(
                """() => {
                  const t = document.querySelector('#undo-toast').getBoundingClientRect();
                  const s = document.querySelector('#hand-form button[type=submit]')
                    .getBoundingClientRect();
                  return t.bottom <= s.top || s.bottom <= t.top;
                }"""
            )
            expect_toast_clear(page)
    # A tap on Save right after a save saves: it does not undo.
    soloist_hand(page, soloist="Carla", contract="Chiamo", points=7)
    save_button(page).evaluate("b => b.scrollIntoView({block: 'end'})")
    save_button(page).tap()
    expect_hand_count(page, 3)
    assert Hand.objects.filter(game=terziglio).count() == 3


@pytest.fixture
def turkish(club, players, olga):
    return services.start_game(
        club=club, ruleset="turkish", players=players, by=Actor.for_user(olga)
    )


def test_turkish_keeps_quick_total_after_every_hand(olga_page, turkish):
    page = olga_page
    page.goto(f"/g/{turkish.pk}/")
    quick = page.locator('#hand-form fieldset.entry input[value="quick"]')
    expect(quick).not_to_be_checked()  # a new game starts card by card
    chip(page, "dealer", "Anna").tap()
    chip(page, "entry", "Quick total").tap()
    names = ["Anna", "Bruno", "Carla", "Dario"]
    for number in range(1, 4):
        out = number - 1
        chip(page, "went-out", names[out]).tap()
        for seat in range(4):
            if seat != out:
                page.locator(f"#id_points_{seat}").fill(str(10 + 5 * seat))
        save_hand(page)
        expect_hand_count(page, number)
        expect(page.locator(".entry-card > h2")).to_have_text(f"Hand {number + 1}")
        # The next hand is typed as quick totals too: no tap to choose it again.
        expect(quick).to_be_checked()
        expect(page.locator("#id_points_1")).to_be_visible()
        expect(page.locator("#id_points_1")).to_have_value("")
    assert Hand.objects.filter(game=turkish).count() == 3
