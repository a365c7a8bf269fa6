"""The table's clock and call, and the organizer's panel of calls, in French and Italian (issue 37
points 4 and 6): phones at 390×844 and the round page and desk at 1280×800, screenshots kept in
/tmp for a person to look at; no English left on what the calls and the clock add."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.services import Actor
from tests.browser.conftest import PHONE
from tests.tournaments.helpers import published_night
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-calls"))
WORDS = {
    "en": (
        "Call the director",
        "The director has been called.",
        "Calls from the tables",
        "I’m coming",
    ),
    "fr": ("Appeler l’arbitre", "L’arbitre a été appelé.", "Appels des tables", "J’arrive"),
    "it": ("Chiama l’arbitro", "L’arbitro è stato chiamato.", "Chiamate dai tavoli", "Arrivo"),
}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_the_call_and_the_clock_speak_the_readers_language(
    browser, live_server, club, olga, language
):
    round_ = published_night(club, olga, 6, slug="notte")
    game = round_.tables.get(number=1).game
    by = Actor.for_user(olga)
    services.set_round_timer(round_=round_, by=by, action="start")
    services.set_last_hand(round_=round_, by=by, minutes=120)
    services.give_extra_time(table=round_.tables.get(number=1), by=by, minutes=5)
    call, called, panel_title, coming = WORDS[language]
    locale = LOCALES[language]
    phone = browser.new_context(base_url=live_server.url, **(PHONE | {"locale": locale}))
    laptop = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 1280, "height": 800},
        locale=locale,
        has_touch=True,
    )
    try:
        table = phone.new_page()
        link = game.table_link
        table.goto(f"/t/{link.token}/")
        table.locator('input[name="pin"]').fill(link.pin)
        table.locator('input[name="pin"]').press("Enter")
        table.wait_for_url(f"**/g/{game.pk}/")
        table.get_by_text(call, exact=True).first.tap()
        table.locator('#director-call label.chip:has(input[value="leaving"])').tap()
        SHOTS.mkdir(parents=True, exist_ok=True)
        table.screenshot(path=str(SHOTS / f"table-form-{language}-390.png"))
        table.locator("[data-call-send]").tap()
        expect(table.locator("#director-call")).to_contain_text(called)
        table.screenshot(path=str(SHOTS / f"table-called-{language}-390.png"))
        if language != "en":
            shown = table.locator(".table-section").inner_text()
            for english in ("waiting", "min for this table", "Last hand", "director"):
                assert english not in shown, (english, shown)
        director = laptop.new_page()
        director.goto("/login/")
        director.locator('input[name="username"]').fill("olga")
        director.locator('input[name="password"]').fill("pw-olga")
        director.locator('input[name="password"]').press("Enter")
        director.wait_for_url("**/")
        director.goto("/c/uno/k/notte/rounds/1/")
        panel = director.locator("#director-calls")
        expect(panel).to_contain_text(panel_title)
        expect(panel.get_by_role("button", name=coming)).to_be_visible()
        director.screenshot(path=str(SHOTS / f"round-{language}-1280.png"), full_page=True)
        director.goto("/c/uno/k/notte/desk/")
        expect(director.locator("#director-calls")).to_contain_text(panel_title)
        director.screenshot(path=str(SHOTS / f"desk-{language}-1280.png"))
    finally:
        phone.close()
        laptop.close()
