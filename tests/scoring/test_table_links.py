"""Table links: PIN guessing slowed per caller (session and address) with a growing wait, a
ceiling per link, a new link and PIN on the organizer's demand, and the end of a table session
(its game finished, or TABLE_SESSION_HOURS passed)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from scoring import access, links, services, throttles
from scoring.models import AuditEvent, Hand, TableLink
from scoring.services import Actor
from tests.clients import api_as

pytestmark = pytest.mark.django_db

HAND = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "chiamo", "soloist_points": 5}
WIN = {"dealer": 1, "outcome": "played", "soloist": 2, "contract": "scegliete", "soloist_points": 8}
SOLOIST_FORM = {
    "dealer": "0",
    "outcome": "played",
    "soloist": "1",
    "contract": "chiamo",
    "soloist_points": "5",
    "sweep": "none",
}


def phone(address: str = "10.0.0.7") -> Client:
    return Client(REMOTE_ADDR=address)


def wrong_pin(link: TableLink) -> str:
    return "0000" if link.pin != "0000" else "1111"


@pytest.fixture
def link(terziglio) -> TableLink:
    return TableLink.objects.get(game=terziglio)


@pytest.fixture
def clock(monkeypatch):
    """The throttles' clock, moved by hand."""
    moment = [1_000_000.0]
    monkeypatch.setattr(throttles, "now", lambda: moment[0])
    return moment


def test_a_guesser_waits_alone_and_the_players_right_pin_still_opens(settings, link, clock):
    settings.PIN_MAX_ATTEMPTS = 2
    guesser = phone("10.0.0.66")
    url = f"/t/{link.token}/"
    for _ in range(2):
        assert guesser.post(url, {"pin": wrong_pin(link)}).status_code == 400
    refused = guesser.post(url, {"pin": wrong_pin(link)})
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    assert "Too many wrong tries: wait 1 second" in refused.content.decode()
    # While it must wait, not even the right PIN is checked for the guesser...
    assert guesser.post(url, {"pin": link.pin}).status_code == 429
    # ...but the players at the table, another session at another address, are let in.
    player = phone()
    assert player.post(url, {"pin": link.pin})["Location"] == f"/g/{link.game_id}/"
    assert player.get(f"/g/{link.game_id}/").status_code == 200


def test_the_wait_grows_with_every_wrong_pin(settings, link, clock):
    settings.PIN_MAX_ATTEMPTS = 1
    guesser, url = phone("10.0.0.66"), f"/t/{link.token}/"
    waits = []
    for _ in range(5):
        assert guesser.post(url, {"pin": wrong_pin(link)}).status_code == 400
        refused = guesser.post(url, {"pin": wrong_pin(link)})
        assert refused.status_code == 429
        waits.append(int(refused["Retry-After"]))
        clock[0] += waits[-1]
    assert waits == [1, 2, 4, 8, 16]
    # Once it has waited, the guesser's right PIN is accepted and its count starts again.
    assert guesser.post(url, {"pin": link.pin}).status_code == 302


def test_new_sessions_from_one_address_are_counted_together(settings, link, clock):
    """Dropping the cookie gives a new session, not a new address: the address allows four
    times as many tries as a session (a club room shares one) and then slows down too."""
    settings.PIN_MAX_ATTEMPTS = 2
    url = f"/t/{link.token}/"
    for _ in range(8):
        assert phone("10.0.0.66").post(url, {"pin": wrong_pin(link)}).status_code == 400
    assert phone("10.0.0.66").post(url, {"pin": link.pin}).status_code == 429
    assert phone("10.0.0.67").post(url, {"pin": link.pin}).status_code == 302


