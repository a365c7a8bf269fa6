"""Refusals read as whole sentences on a phone, in the player's language: the field named in
words, the value typed (not a player's name standing in for a number), no machine key."""

import re

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.services import Actor

from .conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def chip(page: Page, fieldset: str, text: str):
    return page.locator(f"#hand-form fieldset.{fieldset} label.chip").filter(
        has_text=re.compile(rf"^\s*{re.escape(text)}\s*$")
    )


@pytest.fixture
def turkish(club, players, olga):
    return services.start_game(
        club=club, ruleset="turkish", players=players, by=Actor.for_user(olga)
    )


def quick_hand_with_a_penalty_of_3(page: Page, save: str, quick: str) -> None:
    """Anna deals and goes out; Bruno 10, Carla 3 (too little: a card costs at least 5),
    Dario 20, as quick totals."""
    chip(page, "dealer", "Anna").tap()
    chip(page, "went-out", "Anna").tap()
    chip(page, "entry", quick).tap()
    for seat, points in ((1, "10"), (2, "3"), (3, "20")):
        page.locator(f"#id_points_{seat}").fill(points)
    page.locator("#hand-form").get_by_role("button", name=save).tap()


def test_a_refused_penalty_says_the_number_typed_not_a_players_name(olga_page, turkish):
    page = olga_page
    page.goto(f"/g/{turkish.pk}/")
    quick_hand_with_a_penalty_of_3(page, "Save hand", "Quick total")
    error = page.locator('#hand-form [data-field="points_2"] .error')
    expect(error).to_have_text("Penalty: enter a number from 5 to 420, not 3.")
    assert "Dario" not in error.inner_text()


def test_in_italian_the_refusal_is_italian_and_the_history_says_the_cards_in_words(
    browser, live_server, turkish, club, players, olga
):
    context = browser.new_context(base_url=live_server.url, **{**PHONE, "locale": "it-IT"})
    page = context.new_page()
    page.goto("/login/")
    page.locator('input[name="username"]').fill("olga")
    page.locator('input[name="password"]').fill("pw-olga")
    page.get_by_role("button", name="Accedi").tap()
    expect(page.get_by_role("button", name="Esci")).to_be_visible()
    page.goto(f"/g/{turkish.pk}/")
    expect(page.locator("h1")).to_contain_text("Turco")
    quick_hand_with_a_penalty_of_3(page, "Salva la mano", "Totale rapido")
    error = page.locator('#hand-form [data-field="points_2"] .error')
    expect(error).to_have_text("Penalità: indica un numero da 5 a 420, non 3.")
    # A Calabrasella hand counted card by card reads in words in the history.
    by = Actor.for_user(olga)
    game = services.start_game(club=club, ruleset="calabrasella", players=players[:3], by=by)
    services.record_hand(
        game=game,
        document={
            "dealer": 0,
            "outcome": "played",
            "soloist": 1,
            "soloist_cards": {"aces": 3, "counters": 12, "last_trick": True},
        },
        by=by,
    )
    page.goto(f"/g/{game.pk}/")
    summary = page.locator("#live .history td.summary").first
    expect(summary).to_contain_text("carte contate: 3 assi, 12 carte che contano, l’ultima presa")
    context.close()
