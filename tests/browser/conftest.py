"""Browser tests: Playwright drives Debian's Chromium against pytest-django's live server.

Playwright cannot download its own browser here (and must not): it is pointed at the system
Chromium, ``/usr/bin/chromium`` unless ``CHROMIUM_PATH`` names another binary. A missing
Chromium fails the tests with a message saying how to install it; nothing is skipped.

Every test gets a fresh browser context shaped like a phone (390×844, touch), so it starts with
no cookie and an empty localStorage (the offline outbox lives there).
"""

import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test thread; without this Django refuses ORM
# calls made there (fixtures, assertions on the database) as "async unsafe".
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = os.environ.get("CHROMIUM_PATH") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-GB",
}
#: how long an explicit wait may take (ms); the live server answers in a few ms
TIMEOUT_MS = 10_000


def require_chromium() -> str:
    if not Path(CHROMIUM).is_file() or not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"The browser tests need Debian's Chromium at {CHROMIUM}, which is missing. "
            "Install it with `sudo apt-get install chromium` (or set CHROMIUM_PATH to a "
            "Chromium binary). Do not run `playwright install`: the tests use the system "
            "browser.",
            pytrace=False,
        )
    return CHROMIUM


@pytest.fixture(scope="session")
def playwright_driver():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright_driver):
    from playwright.sync_api import expect

    executable = require_chromium()
    expect.set_options(timeout=TIMEOUT_MS)
    chromium = playwright_driver.chromium.launch(
        executable_path=executable, headless=True, args=CHROMIUM_ARGS
    )
    yield chromium
    chromium.close()


@pytest.fixture
def phone(browser, live_server):
    """A fresh phone-sized browser context (cookies and localStorage empty)."""
    context = browser.new_context(base_url=live_server.url, **PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    yield context
    context.close()


@pytest.fixture
def page(phone):
    return phone.new_page()


def log_in(page, username: str, password: str) -> None:
    """Fill the login form like a person would, and wait for the redirect home."""
    from playwright.sync_api import expect

    page.goto("/login/")
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill(password)
    page.get_by_role("button", name="Log in").tap()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


@pytest.fixture
def olga_page(page, olga, club):
    """A phone on which Olga (owner of Circolo Uno) is logged in."""
    log_in(page, "olga", "pw-olga")
    return page


@pytest.fixture
def laptop(browser, live_server):
    """An organizer's laptop (1280×800, touch for the shared log-in helper)."""
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 1280, "height": 800},
        locale="en-GB",
        has_touch=True,
    )
    yield context
    context.close()