def test_many_addresses_meet_the_links_ceiling(settings, link, clock):
    """PIN_LINK_HARD_FAILURES wrong PINs an hour, from anywhere, lock the link for every new
    phone (even with the right PIN) until the hour has passed: 10**6 PINs cannot be tried
    quickly from many addresses. (Below it, only the guessers' addresses are locked out: see
    the tests of issue 22 below.)"""
    settings.PIN_LINK_MAX_FAILURES = settings.PIN_LINK_HARD_FAILURES = 3
    url = f"/t/{link.token}/"
    for n in range(3):
        assert phone(f"10.0.1.{n}").post(url, {"pin": wrong_pin(link)}).status_code == 400
    locked = phone().post(url, {"pin": link.pin})
    assert locked.status_code == 429
    assert "Too many wrong PINs were typed for this table" in locked.content.decode()
    TableLink.objects.filter(pk=link.pk).update(
        window_started=timezone.now() - dt.timedelta(minutes=61)
    )
    assert phone().post(url, {"pin": link.pin}).status_code == 302


def _open(link: TableLink, client: Client | None = None) -> Client:
    client = client or phone()
    assert client.post(f"/t/{link.token}/", {"pin": link.pin}).status_code == 302
    return client


def test_an_organizer_gives_the_table_a_new_link_and_pin(olga, sara, link, terziglio):
    table = _open(link)
    organizer = Client()
    organizer.force_login(olga)
    card = organizer.get(f"/g/{terziglio.pk}/table/").content.decode()
    assert "New link and PIN" in card
    assert organizer.post(f"/g/{terziglio.pk}/table/").status_code == 302
    new = TableLink.objects.get(pk=link.pk)
    assert new.token != link.token
    # The old link is gone, and the session opened with it has ended.
    assert phone().get(f"/t/{link.token}/").status_code == 404
    assert table.get(f"/g/{terziglio.pk}/").status_code == 404
    assert table.post(f"/g/{terziglio.pk}/hands/", SOLOIST_FORM).status_code == 404
    assert not Hand.objects.exists()
    # The new link with the new PIN opens the game.
    assert _open(new, table).get(f"/g/{terziglio.pk}/").status_code == 200
    event = AuditEvent.objects.get(action="rotate_table_link")
    assert (event.actor, event.game_id) == (olga, terziglio.pk)
    # A scorer sees the card but may not change the link.
    scorer = Client()
    scorer.force_login(sara)
    assert "New link and PIN" not in scorer.get(f"/g/{terziglio.pk}/table/").content.decode()
    assert scorer.post(f"/g/{terziglio.pk}/table/").status_code == 403
    assert TableLink.objects.get(pk=link.pk).token == new.token


def test_rotating_a_link_is_for_the_clubs_managers(terziglio, sara, olga):
    with pytest.raises(services.NotAllowed):
        services.rotate_table_link(game=terziglio, by=Actor.for_user(sara))
    with pytest.raises(services.NotAllowed):
        services.rotate_table_link(game=terziglio, by=Actor.for_table(terziglio.pk))
    assert not AuditEvent.objects.filter(action="rotate_table_link").exists()


def test_a_table_session_ends_after_table_session_hours(settings, link, terziglio):
    settings.TABLE_SESSION_HOURS = 12
    table = _open(link)
    session = table.session
    opened = session[access.TABLE_SESSION_KEY]
    opened[str(terziglio.pk)]["at"] -= 11 * 3600
    session[access.TABLE_SESSION_KEY] = opened
    session.save()
    assert table.get(f"/g/{terziglio.pk}/").status_code == 200
    opened[str(terziglio.pk)]["at"] -= 2 * 3600
    session[access.TABLE_SESSION_KEY] = opened
    session.save()
    assert table.get(f"/g/{terziglio.pk}/").status_code == 404
    assert table.post(f"/g/{terziglio.pk}/hands/", SOLOIST_FORM).status_code == 404
    assert not Hand.objects.exists()


