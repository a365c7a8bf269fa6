"""A Swiss round 1 of 24 drawn in the browser (issue 23, point 2), on a laptop (1280×800) and a
phone (390×844): without ratings two seeds give two draws; with the club's ratings the top half
meets the bottom half; the draw panel says how the round was drawn."""

import os

import pytest
from playwright.sync_api import expect

from scoring.models import Rating
from tests.browser.conftest import log_in
from tests.builders import by
from tests.tournaments.helpers import make_competition, tables_of
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def swiss_of_24(club, olga):
    competition = make_competition(
        club, olga, slug="svizzera", rulesets=["briscola"], format="swiss", table_size=2
    )
    entries = [
        services.add_entry(competition=competition, player=f"Giocatore {i + 1:02}", by=by(olga))
        for i in range(24)
    ]
    services.add_round(competition=competition, by=by(olga))
    return competition, entries


def draw(page, seed: int) -> None:
    panel = page.locator("#draw")
    panel.get_by_label("Seed (optional)").fill(str(seed))
    panel.get_by_role("button", name="Draw").first.click()
    expect(page.locator("#tables")).to_be_visible()


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_a_swiss_round_1_of_24_is_drawn(request, device, club, olga):
    competition, entries = swiss_of_24(club, olga)
    page = request.getfixturevalue(device).new_page()
    log_in(page, "olga", "pw-olga")
    page.goto("/c/uno/k/svizzera/rounds/1/")
    expect(page.locator("#draw-method")).to_contain_text("top half against the bottom half")
    draw(page, 1)
    expect(page.locator("#draw-method")).to_contain_text("Round 1, at random")
    round_ = competition.rounds.get()
    one = tables_of(round_)
    draw(page, 2)
    assert tables_of(round_) != one
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/swiss-random-{device}.png", full_page=True)
    for i, entry in enumerate(entries):  # the first entered the strongest
        Rating.objects.create(
            club=club, player=entry.player, ruleset="briscola", mu=100 - i, sigma=1, ordinal=90 - i
        )
    draw(page, 3)
    expect(page.locator("#draw-method")).to_contain_text("by the club's rating")
    ids = [e.pk for e in entries]
    tables = tables_of(round_)
    assert [t[0] for t in tables] == ids[:12]
    assert sorted(t[1] for t in tables) == sorted(ids[12:])
    expect(page.locator('article[data-table="1"]')).to_contain_text("Giocatore 01")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/swiss-rating-{device}.png", full_page=True)
