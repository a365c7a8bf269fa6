"""A phone at the table: start a game, enter hands by taps, correct one, lose the network, and
join a game through its table link. Hands come from the worked examples of the rules
(``docs/rules/terziglio.md`` and ``briscola.md``, section 8)."""

import re

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Game, GameStatus, Hand, Via
from scoring.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# -- helpers ------------------------------------------------------------------------------------


def chip(page: Page, fieldset: str, text: str):
    """The tap target (``label.chip``) of choice ``text`` in the chips of ``fieldset``."""
    return page.locator(f"#hand-form fieldset.{fieldset} label.chip").filter(
        has_text=re.compile(rf"^\s*{re.escape(text)}\s*$")
    )


def totals(page: Page):
    return page.locator("#live .totals .score")


def expect_totals(page: Page, values: list[int]) -> None:
    """Wait until the totals boxes show ``values`` (the live region is refreshed after a send)."""
    expect(totals(page)).to_have_text([str(v) for v in values])


def expect_hand_count(page: Page, count: int) -> None:
    expect(page.locator("#live .history h2")).to_contain_text(f"({count})")


def save_hand(page: Page) -> None:
    page.locator("#hand-form").get_by_role("button", name="Save hand").tap()


def soloist_hand(page: Page, *, soloist: str, contract: str, points: int, dealer=None) -> None:
    """Fill a played Terziglio hand by taps (and the points by typing), without saving it."""
    if dealer is not None:
        chip(page, "dealer", dealer).tap()
    chip(page, "outcome", "Played").tap()
    chip(page, "soloist", soloist).tap()
    chip(page, "contract", contract).tap()
    page.locator("#id_soloist_points").fill(str(points))


def hand_row(page: Page, number: int):
    """The history row of hand ``number``."""
    link = page.locator("a", has_text=re.compile(rf"^{number}$"))
    return page.locator("#live .history tbody tr").filter(has=link)


# -- 1. Terziglio: start, three hands by taps, a correction --------------------------------------


