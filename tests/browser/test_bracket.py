"""Issue 11, point 3 in a browser: a knockout of 6 with a third-place match, ranked by its
bracket (Anna beat Carla in the final, Elena won the third-place match)."""

import os
import re

import pytest
from playwright.sync_api import expect

from tests.tournaments.test_bracket import knockout_of_six

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def test_a_knockout_of_6_with_a_third_place_match_is_ranked_by_its_bracket(page, club, olga):
    competition, _entries = knockout_of_six(club, olga)
    page.goto(f"/p/{club.slug}/{competition.slug}/")
    rows = page.locator("#standings tbody tr")
    # each rank, then its arrow since the last round where it moved (▼1 …)
    ranks = [re.compile(rf"^{n}(\s|$)") for n in ("1", "2", "3", "4", "5", "5")]
    expect(rows.locator("td.rank")).to_have_text(ranks)
    expect(rows.locator("td.name")).to_have_text(
        ["Anna", "Carla", "Elena", "Bruno", "Dario", "Franco"]
    )
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/public-390.png", full_page=True)
    page.get_by_role("link", name="Bracket").tap()
    expect(page.get_by_role("heading", name="Final", exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="Semi-finals")).to_be_visible()
    third = page.locator(".bracket-match.third-place")
    expect(third.locator(".bracket-side.won")).to_contain_text("Elena")
    expect(page.locator("#bracket-ranking li")).to_have_text(
        ["1 Anna", "2 Carla", "3 Elena", "4 Bruno", "5 Dario", "5 Franco"]
    )
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/bracket-390.png", full_page=True)
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=f"{SHOTS}/bracket-1280.png", full_page=True)


def test_a_league_shows_its_counted_nights_and_explains_its_standings(page, club, olga):
    from tests.tournaments.test_standings_explained import best_of_one

    competition = best_of_one.__wrapped__(club, olga)
    page.goto(f"/p/{club.slug}/{competition.slug}/")
    anna = page.locator("#standings tr[data-entry]").filter(has_text="Anna")
    expect(anna.locator("td.nights .counted")).to_have_text(["100"])
    expect(anna.locator("td.nights .dropped")).to_have_text(["0"])
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/league-390.png", full_page=True)
    page.get_by_role("link", name="How these standings are computed").tap()
    expect(page.locator("td.place-points").nth(2)).to_have_text("100 · 66.67 · 33.33 · 0")
    expect(page.get_by_role("heading", name="An example: Anna")).to_be_visible()
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/how-390.png", full_page=True)
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=f"{SHOTS}/how-1280.png", full_page=True)


def test_a_double_elimination_of_6_shows_both_brackets_and_ranks_by_them(page, club, olga):
    from tests.tournaments.test_double_elimination import double_of_six, run

    competition, _entries = double_of_six(club, olga)
    run(competition, olga)
    page.goto(f"/p/{club.slug}/{competition.slug}/bracket/")
    for name in ("Winners' bracket", "Losers' bracket", "Grand final"):
        expect(page.get_by_role("heading", name=name, exact=True).first).to_be_visible()
    expect(page.get_by_role("heading", name="Losers final")).to_be_visible()
    expect(page.locator("#bracket-ranking li")).to_have_text(
        ["1 Anna", "2 Carla", "3 Elena", "4 Bruno", "5 Dario", "5 Franco"]
    )
    # The brackets scroll inside their own box; the page itself never scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/double-390.png", full_page=True)
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=f"{SHOTS}/double-1280.png", full_page=True)


def test_ten_nights_of_points_fit_a_phone_without_scrolling_sideways(page, club, olga):
    from scoring.services import Actor
    from tests.tournaments.helpers import enter, make_competition, play, terziglio_won_by
    from tournaments import services

    by = Actor.for_user(olga)
    league = make_competition(club, olga, name="Lega", kind="league", best_of=6, scheme="placement")
    enter(league, olga, 3)
    for night in range(10):
        round_ = services.add_round(competition=league, by=by)
        services.generate_round(round_=round_, by=by)
        services.publish_round(round_=round_, by=by)
        for table in round_.tables.select_related("game"):
            play(table.game, terziglio_won_by(night % 3, 3), olga)
        services.close_round(round_=round_, by=by)
    page.goto(f"/p/{club.slug}/{league.slug}/")
    lines = page.locator("#standings tr.nights-row")
    expect(lines.first).to_be_visible()
    expect(lines.first.locator(".night")).to_have_count(10)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/nights-390.png", full_page=True)
    # Neither the page nor the standings table scrolls sideways: every night's figure shows.
    overflow = page.evaluate(
        """() => [document.documentElement.scrollWidth - window.innerWidth,
                  ...[...document.querySelectorAll('#standings table')].map(
                      t => t.scrollWidth - t.parentElement.clientWidth)]"""
    )
    assert max(overflow) <= 0, overflow
    for night in lines.first.locator(".night").all():
        box = night.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_a_best_of_three_knockout_shows_2_1_on_its_bracket(page, club, olga, size):
    from tests.tournaments.test_bracket import best_of_three

    competition, _semis = best_of_three(club, olga)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"/p/{club.slug}/{competition.slug}/bracket/")
    first = page.locator(".bracket-match[data-match='1']")
    expect(first.locator("[data-match-score]")).to_have_text("2–1 after the bella")
    expect(first.locator(".bracket-side.won")).to_contain_text("Anna")
    expect(page.locator(".bracket-match[data-match='2'] [data-match-score]")).to_have_text("0–2")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/best-of-3-{size[0]}.png", full_page=True)
