"""A results e-mail's unsubscribe link opened on a phone (390×844), without logging in: the page
says what the button does, one tap unsubscribes, opening the link again says it is done."""

import os

import pytest
from playwright.sync_api import expect

from scoring import services as scoring
from scoring.links import unsubscribe_token
from scoring.models import Player
from tests.builders import by

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def test_a_player_unsubscribes_from_the_results_emails_with_one_tap(page, club, olga):
    anna = scoring.add_player(club=club, display_name="Anna", by=by(olga))
    scoring.update_player(player=anna, by=by(olga), email="anna@example.org")
    path = f"/unsubscribe/{unsubscribe_token(anna.pk)}/"
    page.goto(path)
    expect(page.locator("#unsubscribe")).to_contain_text("Circolo Uno e-mails Anna their results")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/unsubscribe-phone.png", full_page=True)
    page.get_by_role("button", name="Unsubscribe from results e-mails").tap()
    expect(page.get_by_role("status")).to_contain_text("no more results by e-mail")
    assert not Player.objects.get(pk=anna.pk).results_by_email
    page.goto(path)
    expect(page.get_by_role("status")).to_contain_text("already unsubscribed")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/unsubscribe-again-phone.png", full_page=True)
    page.goto(path[:-4] + "xyz/")
    expect(page.get_by_role("alert")).to_contain_text("This unsubscribe link is not valid")
