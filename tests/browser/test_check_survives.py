"""A check that survives (issue 37, point 1): the verification card a checker is working on is
never replaced under them by the live update, streamed or polled. A chosen name and a typed
reason stay until they are sent, however many hands and answers arrive meanwhile; Accept then
acts (or says why not, next to the field). Two phones at 390×844 on a Terziglio game whose
hands must be accepted; Anna's hands come from the other phone (through the services, as its
POST would) while Carla checks on hers."""

import pytest
from playwright.sync_api import Page, expect

from scoring import services as scoring
from scoring.models import Acceptance, Hand
from scoring.services import Actor
from tests.browser.test_live import (
    by_table_link,
    chiamo,
    expect_count,
    expect_streaming,
    mark,
    still_here,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def checked(club, players, olga):
    game = scoring.start_game(
        club=club,
        ruleset="terziglio",
        players=players[:3],
        by=Actor.for_user(olga),
        hands_need_acceptance=True,
    )
    scoring.record_hand(game=game, document=chiamo(0, 0), by=Actor.for_user(olga), seat=0)
    return game


def another_hand(game, olga, dealer: int) -> None:
    """Anna enters one more hand from the other phone: every screen of the game hears of it."""
    scoring.record_hand(game=game, document=chiamo(0, dealer), by=Actor.for_user(olga), seat=0)


def choose(page: Page, number: int, name: str) -> None:
    page.locator(f"#check-{number} fieldset.checker label.chip").filter(has_text=name).tap()


def chosen(page: Page, number: int):
    return page.locator(f"#check-{number} fieldset.checker input[type=radio]:checked")


def test_a_chosen_name_and_a_typed_reason_outlive_ten_seconds_of_updates_then_accept_acts(
    asgi_phones, checked, olga
):
    carla = asgi_phones[0].new_page()
    by_table_link(carla, checked)
    expect_streaming(carla)
    mark(carla)
    choose(carla, 1, "Carla")
    reason = carla.locator("#id_check1_reason")
    reason.fill("Looks right to me")
    carla.locator("h1").tap()  # the focus leaves the card: the choice alone keeps it
    # Ten seconds of a busy table: two hands from the other phone, polls and events meanwhile.
    another_hand(checked, olga, 1)
    expect_count(carla, 2)
    expect(carla.locator("#check-2")).to_be_visible()
    carla.wait_for_timeout(5_000)
    another_hand(checked, olga, 2)
    expect_count(carla, 3)
    carla.wait_for_timeout(5_000)
    expect(chosen(carla, 1)).to_have_count(1)
    expect(chosen(carla, 1)).to_have_value("2")
    expect(reason).to_have_value("Looks right to me")
    assert still_here(carla), "Carla's page was reloaded"
    carla.locator("#check-1").get_by_role("button", name="Accept").tap()
    expect(carla.locator(".flash")).to_contain_text("Hand 1 accepted")
    assert Hand.objects.get(game=checked, number=1).acceptance == Acceptance.ACCEPTED


def test_a_rejection_with_its_reason_survives_the_updates_and_a_refusal(asgi_phones, checked, olga):
    carla = asgi_phones[0].new_page()
    by_table_link(carla, checked)
    expect_streaming(carla)
    choose(carla, 1, "Bruno")
    carla.locator("#check-1").get_by_role("button", name="Reject").tap()
    # No reason: said next to the field; nothing changes.
    error = carla.locator("#id_check1_reason_error")
    expect(error).to_be_visible()
    assert Hand.objects.get(game=checked, number=1).acceptance == Acceptance.PENDING
    mark(carla)
    # The refused card (its error, its chosen name) is in use: a hand arriving, and the polls
    # and events after it, leave it as it is.
    another_hand(checked, olga, 1)
    expect_count(carla, 2)
    carla.wait_for_timeout(10_000)
    expect(error).to_be_visible()
    expect(chosen(carla, 1)).to_have_value("1")
    carla.locator("#id_check1_reason").fill("Anna made 6")
    another_hand(checked, olga, 2)
    expect_count(carla, 3)
    carla.wait_for_timeout(4_000)
    expect(carla.locator("#id_check1_reason")).to_have_value("Anna made 6")
    assert still_here(carla)
    carla.locator("#check-1").get_by_role("button", name="Reject").tap()
    expect(carla.locator("#check-1")).to_contain_text("Bruno rejected it: “Anna made 6”.")
    hand = Hand.objects.get(game=checked, number=1)
    assert (hand.acceptance, hand.reject_reason) == (Acceptance.REJECTED, "Anna made 6")


def test_accept_with_no_name_chosen_says_why_and_sends_nothing(asgi_phones, checked):
    carla = asgi_phones[0].new_page()
    by_table_link(carla, checked)
    carla.locator("#check-1").get_by_role("button", name="Accept").tap()
    expect(carla.locator("#id_check1_seat_error")).to_be_visible()
    assert Hand.objects.get(game=checked, number=1).acceptance == Acceptance.PENDING
