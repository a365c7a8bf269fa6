"""The organizer's registration page (issue 24), action by action, posted as its forms send
them: close registration, withdraw, give a place, confirm a partner at the desk, move on the
waiting list, merge a player, open and close self check-in. Each changes what its service
changes and records its event; a refusal is shown above the page (400) with nothing changed; an
unknown registration or round is a 404; only the club's owners and organizers act."""

from __future__ import annotations

import html
import re

import pytest
from django.core import mail
from django.test import Client

from registration import services as registration_services
from registration.models import (
    CheckInWindow,
    LinkPurpose,
    Registration,
    RegistrationLink,
    RegistrationSettings,
    RegistrationStatus,
)
from scoring.models import Player
from scoring.services import Actor
from tests.clients import field_error, login
from tests.registration import test_registration as service_tests
from tests.registration.test_registration import ANON, open_for, registered, token_in
from tests.tournaments.helpers import make_competition
from tournaments import services
from tournaments.models import Competition, CompetitionEvent, EntryStatus

pytestmark = pytest.mark.django_db

#: The service tests' e-mails leaving at once, and their competitions: a single game with two
#: places and a waiting list, and a pairs game of one table (two pairs).
mails_now = service_tests.mails_now
torneo = service_tests.torneo
coppie = service_tests.coppie


def url_of(competition) -> str:
    return f"/c/{competition.club.slug}/k/{competition.slug}/registration/"


def alerts(response) -> list[str]:
    """The refusals shown above the page."""
    found = re.findall(r'<p class="error box" role="alert">(.*?)</p>', response.text, re.S)
    return [html.unescape(text) for text in found]


def flashes(response) -> list[str]:
    """The messages of the page shown after a redirect."""
    found = re.search(r'<ul class="flash" role="status">(.*?)</ul>', response.text, re.S)
    items = re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S) if found else []
    return [html.unescape(text) for text in items]


def shown_waiting(response) -> list[int]:
    """The registrations on the page's waiting list, in its order."""
    section = response.text.split('id="waiting-list"', 1)[1].split("</section>", 1)[0]
    return [int(pk) for pk in re.findall(r'id="registration-(\d+)"', section)]


def waiting(competition) -> list[int]:
    return list(
        Registration.objects.filter(competition=competition, status=RegistrationStatus.WAITING)
        .order_by("position")
        .values_list("pk", flat=True)
    )


def events(competition, action: str) -> list[CompetitionEvent]:
    return list(CompetitionEvent.objects.filter(competition=competition, action=action))


def statuses(competition) -> dict[int, tuple[str, int | None]]:
    rows = Registration.objects.filter(competition=competition)
    return {
        pk: (status, position)
        for pk, status, position in rows.values_list("pk", "status", "position")
    }


def four(competition) -> list[Registration]:
    """Anna and Bruno take the two places; Carla and Dario wait, in that order."""
    return [
        registered(competition, name, f"{name.lower()}@example.org")
        for name in ("Anna", "Bruno", "Carla", "Dario")
    ]


def test_the_organizer_closes_registration_and_the_list_is_frozen(torneo, olga):
    page = login(olga)
    answer = page.post(url_of(torneo), {"action": "close"})
    assert answer.status_code == 302 and answer.url == url_of(torneo)
    closed_at = RegistrationSettings.objects.get(competition=torneo).closed_at
    assert closed_at is not None
    assert [e.actor for e in events(torneo, "registration_closed")] == [olga]
    shown = page.get(url_of(torneo))
    assert flashes(shown) == ["Registration closed."]
    assert "Registration is closed: the waiting list is frozen." in shown.text
    assert 'value="close"' not in shown.text  # no button to close it again
    # Closed twice: refused above the page, nothing changes.
    again = page.post(url_of(torneo), {"action": "close"})
    assert again.status_code == 400
    assert alerts(again) == ["Registration is closed."]
    assert RegistrationSettings.objects.get(competition=torneo).closed_at == closed_at
    assert len(events(torneo, "registration_closed")) == 1


