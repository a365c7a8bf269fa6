"""The Players page's bulk add in a phone's browser (390×844, issue 24 point 6): a pasted list
with a bad line is refused next to the list naming the line, then added once corrected; a CSV
file is uploaded; a player's e-mail settings open from the list."""

import os

import pytest
from playwright.sync_api import expect

from scoring.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_an_organizer_adds_players_from_a_pasted_list_and_from_a_csv_file(olga_page, club):
    page = olga_page
    page.goto("/c/uno/players/")
    page.get_by_text("Add several players: a list or a CSV file").tap()
    box = page.get_by_label("Paste a list")
    box.fill("Anna, anna@example.org\nBruno\nCarla, carla@example\n")
    page.get_by_role("button", name="Add these players").tap()
    error = page.locator('[data-field="lines"] .error')
    expect(error).to_contain_text("Line 3: carla@example is not an e-mail address.")
    shot(page, "players-bulk-error-phone")
    assert not Player.objects.filter(club=club).exists()  # all or nothing
    page.get_by_label("Paste a list").fill("Anna, anna@example.org\nBruno\nCarla\n")
    page.get_by_role("button", name="Add these players").tap()
    expect(page.get_by_text("3 players joined the club.")).to_be_visible()
    shot(page, "players-bulk-pasted-phone")

    page.get_by_text("Add several players: a list or a CSV file").tap()
    page.get_by_label("Or choose a CSV file").set_input_files(
        files=[
            {
                "name": "soci.csv",
                "mimeType": "text/csv",
                "buffer": "\ufeffname;email;language\nDario;dario@example.org;fr\nanna;;\n".encode(),
            }
        ]
    )
    page.get_by_role("button", name="Add these players").tap()
    expect(page.get_by_text("1 player joined the club.")).to_be_visible()
    expect(page.get_by_text("Already in the club, not added again: anna.")).to_be_visible()
    shot(page, "players-bulk-csv-phone")
    dario = Player.objects.get(club=club, display_name="Dario")
    assert (dario.email, dario.language) == ("dario@example.org", "fr")
    assert Player.objects.filter(club=club).count() == 4
    # No row is wider than the phone.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390

    page.locator(f'a[href="/c/uno/players/{dario.pk}/email/"]').tap()
    expect(page.get_by_label("E-mail address")).to_have_value("dario@example.org")
    shot(page, "player-email-phone")
