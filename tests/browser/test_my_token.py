"""The account's API token page on a phone (390×844; issue 34, point 1): reached from the home
page, a token made and shown once, then revoked. ``SCREENSHOTS_DIR`` keeps the page as shown."""

import os

import pytest
from playwright.sync_api import expect
from rest_framework.authtoken.models import Token

from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def test_a_token_is_made_shown_once_and_revoked_on_a_phone(page, olga):
    log_in(page, "olga", "pw-olga")
    page.get_by_role("link", name="API token").click()
    expect(page.get_by_role("heading", name="API token")).to_be_visible()
    expect(page.get_by_text("Your account has no token.")).to_be_visible()
    page.get_by_role("button", name="Make a token").click()
    key = Token.objects.get(user=olga).key
    expect(page.locator("#token-key")).to_have_text(key)
    box = page.locator("#token-key").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390  # the key fits the phone's width
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "my_token_phone.png"), full_page=True)
    page.reload()  # shown once: a reload shows it no more, nor makes another
    assert Token.objects.get(user=olga).key == key
    expect(page.locator("#token-key")).to_have_count(0)
    page.get_by_role("button", name="Revoke the token").click()
    expect(page.get_by_text("The token is revoked")).to_be_visible()
    assert not Token.objects.filter(user=olga).exists()