def test_an_organizer_withdraws_an_entry_and_the_first_waiting_takes_its_place(torneo, oscar, olga):
    anna, bruno, carla, dario = four(torneo)
    page = login(oscar)  # an organizer of the club, not its owner
    answer = page.post(
        url_of(torneo), {"action": "withdraw", "registration": anna.pk, "confirmed": "yes"}
    )
    assert answer.status_code == 302 and answer.url == url_of(torneo)
    anna.refresh_from_db()
    carla.refresh_from_db()
    assert anna.status == RegistrationStatus.WITHDRAWN
    assert anna.entry.status == EntryStatus.WITHDRAWN
    assert carla.status == RegistrationStatus.ENTERED
    assert carla.entry.status == EntryStatus.ACTIVE
    assert waiting(torneo) == [dario.pk]
    (withdrawn,) = events(torneo, "registration_withdrawn")
    assert withdrawn.actor == oscar
    assert withdrawn.data == {"registration": anna.pk, "was": "entered"}
    (promoted,) = events(torneo, "registration_promoted")
    assert promoted.data == {"registration": carla.pk, "automatic": True}
    shown = page.get(url_of(torneo))
    assert flashes(shown) == ["Anna withdrew."]
    assert shown_waiting(shown) == [dario.pk]
    # A waiting registration withdraws from the list too.
    page.post(url_of(torneo), {"action": "withdraw", "registration": dario.pk, "confirmed": "yes"})
    dario.refresh_from_db()
    assert dario.status == RegistrationStatus.WITHDRAWN and waiting(torneo) == []
    # Withdrawn twice: refused above the page, nothing changes.
    before = statuses(torneo)
    again = page.post(
        url_of(torneo), {"action": "withdraw", "registration": anna.pk, "confirmed": "yes"}
    )
    assert again.status_code == 400
    assert alerts(again) == ["This registration was withdrawn."]
    assert statuses(torneo) == before
    assert len(events(torneo, "registration_withdrawn")) == 2
    assert bruno.pk in {r.pk for r in Registration.objects.filter(status="entered")}


def test_an_unknown_registration_or_another_competitions_is_a_404(torneo, club, olga):
    anna = registered(torneo, "Anna", "anna@example.org")
    other = make_competition(club, olga, name="Altro torneo")
    open_for(other, olga)
    elsewhere = registered(other, "Bruno", "bruno@example.org")
    page = login(olga)
    for action in ("withdraw", "promote", "confirm_partner", "move", "merge"):
        for raw in (elsewhere.pk, anna.pk + 1000, "", "abc"):
            fields = {"action": action, "registration": raw, "direction": "up", "player": 1}
            assert page.post(url_of(torneo), fields).status_code == 404, (action, raw)
    elsewhere.refresh_from_db()
    assert elsewhere.status == RegistrationStatus.ENTERED
    assert not events(torneo, "registration_withdrawn")
    assert not events(other, "registration_withdrawn")


@pytest.mark.parametrize("raw", ["²", "٣", "99999999999999999999999"])
def test_a_garbled_number_is_a_404_not_a_server_error(torneo, olga, raw):
    services.add_round(competition=torneo, by=Actor.for_user(olga))
    page = Client(raise_request_exception=False)
    page.force_login(olga)
    for fields in (
        {"action": "withdraw", "registration": raw},
        {"action": "promote", "registration": raw},
        {"action": "close_check_in", "round": raw},
    ):
        assert page.post(url_of(torneo), fields).status_code == 404, fields


def test_the_organizer_gives_a_waiting_registration_a_place_beyond_capacity(torneo, olga):
    anna, _bruno, carla, dario = four(torneo)
    page = login(olga)
    mail.outbox.clear()
    answer = page.post(url_of(torneo), {"action": "promote", "registration": dario.pk})
    assert answer.status_code == 302 and answer.url == url_of(torneo)
    dario.refresh_from_db()
    assert dario.status == RegistrationStatus.ENTERED and dario.position is None
    assert dario.entry.status == EntryStatus.ACTIVE
    assert torneo.entries.filter(status=EntryStatus.ACTIVE).count() == 3  # two places
    assert waiting(torneo) == [carla.pk]
    assert Registration.objects.get(pk=carla.pk).position == 1
    (promoted,) = events(torneo, "registration_promoted")
    assert promoted.actor == olga
    assert promoted.data == {"registration": dario.pk, "automatic": False}
    assert [m.to for m in mail.outbox] == [["dario@example.org"]]
    shown = page.get(url_of(torneo))
    assert flashes(shown) == ["Dario is in."]
    assert "3 of 2 places taken, 1 waiting." in shown.text
    # Someone who is not waiting: refused above the page, nothing changes.
    before = statuses(torneo)
    refused = page.post(url_of(torneo), {"action": "promote", "registration": anna.pk})
    assert refused.status_code == 400
    assert alerts(refused) == ["This registration is not on the waiting list."]
    assert statuses(torneo) == before
    assert len(events(torneo, "registration_promoted")) == 1


