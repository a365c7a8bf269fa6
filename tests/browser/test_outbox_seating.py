"""A hand typed offline before an organizer seated someone else at the table (issue 33 point 2),
in English, French and Italian: the real server refuses it (409 ``seating_changed``), the
outbox keeps it and shows the server's sentence naming who replaced whom, and nothing is
stored. On the game's page served after that (who sits now in plain sight), "Send again"
asks first whether the hand is for the players seated now; confirmed, it is stored once."""

import re

import pytest
from playwright.sync_api import expect

from scoring import services as scoring
from scoring.models import Hand, TableLink
from scoring.services import Actor
from tests.browser.conftest import PHONE, TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALES = {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}
#: (the server's sentence, why, how on a page served since, Send again, yes)
WORDS = {
    "en": (
        "The players changed after this hand was typed: Dario replaced Carla at this table.",
        "The players at this table changed: the hand would be credited to whoever sits there now.",
        "Check the hand against the players seated now: tap “Send again” to enter it for them,"
        " or discard it.",
        "Send again",
        "Yes, send it",
    ),
    "fr": (
        "Les joueurs ont changé après la saisie de cette donne : Dario a remplacé Carla à cette"
        " table.",
        "Les joueurs de cette table ont changé : la donne serait attribuée à ceux qui y sont"
        " assis maintenant.",
        "Vérifiez la donne avec les joueurs assis maintenant : touchez « Renvoyer » pour"
        " l'enregistrer pour eux, ou jetez-la.",
        "Renvoyer",
        "Oui, l'envoyer",
    ),
    "it": (
        "I giocatori sono cambiati dopo l'inserimento di questa mano: Dario ha sostituito Carla a"
        " questo tavolo.",
        "I giocatori di questo tavolo sono cambiati: la mano verrebbe attribuita a chi vi siede"
        " adesso.",
        "Controlla la mano con i giocatori seduti adesso: tocca «Invia di nuovo» per registrarla"
        " per loro, o scartala.",
        "Invia di nuovo",
        "Sì, inviala",
    ),
}


def choose(page, name: str, value: str) -> None:
    """Tap the chip of ``name`` whose input has ``value`` (chips' words are translated)."""
    page.locator(f'#hand-form label.chip:has(input[name="{name}"][value="{value}"])').tap()


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_a_hand_typed_before_a_replacement_is_kept_with_who_replaced_whom_and_sent_on_confirmation(
    browser, live_server, terziglio, players, olga, language
):
    server, why, how, resend, yes = WORDS[language]
    context = browser.new_context(
        base_url=live_server.url,
        service_workers="block",  # page.route-free, but the worker could still serve stale pages
        **(PHONE | {"locale": LOCALES[language]}),
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    link = TableLink.objects.get(game=terziglio)
    page.goto(f"/t/{link.token}/")
    page.locator('input[name="pin"]').fill(link.pin)
    page.locator('input[name="pin"]').press("Enter")
    expect(page).to_have_url(re.compile(rf"/g/{terziglio.pk}/$"))
    page.wait_for_function("() => window.segnapuntiOutbox !== undefined")
    assert page.locator('#hand-form input[name="seating"]').input_value() == "1"

    # Offline, Bruno's chiamo of 7 points is typed for Anna, Bruno and Carla...
    context.set_offline(True)
    choose(page, "dealer", "0")
    choose(page, "outcome", "played")
    choose(page, "soloist", "1")
    choose(page, "contract", "chiamo")
    page.locator("#id_soloist_points").fill("7")
    page.locator("#hand-form button[type=submit]").tap()
    expect(page.locator("#outbox-status")).to_be_visible()
    # ... while the organizer seats Dario where Carla sat.
    scoring.reseat_game(
        game=terziglio,
        players=[players[0], players[1], players[3]],
        by=Actor.for_user(olga),
        reason="Carla left",
    )
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")

    kept = page.locator("#outbox-status .refused")
    expect(kept.locator(".server")).to_have_text(server)
    expect(kept.locator(".why")).to_have_text(why)
    assert Hand.objects.count() == 0
    (entry,) = page.evaluate("window.segnapuntiOutbox.load()")
    assert (entry["refused"]["status"], entry["refused"]["code"]) == (409, "seating_changed")

    # The live region sees other players and loads the page again by itself (within its 3 s
    # poll); then the game's page is loaded once more, surely after the refusal.
    expect(page.locator("#live .total .name")).to_have_text(["Anna", "Bruno", "Dario"])
    page.reload()
    page.wait_for_function("() => window.segnapuntiOutbox !== undefined")
    expect(page.locator("#live .total .name")).to_have_text(["Anna", "Bruno", "Dario"])
    kept = page.locator("#outbox-status .refused")
    expect(kept.locator(".server")).to_have_text(server)
    expect(kept).to_contain_text(how)
    assert page.locator('#hand-form input[name="seating"]').input_value() == "2"
    kept.get_by_role("button", name=resend).tap()
    assert Hand.objects.count() == 0  # not before the player says so
    kept.get_by_role("button", name=yes).tap()
    expect(page.locator("#outbox-status")).to_be_hidden()
    assert page.evaluate("window.segnapuntiOutbox.load()") == []
    (hand,) = Hand.objects.filter(game=terziglio)
    assert hand.document["soloist"] == 1 and hand.deltas == [-1, 2, -1]
    context.close()
