"""Issue 32, point 7 in a browser: the organizer gives the knockout of a Briscola Swiss its own
lengths and a third-place match on the settings page at 1280×800 (a third-place match with a
cut to two is refused next to its field), the rounds are played, and the public bracket names
each round's length on a phone and a laptop."""

import os

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.builders import by
from tests.tournaments.test_stage_lengths import play_long
from tests.tournaments.test_swiss_cut import next_round, swiss_of_eight
from tournaments import services
from tournaments.models import Competition

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def test_the_knockout_lengths_are_set_on_the_settings_page_and_shown_on_the_bracket(
    laptop, page, club, olga
):
    competition = swiss_of_eight(club, olga, cut_to=2)
    organizer = laptop.new_page()
    log_in(organizer, "olga", "pw-olga")
    organizer.goto(f"/c/uno/k/{competition.slug}/settings/")
    organizer.locator('select[name="semi_final_hands_to_win"]').select_option(label="best of 3")
    organizer.locator('select[name="final_hands_to_win"]').select_option(label="best of 5")
    organizer.locator('input[name="third_place"]').check()
    organizer.get_by_role("button", name="Save the settings").click()
    error = organizer.locator('[data-field="third_place"] .error')
    expect(error).to_contain_text("needs the top 4 at least, not 2")
    if SHOTS:
        error.scroll_into_view_if_needed()
        organizer.screenshot(path=f"{SHOTS}/settings-refused-1280.png")
    assert not Competition.objects.get(pk=competition.pk).third_place
    organizer.locator('input[name="cut_to"]').fill("4")
    organizer.get_by_role("button", name="Save the settings").click()
    expect(organizer.locator(".error")).to_have_count(0)
    competition.refresh_from_db()
    assert competition.third_place and competition.cut_to == 4
    assert (competition.semi_final_hands_to_win, competition.final_hands_to_win) == (2, 3)
    organizer.goto(f"/c/uno/k/{competition.slug}/settings/")
    expect(organizer.locator('select[name="final_hands_to_win"]')).to_have_value("3")
    if SHOTS:
        organizer.locator(".stage-lengths").scroll_into_view_if_needed()
        organizer.screenshot(path=f"{SHOTS}/settings-1280.png")

    for _ in range(3):
        next_round(competition, olga)
    semis = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=semis, by=by(olga))
    play_long(semis, olga, wins=2)
    services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=competition.rounds.get(number=5), by=by(olga))
    services.publish_round(round_=competition.rounds.get(number=5), by=by(olga))

    page.goto(f"/p/uno/{competition.slug}/bracket/")
    semi = page.locator(".bracket-round").filter(has_text="Semi-finals")
    expect(semi.locator("p.stage-length")).to_have_text("best of 3")
    final = page.locator(".bracket-round").filter(has_text="Final").last
    expect(final.locator("p.stage-length")).to_have_text("best of 5")
    expect(page.locator(".bracket-match.third-place .stage-length")).to_have_text("best of 3")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/bracket-390.png", full_page=True)
        organizer.goto(f"/p/uno/{competition.slug}/bracket/")
        organizer.screenshot(path=f"{SHOTS}/bracket-1280.png", full_page=True)