def test_the_organizer_confirms_a_partner_at_the_desk(coppie, olga):
    registration = registration_services.register(
        competition=coppie, by=ANON, name="Anna", email="anna@example.org",
        partner_name="Bruno", partner_email="bruno@example.org",
    )  # fmt: skip
    registration_services.confirm_registration(token=token_in(mail.outbox[-1]), by=ANON)
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.PARTNER
    page = login(olga)
    fields = {"action": "confirm_partner", "registration": registration.pk}
    answer = page.post(url_of(coppie), fields)
    assert answer.status_code == 302 and answer.url == url_of(coppie)
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.ENTERED
    assert registration.partner_confirmed_at is not None
    assert registration.entry.name == "Anna & Bruno"
    partner_link = RegistrationLink.objects.get(
        registration=registration, purpose=LinkPurpose.PARTNER
    )
    assert partner_link.used_at is not None  # the e-mailed link no longer serves
    desk = [e for e in events(coppie, "registration_confirmed") if e.data["who"] == "desk"]
    assert [e.actor for e in desk] == [olga]
    assert events(coppie, "registration_entered")
    assert flashes(page.get(url_of(coppie))) == ["Anna & Bruno: the pair is confirmed."]
    # Confirmed twice: refused above the page, nothing changes.
    again = page.post(url_of(coppie), fields)
    assert again.status_code == 400
    assert alerts(again) == ["This registration is not waiting for a partner's confirmation."]
    assert len(events(coppie, "registration_confirmed")) == 2  # the registrant's, the desk's
    assert coppie.entries.count() == 1


def test_the_organizer_moves_registrations_up_and_down_the_waiting_list(torneo, olga):
    *_, carla, dario = four(torneo)
    ugo = registered(torneo, "Ugo", "ugo@example.org")
    assert waiting(torneo) == [carla.pk, dario.pk, ugo.pk]
    page = login(olga)
    move = {"action": "move", "direction": "up", "registration": ugo.pk}
    answer = page.post(url_of(torneo), move)
    assert answer.status_code == 302 and answer.url == url_of(torneo)
    assert waiting(torneo) == [carla.pk, ugo.pk, dario.pk]
    page.post(url_of(torneo), move | {"direction": "down", "registration": carla.pk})
    assert waiting(torneo) == [ugo.pk, carla.pk, dario.pk]
    positions = dict(Registration.objects.filter(status="waiting").values_list("pk", "position"))
    assert positions == {ugo.pk: 1, carla.pk: 2, dario.pk: 3}
    reordered = events(torneo, "registration_reordered")
    assert [e.data["order"] for e in reordered] == [
        [carla.pk, ugo.pk, dario.pk],
        [ugo.pk, carla.pk, dario.pk],
    ]
    assert {e.actor for e in reordered} == {olga}
    shown = page.get(url_of(torneo))
    assert flashes(shown) == ["Waiting list reordered."] * 2  # one per move
    assert shown_waiting(shown) == [ugo.pk, carla.pk, dario.pk]
    # Once registration is closed the list is frozen: refused above the page, nothing moves.
    page.post(url_of(torneo), {"action": "close"})
    refused = page.post(url_of(torneo), move | {"registration": dario.pk})
    assert refused.status_code == 400
    assert alerts(refused) == ["Registration is closed."]
    assert waiting(torneo) == [ugo.pk, carla.pk, dario.pk]
    assert len(events(torneo, "registration_reordered")) == 2


def test_the_organizer_merges_a_registrants_player_with_the_clubs(
    torneo, olga, players, other_club
):
    anna, bruno = players[:2]
    entered = registered(torneo, "Anna", "anna@example.org")
    made = entered.player
    assert made.display_name == "Anna (2)"
    page = login(olga)
    merge = {"action": "merge", "registration": entered.pk, "player": anna.pk}
    answer = page.post(url_of(torneo), merge)
    assert answer.status_code == 302 and answer.url == url_of(torneo)
    entered.refresh_from_db()
    assert entered.player_id == anna.pk and entered.entry.player_id == anna.pk
    assert not Player.objects.filter(pk=made.pk).exists()
    (merged,) = events(torneo, "registration_merged")
    assert merged.actor == olga
    assert merged.data == {
        "registration": entered.pk, "made": "Anna (2)", "player": anna.pk, "name": "Anna",
    }  # fmt: skip
    assert flashes(page.get(url_of(torneo))) == ["Anna (2) is now Anna."]
    # No player chosen, another club's player, a registration with no place yet: refused
    # above the page, nothing changes.
    registered(torneo, "Bruno", "bruno@example.org")
    carla = registered(torneo, "Carla", "carla@example.org")  # waits: two places
    elena = Player.objects.get(club=other_club, display_name="Elena")
    for fields, refusal in [
        (merge | {"player": ""}, "This field is required."),
        (merge | {"player": elena.pk}, f"Select a valid choice. {elena.pk} is not one of"),
        (merge | {"registration": carla.pk, "player": bruno.pk}, "This registration has no place"),
    ]:
        refused = page.post(url_of(torneo), fields)
        assert refused.status_code == 400, fields
        (shown,) = alerts(refused)
        assert shown.startswith(refusal), shown
    entered.refresh_from_db()
    assert entered.entry.player_id == anna.pk
    assert Registration.objects.get(pk=carla.pk).player_id is None
    assert Player.objects.filter(pk=bruno.pk, active=True).exists()
    assert len(events(torneo, "registration_merged")) == 1


