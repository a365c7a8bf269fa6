"""Issue 33, point 6: a table PIN holds against a guesser with any number of addresses (the
link's budget of wrong PINs, docs/architecture.md "Table PINs"), and the throttles' counts stay
one count for every web process while Redis does not answer."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from config import settings as project_settings
from scoring import throttles
from scoring.models import PIN_DIGITS, GuessCounter, TableLink, new_pin
from scoring.services import housekeeping, table_links

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


def _pin_section() -> str:
    text = DOCS.read_text(encoding="utf-8")
    return text.split("## Table PINs", 1)[1].split("\n## ", 1)[0]


def _figure(section: str, row: str) -> int:
    """The first number of the table row starting with ``row``."""
    line = next(line for line in section.splitlines() if line.startswith(f"| {row} |"))
    return int(re.search(r"\| [^|]*?(\d[\d,]*)", line[len(row) + 3 :]).group(1).replace(",", ""))


def test_the_documented_arithmetic_is_the_codes():
    section = _pin_section()
    assert _figure(section, "PIN space") == PIN_DIGITS == 6
    assert len(new_pin()) == PIN_DIGITS and new_pin().isdigit()
    budget = _figure(section, "budget")
    assert budget == project_settings.PIN_LINK_HARD_FAILURES == 75  # the default, unconfigured
    assert _figure(section, "lock time") == table_links.LINK_WINDOW_MINUTES
    windows = 12 * 60 // table_links.LINK_WINDOW_MINUTES + 1
    assert f"= {windows} (" in section
    share = table_links.evening_share(budget)
    assert share == windows * budget / 10**PIN_DIGITS
    assert f"{windows} × {budget} = {windows * budget:,} guesses" in section
    assert f"**{share * 100:.4f} %**" in section
    assert share <= table_links.EVENING_SHARE_MAX == 0.001
    # The start-up refusal beyond 76 is that bound.
    limit = table_links.FAILURES_LIMIT
    assert limit == 76 and "at most 76" in section
    assert table_links.evening_share(limit) <= 0.001 < table_links.evening_share(limit + 1)


def test_a_budget_beyond_the_bound_refuses_to_start(settings):
    table_links.check_budget()
    settings.PIN_LINK_HARD_FAILURES = 77
    with pytest.raises(ImproperlyConfigured, match="PIN_LINK_HARD_FAILURES must be at most 76"):
        table_links.check_budget()


@pytest.fixture
def link(terziglio) -> TableLink:
    return TableLink.objects.get(game=terziglio)


def test_the_default_budget_locks_the_link_for_everyone_and_the_card_says_so(olga, link):
    """75 wrong PINs from 75 addresses (one each: no address is slowed), then the right PIN from
    a 76th is refused too; the organizer's card says the link is locked, and a new link and PIN
    renews the budget."""
    url = f"/t/{link.token}/"
    seated = Client(REMOTE_ADDR="192.168.5.4")
    assert seated.post(url, {"pin": link.pin}).status_code == 302
    wrong = "0" * PIN_DIGITS if link.pin != "0" * PIN_DIGITS else "1" * PIN_DIGITS
    for n in range(75):
        assert (
            Client(REMOTE_ADDR=f"10.7.{n // 250}.{n % 250}").post(url, {"pin": wrong}).status_code
            == 400
        )
    refused = Client(REMOTE_ADDR="192.168.5.5").post(url, {"pin": link.pin})
    assert refused.status_code == 429
    assert TableLink.objects.get(pk=link.pk).failures == 75
    # The seated phone's card says so, and admits phones without the PIN.
    card = seated.get(f"/g/{link.game_id}/table/").content.decode()
    assert (
        'id="pin-locked"' in card
        and 'id="admit"' in card
        and "new link" not in card.split('id="pin-locked"')[1].split("</p>")[0]
    )
    organizer = Client()
    organizer.force_login(olga)
    card = organizer.get(f"/g/{link.game_id}/table/").content.decode()
    assert 'id="pin-locked"' in card and "the PIN lets no new phone in" in card
    organizer.post(f"/g/{link.game_id}/table/")
    renewed = TableLink.objects.get(pk=link.pk)
    assert renewed.failures == 0 and len(renewed.pin) == PIN_DIGITS
    assert 'id="pin-locked"' not in organizer.get(f"/g/{link.game_id}/table/").content.decode()
    assert (
        Client(REMOTE_ADDR="192.168.5.5")
        .post(f"/t/{renewed.token}/", {"pin": renewed.pin})
        .status_code
        == 302
    )


@pytest.fixture
def redis_down(settings):
    """The shared cache is a Redis that does not answer (nothing listens on that port)."""
    settings.CACHES = {
        "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": "redis://127.0.0.1:8499/14"}
    }
    yield caches["default"]


def _another_process(backend) -> None:
    """What another web process (or this one restarted) has in memory: nothing."""
    backend._local.clear()


def test_pin_tries_count_for_every_process_while_redis_is_down(settings, link, redis_down):
    settings.PIN_MAX_ATTEMPTS = 2
    url, guesser = f"/t/{link.token}/", Client(REMOTE_ADDR="10.0.0.66")
    wrong = "0" * PIN_DIGITS if link.pin != "0" * PIN_DIGITS else "1" * PIN_DIGITS
    for _ in range(2):
        assert guesser.post(url, {"pin": wrong}).status_code == 400
        _another_process(redis_down)
    assert redis_down.down()
    refused = guesser.post(url, {"pin": wrong})
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    assert GuessCounter.objects.exists()


def test_login_tries_count_for_every_process_while_redis_is_down(settings, olga, redis_down):
    settings.LOGIN_MAX_ATTEMPTS = 2
    for _ in range(2):
        Client().post("/login/", {"username": "olga", "password": "wrong"})
        _another_process(redis_down)
    # Past the free tries, the account waits, whatever process answers, even the right password.
    refused = Client().post("/login/", {"username": "olga", "password": "pw-olga"})
    assert refused.status_code == 429
    assert throttles.login_guard(refused.wsgi_request, "olga").wait() >= 1


def test_the_counts_kept_while_redis_was_down_are_purged_once_forgotten():
    GuessCounter.objects.create(key="guess:old", tries=3, expires=time.time() - 1)
    GuessCounter.objects.create(key="guess:live", tries=1, expires=time.time() + 600)
    housekeeping.purge_idempotency_records()
    assert list(GuessCounter.objects.values_list("key", flat=True)) == ["guess:live"]