def test_terziglio_started_from_the_club_page_three_hands_then_a_correction(olga_page, players):
    page = olga_page
    page.goto("/c/uno/")
    page.get_by_role("link", name="New game").tap()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.locator("form.start-game label.chip", has_text=re.compile(r"^\s*Terziglio\s*$")).tap()
    expect(page.locator('input[name="ruleset"][value="terziglio"]')).to_be_checked()
    for seat, name in enumerate(["Anna", "Bruno", "Carla"]):
        page.locator(f"#id_seat_{seat}").select_option(label=name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page).to_have_url(re.compile(r"/g/\d+/$"))
    game = Game.objects.get()
    assert game.ruleset == "terziglio"
    assert [s.player.display_name for s in game.seats.order_by("index")] == [
        "Anna",
        "Bruno",
        "Carla",
    ]
    expect_totals(page, [0, 0, 0])
    expect(page.locator("#live .next")).to_contain_text("First hand: choose who deals.")

    # Hand 1 (G1, hand 1): Anna deals and calls Chiamo, 7 points: made, stake 1.
    chip(page, "dealer", "Anna").tap()
    chip(page, "outcome", "Played").tap()
    chip(page, "soloist", "Anna").tap()
    chip(page, "contract", "Chiamo").tap()
    points = page.locator("#id_soloist_points")
    opponents = page.locator('#hand-form output[data-complement="soloist_points"]')
    expect(opponents).to_have_text("–")
    points.press_sequentially("1")
    expect(opponents).to_have_text("10")  # 11 − 1, live while typing
    points.press_sequentially("0")
    expect(opponents).to_have_text("1")  # 11 − 10
    points.press("Backspace")
    points.press("Backspace")
    expect(opponents).to_have_text("–")
    points.press_sequentially("7")
    expect(opponents).to_have_text("4")
    save_hand(page)
    expect_totals(page, [2, -1, -1])
    expect(page.locator("#live .next")).to_contain_text("Next dealer: Bruno")

    # Hand 2: the dealer moved on to Bruno by itself; Bruno plays Solo and takes 4: failed.
    expect(page.locator(".entry-card > h2")).to_have_text("Hand 2")
    expect(page.locator('#hand-form input[name="dealer"][value="1"]')).to_be_checked()
    expect(points).to_have_value("")
    expect(opponents).to_have_text("–")
    soloist_hand(page, soloist="Bruno", contract="Solo", points=4)
    expect(opponents).to_have_text("7")
    save_hand(page)
    expect_totals(page, [4, -5, 1])

    # Hand 3: Carla deals; Carla plays Solissimo and takes 9: made, stake 4.
    expect(page.locator('#hand-form input[name="dealer"][value="2"]')).to_be_checked()
    soloist_hand(page, soloist="Carla", contract="Solissimo", points=9)
    save_hand(page)
    expect_totals(page, [0, -9, 9])
    expect_hand_count(page, 3)
    assert list(
        Hand.objects.filter(game=game).order_by("number").values_list("deltas", flat=True)
    ) == [
        [2, -1, -1],
        [2, -4, 2],
        [-4, -4, 8],
    ]

    # Correct hand 2 from its page: Bruno had 8 points, not 4 (made: [-2, 4, -2]).
    hand_row(page, 2).get_by_role("link", name="2", exact=True).tap()
    expect(page).to_have_url(re.compile(rf"/g/{game.pk}/hands/2/$"))
    expect(page.get_by_role("heading", name="Correct this hand")).to_be_visible()
    fix = page.locator("#id_soloist_points")
    expect(fix).to_have_value("4")
    fix.fill("8")
    expect(page.locator('output[data-complement="soloist_points"]')).to_have_text("3")
    page.locator("#id_reason_fix").fill("Bruno counted his cards again")
    page.get_by_role("button", name="Save the correction").tap()
    expect(page).to_have_url(re.compile(rf"/g/{game.pk}/$"))
    expect(page.locator(".flash")).to_contain_text("Hand 2 corrected.")
    expect_totals(page, [-4, -1, 5])
    expect(hand_row(page, 2)).to_have_class(re.compile(r"\bcorrected\b"))
    expect(hand_row(page, 2).locator(".badge")).to_have_text("✎")
    expect(hand_row(page, 1).locator(".badge")).to_have_count(0)
    expect(hand_row(page, 3).locator(".badge")).to_have_count(0)
    hands = Hand.objects.filter(game=game).order_by("number")
    assert [h.document["dealer"] for h in hands] == [0, 1, 2]
    game.refresh_from_db()
    assert game.totals == [-4, -1, 5]
    assert Hand.objects.get(game=game, number=2).corrected


# -- 2. Briscola in pairs: to the end of the match ----------------------------------------------


def test_briscola_pairs_played_to_the_end_shows_the_ranking_and_no_form(
    olga_page, club, players, olga
):
    game = services.start_game(
        club=club, ruleset="briscola", players=players, by=Actor.for_user(olga)
    )
    page = olga_page
    page.goto(f"/g/{game.pk}/")
    side_0 = page.get_by_label("Anna + Carla")
    side_1 = page.get_by_label("Bruno + Dario")
    remaining = page.locator("#hand-form output[data-remaining]")

    # G2, hand 1: [70, 50], typed on the first side; the other side is worked out.
    chip(page, "dealer", "Anna").tap()
    side_0.press_sequentially("70")
    expect(side_1).to_have_value("50")
    expect(remaining).to_have_text("0")
    save_hand(page)
    expect_totals(page, [1, 0])  # one card per pair

    # Hand 2: [40, 80], typed on the second side this time.
    expect(side_0).to_have_value("")
    expect(side_1).to_have_value("")
    side_1.press_sequentially("80")
    expect(side_0).to_have_value("40")
    save_hand(page)
    expect_totals(page, [1, 1])  # one card per pair

    # Hand 3: [90, 30]: Anna and Carla win their second hand and the match.
    side_0.fill("90")
    expect(side_1).to_have_value("30")
    save_hand(page)
    expect_totals(page, [2, 1])  # one card per pair
    ranking = page.locator("#live .result")
    expect(ranking.get_by_role("heading", name="Final ranking")).to_be_visible()
    expect(ranking.locator("ol.ranking li")).to_have_text(
        [
            re.compile(r"1°\s+Anna\s+\(2\)"),
            re.compile(r"1°\s+Carla\s+\(2\)"),
            re.compile(r"2°\s+Bruno\s+\(1\)"),
            re.compile(r"2°\s+Dario\s+\(1\)"),
        ]
    )
    expect(page.locator("#live .card-points")).to_contain_text(
        "Anna + Carla 200 · Bruno + Dario 160"
    )
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    # Once the last hand is in, the entry form goes away without a reload.
    expect(page.locator("#hand-form")).to_have_count(0, timeout=2_000)


