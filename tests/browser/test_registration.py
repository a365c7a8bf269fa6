"""Issue 24 in a browser: a person without an account registers from a phone (390×844),
confirms by the e-mailed link, withdraws through their link, and the first waiting entry is
promoted and e-mailed; a pair registers and the partner confirms; a player checks in from the
phone while the organizer (1280×800) opens self check-in and sees who is missing. The e-mails
are read from Django's outbox (the live server runs in this process)."""

import os
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from registration import services as registration_services
from registration.models import Registration
from scoring.services import Actor
from tests.browser.conftest import log_in
from tests.tournaments.helpers import make_competition
from tournaments import services
from tournaments.models import CheckIn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def open_registration(competition, olga, capacity: int = 1, unit: str = "entries"):
    now = timezone.now()
    registration_services.set_registration(
        competition=competition,
        by=Actor.for_user(olga),
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=5),
        capacity=capacity,
        unit=unit,
        note="Quota 10 €, pagata al bar.",
    )


def link_in(message) -> str:
    return re.search(r"(/r/[\w-]+/)", message.body).group(1)


def last_mail_to(address: str):
    return [m for m in mail.outbox if m.to == [address]][-1]


def test_register_confirm_withdraw_and_the_first_waiting_is_promoted(page, club, olga):
    competition = make_competition(club, olga, name="Torneo di Terziglio", public=True)
    open_registration(competition, olga)
    page.goto(f"/p/{club.slug}/{competition.slug}/")
    page.get_by_role("link", name="Register").tap()
    shot(page, "register-form-390")
    page.get_by_label("Your name").fill("Anna Rossi")
    page.get_by_label("Your e-mail address").fill("anna@example.org")
    page.get_by_role("button", name="Register").tap()
    expect(page.locator("#registration-done")).to_contain_text("Check your e-mail")
    shot(page, "register-done-390")
    page.goto(link_in(last_mail_to("anna@example.org")))
    page.get_by_role("button", name="Confirm my registration").tap()
    expect(page.locator("#registration-status")).to_contain_text("You have a place")
    # Bruno registers too: the place is taken, he waits.
    registration_services.register(
        competition=competition, by=Actor(), name="Bruno", email="b@example.org"
    )
    registration_services.confirm_registration(
        token=link_in(last_mail_to("b@example.org")).split("/")[2], by=Actor()
    )
    assert Registration.objects.get(name="Bruno").status == "waiting"
    manage = link_in(last_mail_to("anna@example.org"))
    # Anna registered on a page she read in English: her e-mails speak it (issue 32, point 3);
    # Bruno, registered with no page, hears the club's Italian below.
    assert "To withdraw" in last_mail_to("anna@example.org").body
    page.goto(manage)
    page.get_by_text("Withdraw", exact=True).tap()
    shot(page, "registration-withdraw-390")
    page.get_by_role("button", name="Withdraw my registration").tap()
    expect(page.locator("#registration-status")).to_contain_text("Withdrawn")
    promoted = last_mail_to("b@example.org")
    assert "un posto per te" in promoted.subject.lower()
    assert promoted.alternatives[0][1] == "text/html"
    assert Registration.objects.get(name="Bruno").status == "entered"


def test_a_pair_registers_and_the_partner_confirms(page, browser, live_server, club, olga):
    competition = make_competition(
        club, olga, name="Coppie", rulesets=["briscola"],
        options={"briscola": {"format": "pairs"}}, format="swiss", public=True,
    )  # fmt: skip
    open_registration(competition, olga, capacity=4, unit="tables")
    page.goto(f"/p/{club.slug}/{competition.slug}/register/")
    page.get_by_label("Your name").fill("Anna")
    page.get_by_label("Your e-mail address").fill("anna@example.org")
    page.get_by_label("Your partner's name").fill("Bruno")
    page.get_by_label("Your partner's e-mail address").fill("anna@example.org")
    page.get_by_role("button", name="Register").tap()
    # The partner's address is the registrant's own: refused next to its field, nothing lost.
    expect(page.locator('[data-field="partner_email"] .error')).to_be_visible()
    expect(page.get_by_label("Your partner's name")).to_have_value("Bruno")
    shot(page, "register-pair-refused-390")
    page.get_by_label("Your partner's e-mail address").fill("bruno@example.org")
    page.get_by_role("button", name="Register").tap()
    expect(page.locator("#registration-done")).to_be_visible()
    page.goto(link_in(last_mail_to("anna@example.org")))
    page.get_by_role("button", name="Confirm my registration").tap()
    expect(page.locator("#registration-status")).to_contain_text("partner")
    partner = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="en-GB",
    )
    bruno = partner.new_page()
    bruno.goto(link_in(last_mail_to("bruno@example.org")))
    bruno.get_by_role("button", name="Confirm our pair").tap()
    expect(bruno.locator("#registration-status")).to_contain_text("You have a place")
    shot(bruno, "partner-confirmed-390")
    partner.close()
    assert competition.entries.get().name == "Anna & Bruno"


def test_self_check_in_from_the_phone_while_the_organizer_watches(page, laptop, club, olga):
    competition = make_competition(club, olga, name="Serata", public=True)
    open_registration(competition, olga, capacity=10)
    registration_services.register(
        competition=competition, by=Actor(), name="Anna", email="a@example.org"
    )
    registration_services.confirm_registration(
        token=link_in(mail.outbox[-1]).split("/")[2], by=Actor()
    )
    services.add_entry(competition=competition, player="Carla", by=Actor.for_user(olga))
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    desk = laptop.new_page()
    log_in(desk, "olga", "pw-olga")
    desk.goto(f"/c/{club.slug}/k/{competition.slug}/registration/")
    desk.get_by_label("Open for (minutes)").fill("60")
    desk.get_by_role("button", name="Open self check-in").tap()
    expect(desk.locator("#check-in-1")).to_contain_text("0 present, 2 missing")
    page.goto(link_in(last_mail_to("a@example.org")))
    page.get_by_role("button", name=re.compile("Check in for")).tap()
    expect(page.locator("#checked-in")).to_be_visible()
    shot(page, "self-check-in-390")
    assert CheckIn.objects.filter(round=round_).count() == 1
    desk.reload()
    expect(desk.locator("#check-in-1")).to_contain_text("1 present, 1 missing")
    expect(desk.locator("#check-in-1 .missing")).to_contain_text("Carla")
    shot(desk, "registration-organizer-1280")
    desk.goto(f"/c/{club.slug}/k/{competition.slug}/rounds/1/")
    expect(desk.locator("#self-check-in-state")).to_contain_text("Carla")
    shot(desk, "round-check-in-1280")
    desk.goto(f"/c/{club.slug}/k/{competition.slug}/registration/poster/")
    expect(desk.locator(".poster .qr svg")).to_be_visible()
    shot(desk, "registration-poster-1280")
