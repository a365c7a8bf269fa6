"""My games' notifications button in Chromium at 390×844 (issue 37 point 5): shown to a linked
player where Web Push is configured; "Turn on" asks for the permission, subscribes with the
site's VAPID key and stores the subscription; "Turn off" forgets it. Headless Chromium reaches
no real push service, so the page's PushManager hands over a subscription whose keys the test
made (tests/push_receiver.py); the service worker is then sent a push message through the
DevTools protocol and shows it as a notification."""

import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from config.push import b64decode
from scoring import services as scoring
from scoring.models import PushSubscription
from scoring.services import Actor
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": (
        "Turn on notifications",
        "Notifications are on for this phone.",
        "Turn off notifications",
    ),
    "fr": (
        "Activer les notifications",
        "Les notifications sont activées sur ce téléphone.",
        "Désactiver les notifications",
    ),
    "it": (
        "Attiva le notifiche",
        "Le notifiche sono attive su questo telefono.",
        "Disattiva le notifiche",
    ),
}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}

#: The browser's PushManager, standing in for the push service Chromium cannot reach here.
FAKE_PUSH = """
(() => {
  const given = %s;
  let current = null;
  window.__subscribedWith = null;
  const made = () => ({
    endpoint: given.endpoint,
    toJSON: () => given,
    unsubscribe: () => { current = null; return Promise.resolve(true); },
  });
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
  PushManager.prototype.subscribe = function (options) {
    window.__subscribedWith = Array.from(new Uint8Array(options.applicationServerKey));
    current = made();
    return Promise.resolve(current);
  };
})();
"""


@pytest.fixture
def oscar_plays(club, olga, oscar, push_receiver):
    scoring.add_player(club=club, display_name="Oscar", by=Actor.for_user(olga), user=oscar)
    return push_receiver.device()


def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("SHOTS_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def log_in_as_oscar(page, language: str) -> None:
    if language == "en":
        log_in(page, "oscar", "pw-oscar")
        return
    page.goto("/login/")
    page.locator('input[name="username"]').fill("oscar")
    page.locator('input[name="password"]').fill("pw-oscar")
    page.locator('input[name="password"]').press("Enter")
    page.wait_for_url("**/")


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_a_player_turns_notifications_on_and_off_from_my_games(
    browser, live_server, settings, oscar_plays, language, tmp_path
):
    turn_on, on, turn_off = WORDS[language]
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale=LOCALES[language],
    )
    context.grant_permissions(["notifications"], origin=live_server.url)
    context.add_init_script(FAKE_PUSH % json.dumps(oscar_plays.subscription()))
    page = context.new_page()
    log_in_as_oscar(page, language)
    page.goto("/me/games/")
    box = page.locator("#push")
    expect(box).to_be_visible()
    button = box.get_by_role("button", name=turn_on, exact=True)
    expect(button).to_be_visible()
    page.screenshot(path=str(shots(tmp_path) / f"my-games-{language}-390.png"), full_page=True)
    button.tap()
    expect(box).to_contain_text(on)
    row = PushSubscription.objects.get()
    assert (row.user.username, row.endpoint, row.language) == (
        "oscar",
        oscar_plays.endpoint,
        language,
    )
    key = page.evaluate("window.__subscribedWith")
    assert bytes(key) == b64decode(settings.VAPID_PUBLIC_KEY)
    page.screenshot(path=str(shots(tmp_path) / f"my-games-{language}-390-on.png"), full_page=True)
    box.get_by_role("button", name=turn_off, exact=True).tap()
    expect(box.get_by_role("button", name=turn_on, exact=True)).to_be_visible()
    assert not PushSubscription.objects.exists()
    context.close()


def test_the_service_worker_shows_a_pushed_message_as_a_notification(
    browser, live_server, oscar_plays
):
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 390, "height": 844}, has_touch=True
    )
    context.grant_permissions(["notifications"], origin=live_server.url)
    page = context.new_page()
    log_in(page, "oscar", "pw-oscar")
    page.goto("/me/games/")
    assert page.evaluate("navigator.serviceWorker.ready.then(r => Boolean(r.active))")
    cdp = context.new_cdp_session(page)
    registrations = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")  # reports the registrations there are
    for _ in range(50):
        if registrations:
            break
        page.wait_for_timeout(100)
    assert registrations, "the service worker is registered"
    message = {
        "title": "Coppa",
        "body": "Round 1 is published: table 2",
        "url": "/me/games/",
        "tag": "r1",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live_server.url,
            "registrationId": registrations[0]["registrationId"],
            "data": json.dumps(message),
        },
    )
    # evaluate awaits the promise (wait_for_function would take the promise itself as truthy).
    shown = None
    for _ in range(50):
        shown = page.evaluate(
            """navigator.serviceWorker.ready
                .then(r => r.getNotifications())
                .then(list => list.map(n => [n.title, n.body, n.tag, n.data.url]))"""
        )
        if shown:
            break
        page.wait_for_timeout(100)
    assert shown == [["Coppa", "Round 1 is published: table 2", "r1", "/me/games/"]]
    context.close()
