"""The other side to the end (issue 37, point 2): two phones at 390×844, each its own browser,
through a whole game whose hands must be accepted. The first phone enters every hand; the
second, through the table link and PIN, accepts (or rejects) each, the one that decides the
game included, after the game is over. Until that hand is accepted the result reads as
provisional ("… win once hand 3 is accepted", with the totals the hands make), never as
accepted totals of 0 with "+2 pending". Briscola in pairs (Anna + Carla against Bruno +
Dario) and Terziglio (three players), served under ASGI so that each phone hears the other's
answers from the game's stream."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Acceptance, AuditAction, AuditEvent, GameStatus, Hand
from scoring.services import Actor
from tests.browser.conftest import log_in
from tests.browser.test_live import by_table_link, expect_streaming
from tests.browser.test_table import chip, expect_totals, save_hand, soloist_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-other-side"))


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def entering(page: Page, name: str) -> None:
    page.locator("#hand-form fieldset.entering-seat label.chip").filter(has_text=name).tap()


def accept_on(page: Page, number: int, checker: str) -> None:
    card = page.locator(f"#check-{number}")
    expect(card).to_be_visible()
    card.locator("fieldset.checker label.chip").filter(has_text=checker).tap()
    card.get_by_role("button", name="Accept").tap()
    expect(page.locator(".flash")).to_contain_text(f"Hand {number} accepted")
    expect(page.locator(f"#check-{number}")).to_have_count(0)


def briscola_hand(page: Page, first_side: int) -> None:
    page.get_by_label("Anna + Carla").fill(str(first_side))
    expect(page.get_by_label("Bruno + Dario")).to_have_value(str(120 - first_side))


def test_briscola_pairs_to_the_end_with_every_hand_accepted_on_the_other_sides_phone(
    asgi_phones, club, players, olga
):
    game = services.start_game(
        club=club,
        ruleset="briscola",
        players=players,
        by=Actor.for_user(olga),
        hands_need_acceptance=True,
    )
    anna, bruno = (context.new_page() for context in asgi_phones)
    by_table_link(anna, game)
    by_table_link(bruno, game)
    expect_streaming(anna)

    # G2 of docs/rules/briscola.md: [70, 50], [40, 80], [90, 30].
    chip(anna, "dealer", "Anna").tap()
    entering(anna, "Anna")
    briscola_hand(anna, 70)
    save_hand(anna)
    accept_on(bruno, 1, "Bruno")
    expect_totals(bruno, [1, 0])  # one card per pair
    expect_totals(anna, [1, 0])  # one card per pair

    briscola_hand(anna, 40)
    save_hand(anna)
    accept_on(bruno, 2, "Dario")
    expect_totals(anna, [1, 1])  # one card per pair

    # Hand 3 wins the match for Anna and Carla: the game is over, and its last hand waits.
    briscola_hand(anna, 90)
    save_hand(anna)
    for phone in (anna, bruno):
        over = phone.locator("#game-over")
        expect(over.locator(".winner-name")).to_have_text(
            "Anna and Carla win once hand 3 is accepted."
        )
        expect(over.get_by_role("heading", name="Provisional ranking")).to_be_visible()
        expect_totals(phone, [2, 1])  # one card per pair
        expect(phone.locator("#live .total .pending-points")).to_have_text(
            ["provisional"] * 2
        )  # one per pair
    expect(anna.locator("#hand-form")).to_have_count(0)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    shot(bruno, "briscola-provisional-390x844.png")

    # Bruno's own phone still answers (who entered it is not offered), after a reload too.
    checkers = bruno.locator("#check-3 fieldset.checker label.chip")
    expect(checkers.filter(has_text="Anna")).to_have_count(0)
    expect(bruno.locator("#check-3").get_by_role("button", name="Accept")).to_be_visible()
    bruno.reload()
    accept_on(bruno, 3, "Bruno")
    for phone in (bruno, anna):
        over = phone.locator("#game-over")
        expect(over.locator(".winner-name")).to_have_text("Anna and Carla win!")
        expect(over.get_by_role("heading", name="Final ranking")).to_be_visible()
        expect(phone.locator("#live .total.winner")).to_have_count(1)  # the winning pair's one card
        expect(phone.locator("#live .total .pending-points")).to_have_count(0)
        expect(phone.locator("#live [data-check]")).to_have_count(0)
    shot(bruno, "briscola-final-390x844.png")
    assert (
        list(Hand.objects.filter(game=game).values_list("acceptance", flat=True))
        == [Acceptance.ACCEPTED] * 3
    )
    last = AuditEvent.objects.get(action=AuditAction.ACCEPT_HAND, hand_number=3)
    assert (last.via, last.after["player"]) == ("table", "Bruno")


def test_terziglio_the_deciding_hand_rejected_after_the_end_then_corrected_and_accepted(
    asgi_phones, club, players, olga
):
    game = services.start_game(
        club=club,
        ruleset="terziglio",
        players=players[:3],
        by=Actor.for_user(olga),
        options={"target_score": 4},
        hands_need_acceptance=True,
    )
    scorer, carla = (context.new_page() for context in asgi_phones)
    log_in(scorer, "olga", "pw-olga")  # the club's scorer enters, on the phone she hands round
    scorer.goto(f"/g/{game.pk}/")
    by_table_link(carla, game)
    expect_streaming(carla)

    entering(scorer, "Anna")
    soloist_hand(scorer, dealer="Anna", soloist="Anna", contract="Chiamo", points=7)
    save_hand(scorer)
    accept_on(carla, 1, "Carla")
    expect_totals(scorer, [2, -1, -1])

    # Hand 2: Anna makes chiamo again and reaches 4: the game is over.
    expect(scorer.locator(".entry-card > h2")).to_have_text("Hand 2")
    soloist_hand(scorer, soloist="Anna", contract="Chiamo", points=7)
    save_hand(scorer)
    over = carla.locator("#game-over")
    expect(over.locator(".winner-name")).to_have_text("Anna wins once hand 2 is accepted.")
    expect_totals(carla, [4, -2, -2])

    # Carla rejects it with a reason, on her own phone, after the end.
    card = carla.locator("#check-2")
    card.locator("fieldset.checker label.chip").filter(has_text="Bruno").tap()
    card.get_by_role("button", name="Reject").tap()
    expect(carla.locator("#id_check2_reason_error")).to_be_visible()  # a reason is needed
    assert Hand.objects.get(game=game, number=2).acceptance == Acceptance.PENDING
    carla.locator("#id_check2_reason").fill("Anna had 6")
    carla.locator("#check-2").get_by_role("button", name="Reject").tap()
    expect(carla.locator("#check-2")).to_contain_text("Bruno rejected it: “Anna had 6”.")
    expect(carla.locator("#game-over .winner-name")).to_have_text(
        "Anna wins once hand 2 is accepted."
    )
    shot(carla, "terziglio-rejected-390x844.png")

    # The scorer corrects it (6 is still made); it waits again, and Carla accepts it.
    scorer_card = scorer.locator("#check-2")
    expect(scorer_card).to_contain_text("Bruno rejected it")
    scorer_card.get_by_role("link", name="Correct hand 2").tap()
    scorer.locator("#id_soloist_points").fill("6")
    scorer.locator("#id_reason_fix").fill("Anna had 6")
    scorer.get_by_role("button", name="Save the correction").tap()
    expect(scorer).to_have_url(re.compile(rf"/g/{game.pk}/$"))
    accept_on(carla, 2, "Carla")
    for phone in (carla, scorer):
        expect(phone.locator("#game-over .winner-name")).to_have_text("Anna wins!")
        expect(phone.locator("#game-over h3")).to_have_text("Final ranking")
        expect_totals(phone, [4, -2, -2])
    shot(carla, "terziglio-final-390x844.png")
    assert Hand.objects.get(game=game, number=2).acceptance == Acceptance.ACCEPTED
