"""A palio of four districts in the browser: the organizer adds a team with its roster and
draws the matches on a laptop, sets both lineups of a match of three boards, the three tables
enter their hands from their phones through the table links, the result comes from the boards
and is confirmed, and the team standings explain every tie-break (phone and laptop)."""

import re

import pytest
from playwright.sync_api import expect

from scoring import services as scoring
from scoring.models import TableLink
from scoring.services import Actor
from teams.models import TeamMatch
from teams.services import teams
from tests.browser.conftest import PHONE, TIMEOUT_MS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/teams-shots"


def _palio(club, olga):
    by = Actor.for_user(olga)
    competition = scoring_competition(club, by)
    teams.set_team_rules(competition=competition, by=by, boards=3, lots_seed="palio 2026")
    for name in ("Borgo", "Castello", "Duomo"):
        roster = [scoring.new_player(club, f"{name} {i}").pk for i in range(1, 7)]
        teams.add_team(competition=competition, name=name, players=roster, by=by)
    for i in range(1, 7):
        scoring.new_player(club, f"Porta {i}")
    return competition


def scoring_competition(club, by):
    from tournaments import services

    return services.create_competition(
        club=club, by=by, name="Palio dei rioni", rulesets=["briscola"], format="round_robin"
    )


def _shot(page, name):
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def _enter_board(browser, live_server, game, home_wins: bool):
    """One table's phone opens its game by the table link and PIN, and enters two hands."""
    context = browser.new_context(base_url=live_server.url, **PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    phone = context.new_page()
    link = TableLink.objects.get(game=game)
    phone.goto(f"/t/{link.token}/")
    phone.get_by_label("PIN").fill(link.pin)
    phone.get_by_role("button", name="Open the score sheet").tap()
    expect(phone).to_have_url(re.compile(rf"/g/{game.pk}/$"))
    sides = game.seats.order_by("index").select_related("player")
    names = [s.player.display_name for s in sides]
    home = phone.get_by_label(f"{names[0]} + {names[2]}")
    for _ in range(2):
        home.fill("70" if home_wins else "50")
        phone.locator("#hand-form").get_by_role("button", name="Save hand").tap()
        expect(home).to_have_value("")
    expect(phone.locator("#live .result")).to_be_visible()
    context.close()


def test_a_palio_with_a_match_of_three_boards_entered_from_phones(
    browser, live_server, laptop, club, olga
):
    import os

    os.makedirs(SHOTS, exist_ok=True)
    competition = _palio(club, olga)
    desk = laptop.new_page()
    log_in(desk, "olga", "pw-olga")
    base = f"/c/{club.slug}/k/{competition.slug}"

    # The fourth district and its roster, from the teams page.
    desk.goto(f"{base}/teams/")
    desk.get_by_label("Team name").fill("Porta")
    for i in range(1, 7):
        desk.get_by_label(f"Porta {i}", exact=True).check()
    desk.get_by_role("button", name="Add the team").click()
    expect(desk.locator(".team-list li")).to_have_count(4)
    expect(desk.locator(".team-list")).to_contain_text("Porta")
    # A player already on a team cannot be picked for another: the free players only.
    expect(desk.get_by_label("Borgo 1", exact=True)).to_have_count(0)
    desk.get_by_role("button", name="Draw the matches to come").click()
    expect(desk.locator(".team-matches li")).to_have_count(6)
    # The second giornata is dated: Tuesday 12 January 2027 at 21:00, both its matches.
    second = desk.locator("form", has=desk.get_by_role("button", name="Date round 2"))
    second.get_by_label("Date").fill("2027-01-12")
    second.get_by_label("Start time").fill("21:00")
    second.get_by_role("button", name="Date round 2").click()
    expect(desk.locator('.team-matches time[datetime="2027-01-12T21:00"]')).to_have_count(2)
    expect(desk.locator(".team-matches").first).to_contain_text("date to be set")
    _shot(desk, "teams-1280")

    # The lineups of the first match: three boards of two players a side.
    match = TeamMatch.objects.filter(competition=competition).order_by("round_number", "number")[0]
    desk.goto(f"{base}/matches/{match.pk}/")
    for side, team in (("home", match.home), ("away", match.away)):
        players = [f"{team.name} {i}" for i in range(1, 7)]
        for board in range(1, 4):
            for index in range(2):
                desk.locator(f"#id_{side}-board_{board}_{index}").select_option(
                    label=players[(board - 1) * 2 + index]
                )
        form = desk.locator("form", has=desk.locator(f'input[name="action"][value="{side}"]'))
        form.get_by_role("button", name="Save the lineup").click()
        expect(desk.locator(".messages, .box, body")).to_contain_text("Lineup saved")
    expect(desk.get_by_role("link", name="Enter the hands")).to_have_count(3)
    _shot(desk, "match-1280")

    # The three tables enter their hands from their phones: home wins boards 1 and 2.
    boards = list(match.boards.order_by("number").select_related("game"))
    for board, home_wins in zip(boards, (True, True, False), strict=True):
        _enter_board(browser, live_server, board.game, home_wins)

    desk.reload()
    expect(desk.locator(".team-score")).to_contain_text("2–1")
    expect(desk.locator(".team-score")).to_contain_text(f"{match.home.name} wins.")
    # A result that disagrees with the boards is refused next to its field.
    desk.get_by_label("Home", exact=True).fill("3")
    desk.get_by_label("Away", exact=True).fill("0")
    desk.get_by_role("button", name="Confirm the result").click()
    expect(desk.locator('[data-field="confirm-home_score"] .error')).to_contain_text(
        "The boards give 2, not 3"
    )
    desk.get_by_label("Home", exact=True).fill("2")
    desk.get_by_label("Away", exact=True).fill("1")
    desk.get_by_role("button", name="Confirm the result").click()
    expect(desk.locator(".team-score .badge")).to_have_text("confirmed")
    _shot(desk, "match-result-1280")

    # The standings, with each place explained, on a phone and on the laptop.
    phone = browser.new_context(base_url=live_server.url, **PHONE).new_page()
    phone.goto(f"/p/{club.slug}/{competition.slug}/team-standings/")
    rows = phone.locator("table.team-standings tbody tr")
    why = phone.locator(".why-list li")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text(match.home.name)
    # Said once above the list, which explains only the places a tie-break decided.
    expect(phone.locator("[data-note=placed]")).to_contain_text("Placed by match points.")
    expect(why).to_have_count(3)
    expect(why.first).not_to_contain_text("Placed by match points.")
    # Three districts level on 0 points, none of the matches among them played: the mini-table
    # splits nothing; the loser of the match won a board, the two others are placed by the
    # seeded lots.
    expect(rows.nth(1)).to_contain_text(match.away.name)
    # Every figure (issue 32, the director's day): a won match is 1 point (the default rules),
    # the winner 2 boards to 1; the two that have not played are 0, placed 3rd and 4th by lots.
    figures = [[rows.nth(i).locator("td").nth(c).inner_text() for c in range(4)] for i in range(4)]
    assert figures == [
        ["1", "1", "1-0-0", "2–1"],
        ["2", "0", "0-0-1", "1–2"],
        ["3", "0", "0-0-0", "0–0"],
        ["4", "0", "0-0-0", "0–0"],
    ], figures
    expect(why.nth(0)).to_contain_text("placed by boards won (1)")
    expect(why.nth(1)).to_contain_text("placed by the drawing of lots (seed “palio 2026”)")
    expect(phone.locator(".tie-breaks")).to_contain_text("Classifica avulsa")
    expect(phone.locator(".tie-breaks")).to_contain_text("Head to head")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the standings are wider than the phone ({width}px)"
    _shot(phone, "standings-390")
    fixtures = phone.locator(".team-fixtures li")
    expect(fixtures.first).to_contain_text("Tue 12 Jan, 21:00")
    desk.goto(f"/p/{club.slug}/{competition.slug}/team-standings/")
    _shot(desk, "standings-1280")
    # The player page counts the boards.
    player = match.home.roster.order_by("player__display_name").first().player
    desk.goto(f"/c/{club.slug}/players/{player.pk}/")
    expect(desk.locator(".player-teams")).to_contain_text("1 board played, 1 won")