def test_briscola_a_finished_game_reloaded_shows_the_ranking_and_no_form(
    olga_page, club, players, olga
):
    """The same end of match seen by a phone that (re)opens the page after the last hand."""
    by = Actor.for_user(olga)
    game = services.start_game(club=club, ruleset="briscola", players=players, by=by)
    for dealer, points in enumerate([[70, 50], [40, 80], [90, 30]]):
        services.record_hand(game=game, document={"dealer": dealer, "points": points}, by=by)
    page = olga_page
    page.goto(f"/g/{game.pk}/")
    expect_totals(page, [2, 1])  # one card per pair
    expect(
        page.locator("#live .result").get_by_role("heading", name="Final ranking")
    ).to_be_visible()
    expect(page.locator("#hand-form")).to_have_count(0)


# -- 3. The offline outbox ------------------------------------------------------------------------


def test_offline_hands_wait_in_the_outbox_and_a_refused_one_comes_back_with_its_error(
    olga_page, phone, terziglio
):
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/")
    status = page.locator("#outbox-status")
    expect(status).to_be_hidden()

    phone.set_offline(True)
    expect(status).to_contain_text("Offline")
    soloist_hand(page, dealer="Anna", soloist="Anna", contract="Chiamo", points=7)
    save_hand(page)
    expect(status).to_contain_text("1 hand waiting to be sent")
    assert page.evaluate("window.segnapuntiOutbox.load().length") == 1
    assert Hand.objects.filter(game=terziglio).count() == 0
    expect_totals(page, [0, 0, 0])

    phone.set_offline(False)  # the page flushes on the "online" event
    expect_totals(page, [2, -1, -1])
    expect(status).to_be_hidden()
    assert page.evaluate("window.segnapuntiOutbox.load().length") == 0
    assert list(Hand.objects.filter(game=terziglio).values_list("number", "deltas")) == [
        (1, [2, -1, -1])
    ]

    # Hand 2, offline again, with 12 points (there are only 11): the server refuses it.
    phone.set_offline(True)
    expect(page.locator('#hand-form input[name="dealer"][value="1"]')).to_be_checked()
    soloist_hand(page, soloist="Bruno", contract="Solo", points=12)
    save_hand(page)
    expect(status).to_contain_text("1 hand waiting to be sent")
    phone.set_offline(False)
    page.evaluate("window.segnapuntiOutbox.flush()")  # harmless if "online" already flushed
    expect(status).to_contain_text("A waiting hand was refused: fix it below.")
    field = page.locator('#hand-form [data-field="soloist_points"]')
    expect(field).to_have_class(re.compile(r"\bhas-error\b"))
    expect(field.locator(".error")).to_be_visible()
    expect(field.locator(".error")).to_contain_text("from 0 to 11, not 12")
    expect(page.locator("#id_soloist_points")).to_have_value("12")
    expect(page.locator('#hand-form input[name="soloist"][value="1"]')).to_be_checked()
    expect(page.locator('#hand-form input[name="contract"][value="solo"]')).to_be_checked()
    assert Hand.objects.filter(game=terziglio).count() == 1

    # Fixed and sent again: it replaces the refused one in the outbox.
    page.locator("#id_soloist_points").fill("8")
    save_hand(page)
    expect_totals(page, [0, 3, -3])
    expect(status).to_be_hidden()
    assert page.evaluate("window.segnapuntiOutbox.load().length") == 0
    assert list(
        Hand.objects.filter(game=terziglio).order_by("number").values_list("number", "deltas")
    ) == [(1, [2, -1, -1]), (2, [-2, 4, -2])]


# -- 4. The table link ----------------------------------------------------------------------------


