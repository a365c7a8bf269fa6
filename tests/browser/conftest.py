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


# -- the site under ASGI, for the live pages ------------------------------------------------------


@pytest.fixture(autouse=True)
def streams_only_under_asgi(monkeypatch):
    """pytest-django's ``live_server`` is WSGI: an event stream (an async view) cannot stream
    there. Django would collect the endless stream into one answer and hold the request's thread
    for good, so the pages served by it would never see their stream open and the server would
    never stop. There, a stream is refused (503) as by a server without streams, and the pages
    poll, as they always did; the live pages are tested under ASGI (``asgi_server``)."""
    from django.core.handlers.wsgi import WSGIRequest

    from scoring.live import streams
    from scoring.views import live as game_streams
    from tournaments.views import live as competition_streams

    original = streams.open_stream

    async def open_stream(request, *args, **kwargs):
        if isinstance(request, WSGIRequest):
            return streams.refused(503, "No streams under WSGI.", retry_after=60)
        return await original(request, *args, **kwargs)

    for module in (game_streams, competition_streams):
        monkeypatch.setattr(module, "open_stream", open_stream)


class AsgiServer:
    """``config.asgi:application`` served by uvicorn in a thread of the test process, on one
    port for its whole life: the event streams are async views, which stream only under ASGI
    (pytest-django's ``live_server`` is WSGI). The test database is a file, so the server's
    connections see what the test committed (``transactional_db``). ``stop()`` and
    ``start()`` again restart it on the same port, as a stream server restarts."""

    def __init__(self) -> None:
        import socket

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = None
        self.thread = None

    def start(self) -> None:
        import threading
        import time

        import uvicorn

        config = uvicorn.Config(
            "config.asgi:application",
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="asgi-server", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"uvicorn did not start on port {self.port}")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.server is None:
            return
        # Open streams never end by themselves: they are cut, not waited for.
        self.server.should_exit = True
        self.server.force_exit = True
        self.thread.join(10)
        assert not self.thread.is_alive(), "uvicorn did not stop"
        self.server = None


@pytest.fixture
def asgi_server(transactional_db, settings):
    """The whole site under ASGI (uvicorn), as ``make run`` serves it; static files through
    WhiteNoise, which finds them in static/ as ``runserver`` does."""
    settings.DEBUG = False
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    server = AsgiServer()
    server.start()
    yield server
    server.stop()


def _asgi_context(browser, server, **shape):
    context = browser.new_context(base_url=server.url, **shape)
    context.set_default_timeout(TIMEOUT_MS)
    return context


@pytest.fixture
def asgi_phones(browser, asgi_server):
    """Two phone-sized browser contexts (each its own cookies and localStorage) on the ASGI
    site: the two phones of a table."""
    contexts = [_asgi_context(browser, asgi_server, **PHONE) for _ in range(2)]
    yield contexts
    for context in contexts:
        context.close()


@pytest.fixture
def asgi_phone(browser, asgi_server):
    """One more phone-sized context on the ASGI site (a scoreboard, a spectator)."""
    contexts = []

    def make(**shape):
        context = _asgi_context(browser, asgi_server, **(PHONE | shape))
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