def test_the_organizer_opens_and_closes_self_check_in(torneo, olga):
    registered(torneo, "Anna", "anna@example.org")
    registered(torneo, "Bruno", "bruno@example.org")
    round_ = services.add_round(competition=torneo, by=Actor.for_user(olga))
    page = login(olga)
    # A bad window: its error next to its field, no window.
    bad = page.post(url_of(torneo), {"action": "open_check_in", "round": "1", "minutes": "0"})
    assert bad.status_code == 400 and field_error(bad.text, "minutes")
    bad = page.post(url_of(torneo), {"action": "open_check_in", "round": "7", "minutes": "30"})
    assert bad.status_code == 400 and "Select a valid choice" in field_error(bad.text, "round")
    assert not CheckInWindow.objects.exists()
    opened = page.post(url_of(torneo), {"action": "open_check_in", "round": "1", "minutes": "30"})
    assert opened.status_code == 302 and opened.url == url_of(torneo)
    window = CheckInWindow.objects.get(round=round_)
    assert window.is_open()
    assert 29 * 60 < (window.closes_at - window.opened_at).total_seconds() <= 30 * 60
    (event,) = events(torneo, "open_check_in")
    assert event.actor == olga and event.round_id == round_.pk and event.data == {"minutes": 30}
    shown = page.get(url_of(torneo))
    assert flashes(shown) == ["Self check-in is open."]
    assert "0 present, 2 missing" in shown.text and 'value="close_check_in"' in shown.text
    closed = page.post(url_of(torneo), {"action": "close_check_in", "round": "1"})
    assert closed.status_code == 302 and closed.url == url_of(torneo)
    window.refresh_from_db()
    assert not window.is_open()
    assert [e.round_id for e in events(torneo, "close_check_in")] == [round_.pk]
    shown = page.get(url_of(torneo))
    assert flashes(shown) == ["Self check-in is closed."]
    assert 'value="close_check_in"' not in shown.text
    # Closed twice: refused above the page; an unknown round is a 404.
    again = page.post(url_of(torneo), {"action": "close_check_in", "round": "1"})
    assert again.status_code == 400
    assert alerts(again) == ["Check-in is not open: the organizer opens it at the venue."]
    assert page.post(url_of(torneo), {"action": "close_check_in", "round": "9"}).status_code == 404
    assert len(events(torneo, "close_check_in")) == 1


def test_only_the_clubs_owners_and_organizers_act_on_the_page(torneo, olga, sara, bea, players):
    anna, *_, dario = four(torneo)
    round_ = services.add_round(competition=torneo, by=Actor.for_user(olga))
    registration_services.open_check_in(round_=round_, by=Actor.for_user(olga), minutes=30)
    posts = [
        {"action": "close"},
        {"action": "withdraw", "registration": anna.pk, "confirmed": "yes"},
        {"action": "promote", "registration": dario.pk},
        {"action": "confirm_partner", "registration": anna.pk},
        {"action": "move", "registration": dario.pk, "direction": "up"},
        {"action": "merge", "registration": anna.pk, "player": players[0].pk},
        {"action": "open_check_in", "round": "1", "minutes": "60"},
        {"action": "close_check_in", "round": "1"},
    ]
    before = (statuses(torneo), CompetitionEvent.objects.filter(competition=torneo).count())
    window = CheckInWindow.objects.get(round=round_).closes_at
    url = url_of(torneo)
    for fields in posts:
        # A scorer of the club, and someone outside it (the competition is public): 403.
        assert login(sara).post(url, fields).status_code == 403, fields
        assert login(bea).post(url, fields).status_code == 403, fields
        # Nobody signed in: to the login page.
        anonymous = Client().post(url, fields)
        assert anonymous.status_code == 302 and anonymous.url.startswith("/login/"), fields
    Competition.objects.filter(pk=torneo.pk).update(public=False)
    for fields in posts:  # a private competition is not there for someone outside the club
        assert login(bea).post(url, fields).status_code == 404, fields
    after = (statuses(torneo), CompetitionEvent.objects.filter(competition=torneo).count())
    assert after == before
    assert CheckInWindow.objects.get(round=round_).closes_at == window
    assert RegistrationSettings.objects.get(competition=torneo).closed_at is None
    assert Registration.objects.get(pk=anna.pk).player.display_name == "Anna (2)"