def test_a_table_link_with_its_pin_opens_one_game_only(page, phone, club, players, olga, terziglio):
    other = services.start_game(
        club=club, ruleset="terziglio", players=players[1:], by=Actor.for_user(olga)
    )
    link = terziglio.table_link
    # Without the PIN the game is not readable (the club's results are not public).
    assert page.goto(f"/g/{terziglio.pk}/").status == 404

    page.goto(f"/t/{link.token}/")
    pin = page.get_by_label("PIN")
    pin.tap()
    pin.fill(f"{(int(link.pin) + 1) % 10_000:04d}")
    page.get_by_role("button", name="Open the score sheet").tap()
    expect(page.locator('[data-field="pin"] .error')).to_contain_text("Wrong PIN")
    pin.fill(link.pin)
    page.get_by_role("button", name="Open the score sheet").tap()
    expect(page).to_have_url(re.compile(rf"/g/{terziglio.pk}/$"))

    soloist_hand(page, dealer="Anna", soloist="Anna", contract="Chiamo", points=7)
    save_hand(page)
    expect_totals(page, [2, -1, -1])
    hand = Hand.objects.get(game=terziglio)
    assert (hand.number, hand.entered_by, hand.entered_via) == (1, None, Via.TABLE)

    assert page.goto(f"/g/{other.pk}/").status == 404
    assert page.goto(f"/g/{other.pk}/live/").status == 404
    csrf = next(c["value"] for c in phone.cookies() if c["name"] == "csrftoken")
    sent = phone.request.post(
        f"/g/{other.pk}/hands/",
        form={"dealer": "0", "outcome": "passed_out"},
        headers={"X-CSRFToken": csrf, "X-Outbox": "1", "Referer": page.url},
    )
    assert sent.status == 404
    assert Hand.objects.filter(game=other).count() == 0


# -- The outbox when the server refuses a queued hand ----------------------------------------------


def test_a_refused_hand_comes_back_under_its_own_number(olga_page, terziglio):
    """The outbox moves the heading to the next hand when a hand is queued, and back to the
    refused hand's number when the server refuses it and the form shows it again."""
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/")
    heading = page.locator(".entry-card > h2")
    expect(heading).to_have_text("Hand 1")
    soloist_hand(page, dealer="Anna", soloist="Anna", contract="Chiamo", points=12)
    save_hand(page)
    expect(page.locator("#outbox-status")).to_contain_text("A waiting hand was refused")
    expect(page.locator("#id_soloist_points")).to_have_value("12")
    assert Hand.objects.filter(game=terziglio).count() == 0
    expect(heading).to_have_text("Hand 1", timeout=2_000)


def test_a_hand_refused_because_the_game_ended_does_not_block_the_next_game(
    olga_page, phone, club, players, olga, terziglio
):
    """A refused hand holds back only the later hands of its own game; when its game is over, the
    status offers to open or discard it, and other games' hands are sent meanwhile."""
    by = Actor.for_user(olga)
    briscola = services.start_game(club=club, ruleset="briscola", players=players, by=by)
    for dealer, points in enumerate([[70, 50], [40, 80]]):
        services.record_hand(game=briscola, document={"dealer": dealer, "points": points}, by=by)
    page = olga_page
    page.goto(f"/g/{briscola.pk}/")
    phone.set_offline(True)
    expect(page.locator('#hand-form input[name="dealer"]')).to_have_value("2")  # Carla deals
    page.get_by_label("Anna + Carla").fill("70")
    save_hand(page)
    expect(page.locator("#outbox-status")).to_contain_text("1 hand waiting to be sent")
    # Meanwhile another phone at the table enters hand 3, which ends the match.
    services.record_hand(game=briscola, document={"dealer": 2, "points": [90, 30]}, by=by)
    phone.set_offline(False)
    expect(page.locator("#outbox-status")).to_contain_text("A waiting hand was refused")
    expect(page.locator("#hand-form .error.box")).to_contain_text("The game is finished")

    # The players move on to a Terziglio game on the same phone.
    page.goto(f"/g/{terziglio.pk}/")
    soloist_hand(page, dealer="Anna", soloist="Anna", contract="Chiamo", points=7)
    save_hand(page)
    # Never sent: the refused Briscola hand at the head of the outbox blocks the queue.
    expect(totals(page)).to_have_text(["2", "-1", "-1"], timeout=5_000)