def test_a_finished_game_stays_readable_at_its_table_but_takes_no_more_hands(olga, link, terziglio):
    table = _open(link)
    for document in (HAND, WIN):
        services.record_hand(game=terziglio, document=document, by=Actor.for_user(olga))
    terziglio.refresh_from_db()
    assert terziglio.status == "finished"
    page = table.get(f"/g/{terziglio.pk}/")
    assert page.status_code == 200 and 'id="hand-form"' not in page.content.decode()
    assert table.post(f"/g/{terziglio.pk}/hands/1/", SOLOIST_FORM).status_code == 403
    api = table.post(
        f"/api/v1/games/{terziglio.pk}/hands/",
        HAND,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert api.status_code == 403
    assert Hand.objects.filter(game=terziglio).count() == 2
    # The club's members still correct it.
    assert api_as(olga).get(f"/api/v1/games/{terziglio.pk}/hands/1/").status_code == 200


# -- issue 22, point 9: a PIN lockout costs the guesser, not the table ------------------------


def test_a_guesser_from_many_addresses_locks_out_only_those_addresses(settings, link, clock):
    """The link's ceiling reached by one attacker's 8 addresses refuses them, even with the
    right PIN, while a player arriving from another address still gets in."""
    settings.PIN_LINK_MAX_FAILURES = 8
    url = f"/t/{link.token}/"
    for n in range(8):
        assert phone(f"10.0.9.{n}").post(url, {"pin": wrong_pin(link)}).status_code == 400
    for n in range(8):
        locked = phone(f"10.0.9.{n}").post(url, {"pin": link.pin})
        assert locked.status_code == 429
        assert "Too many wrong PINs were typed for this table" in locked.content.decode()
    assert phone("192.168.1.20").post(url, {"pin": link.pin}).status_code == 302


def test_past_the_hard_ceiling_every_new_phone_waits(settings, link, clock):
    settings.PIN_LINK_MAX_FAILURES, settings.PIN_LINK_HARD_FAILURES = 2, 4
    url = f"/t/{link.token}/"
    for n in range(4):
        assert phone(f"10.0.9.{n}").post(url, {"pin": wrong_pin(link)}).status_code == 400
    assert phone("192.168.1.20").post(url, {"pin": link.pin}).status_code == 429


def test_a_seated_phone_admits_a_new_phone_while_the_link_is_locked(settings, link, terziglio):
    seated = _open(link)
    settings.PIN_LINK_MAX_FAILURES = settings.PIN_LINK_HARD_FAILURES = 1
    url = f"/t/{link.token}/"
    assert phone("10.0.9.1").post(url, {"pin": wrong_pin(link)}).status_code == 400
    newcomer = phone("192.168.1.21")
    assert newcomer.post(url, {"pin": link.pin}).status_code == 429
    # The seated phone's game page leads to the table card, which holds the admission code.
    assert f'href="/g/{terziglio.pk}/table/"' in seated.get(f"/g/{terziglio.pk}/").content.decode()
    card = seated.get(f"/g/{terziglio.pk}/table/")
    assert card.status_code == 200 and 'id="admit"' in card.content.decode()
    assert seated.post(f"/g/{terziglio.pk}/table/").status_code == 403  # no new link for it
    ticket = links.admission_ticket(link)
    assert newcomer.get(f"{url}?admit={ticket}").status_code == 302
    assert newcomer.post(f"/g/{terziglio.pk}/hands/", SOLOIST_FORM).status_code in (200, 302)
    assert Hand.objects.filter(game=terziglio).count() == 1


def test_an_admission_ticket_is_void_once_forged_expired_or_the_link_renewed(olga, link, terziglio):
    url = f"/t/{link.token}/"
    forged = phone().get(f"{url}?admit=x{links.admission_ticket(link)}")
    assert forged.status_code == 200 and "has expired or was replaced" in forged.content.decode()
    ticket = links.admission_ticket(link)
    services.rotate_table_link(game=terziglio, by=Actor.for_user(olga))
    link.refresh_from_db()
    assert phone().get(f"/t/{link.token}/?admit={ticket}").status_code == 200
    assert links.admitted(link, links.admission_ticket(link))
    signed_long_ago = links.admission_ticket(link)
    later = timezone.now() + dt.timedelta(minutes=links.ADMISSION_MINUTES + 1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("django.core.signing.time.time", lambda: later.timestamp())
        assert not links.admitted(link, signed_long_ago)
