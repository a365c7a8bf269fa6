"""The round page's "Reopen the round" (issue 32, point 5), in Chromium at 1280×800: a blank
reason is refused next to its field, a reason reopens the round and the close control returns."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.services import Actor
from tests.tournaments.helpers import enter, make_competition, play, terziglio_won_by
from tournaments import services
from tournaments.models import Round, RoundStatus

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-seats")


def test_an_organizer_reopens_a_closed_round_with_a_reason(laptop, club, olga):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, kind="league", format="club_night")
    enter(competition, olga, 3)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    play(round_.tables.get().game, terziglio_won_by(1, 3), olga)
    services.close_round(round_=round_, by=by)
    page = laptop.new_page()
    log_in(page, "olga", "pw-olga")
    page.goto(f"/c/uno/k/{competition.slug}/rounds/1/#reopen")
    section = page.locator("#reopen")
    expect(section.get_by_role("heading", name="Reopen the round")).to_be_visible()
    section.get_by_role("button", name="Reopen the round").click()
    expect(page.locator('[data-field="reason"] .error')).to_have_text(
        "Why reopen it: fill this in."
    )
    SHOTS.mkdir(exist_ok=True)
    page.locator("#reopen").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "round-reopen-1280.png"))
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.CLOSED
    page.locator("#reopen").get_by_label("Why reopen it").fill("table 1's hand was mistyped")
    page.locator("#reopen").get_by_role("button", name="Reopen the round").click()
    expect(page.get_by_text("Round 1 is open again")).to_be_visible()
    expect(page.locator("#close")).to_be_visible()
    expect(page.locator("#reopen")).to_have_count(0)
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.PUBLISHED
