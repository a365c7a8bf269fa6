"""An invitation link asked for on the club's Wi-Fi carries the address the page was opened on
(issue 23, point 5), on a laptop (1280×800) and a phone (390×844). The browser resolves a LAN
host name to the live server (``--host-resolver-rules``), as a phone on the club's network
reaches the laptop serving the site; no ``SITE_URL`` is set."""

import os
import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM_ARGS, PHONE, log_in, require_chromium

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")
LAN_HOST = "segnapunti-wifi.lan"
DEVICES = {
    "laptop": {"viewport": {"width": 1280, "height": 800}, "has_touch": True, "locale": "en-GB"},
    "phone": PHONE,
}


@pytest.fixture
def wifi(playwright_driver, live_server, settings):
    """A browser that reaches the live server at ``LAN_HOST``, and that address."""
    settings.ALLOWED_HOSTS = [LAN_HOST, "localhost", "127.0.0.1"]
    settings.SITE_URL, settings.SITE_URL_SET = "http://127.0.0.1:8000", False
    port = urlsplit(live_server.url).port
    chromium = playwright_driver.chromium.launch(
        executable_path=require_chromium(),
        headless=True,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1"],
    )
    yield chromium, f"http://{LAN_HOST}:{port}"
    chromium.close()


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_an_invitation_link_opened_from_a_lan_address_carries_it(wifi, device, club, olga):
    chromium, address = wifi
    laptop = chromium.new_context(base_url=address, **DEVICES[device])
    page = laptop.new_page()
    log_in(page, "olga", "pw-olga")
    page.goto("/c/uno/members/")
    page.get_by_role("button", name="Invite").click()
    link = page.locator("#new-link")
    expect(link).to_have_text(re.compile(rf"^{re.escape(address)}/invitation/[\w-]+/$"))
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/invitation-link-{device}.png", full_page=True)
    invitee = chromium.new_context(**PHONE).new_page()  # another phone on the same Wi-Fi
    invitee.goto(link.inner_text())
    expect(invitee.locator("body")).to_contain_text("Circolo Uno")
    laptop.close()
