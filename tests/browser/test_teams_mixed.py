"""A Terziglio palio of 4 teams of 3 over 3 rounds at mixed tables, and a Turkish one, from the
pages (issue 32 point 6): the organizer creates the competition (rotation, tables of 3, placement points),
makes it a team event at mixed tables and adds the four teams with their rosters on the teams
page (which enters their members), draws round 1 on the round page (the rotation plans the
three rounds), publishes and closes each round; the team standings on a phone (390×844) add up
the members' results and place Castello before Duomo by the classifica avulsa, as the worked
example of docs/team-standings.md computes by hand. The Turkish palio (game points, one deal a
game) ranks the lowest total of penalty points first.

The hands of each table are recorded through ``scoring.services.record_hand``, the door the
phones' score sheets use (the phone entry of a Terziglio hand has its own browser tests)."""

from itertools import combinations
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring import services as scoring
from teams import selectors as team_selectors
from tests.tournaments.helpers import play, terziglio_in_order
from tournaments.models import Competition

from .conftest import PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-teams-mixed")
TEAMS = ("Borgo", "Castello", "Duomo", "Porta")


def turkish_in_order(order):
    """One deal: the best placed goes out, the others pay 10 and 20 penalty points."""
    penalties = [{"seat": order[1], "points": 10}, {"seat": order[2], "points": 20}]
    return [{"dealer": 0, "went_out": order[0], "penalties": penalties}]


GAMES = {
    "Terziglio": {
        "scheme": "placement",
        "options": {},
        "hands": terziglio_in_order,
        "orders": [
            ["Borgo", "Castello", "Duomo", "Porta"],
            ["Duomo", "Borgo", "Castello", "Porta"],
            ["Castello", "Duomo", "Porta", "Borgo"],
        ],
        # The worked example of docs/team-standings.md.
        "standings": (("Castello", "24"), ("Duomo", "24"), ("Borgo", "20"), ("Porta", "4")),
        "note": "the highest total wins",
    },
    "Turkish": {
        "scheme": "game_score",
        "options": {"turkish__deals": "1"},
        "hands": turkish_in_order,
        "orders": [
            ["Borgo", "Castello", "Duomo", "Porta"],
            ["Castello", "Borgo", "Duomo", "Porta"],
            ["Borgo", "Castello", "Porta", "Duomo"],
        ],
        # A round: the first team 0, the second 20, the third 40, the last 60 penalty points.
        "standings": (("Borgo", "20"), ("Castello", "40"), ("Duomo", "140"), ("Porta", "160")),
        "note": "the lowest total wins",
    },
}


def _create(desk, game):
    desk.goto("/c/uno/k/new/")
    desk.get_by_label("Name", exact=True).fill(f"Palio di {game}")
    desk.get_by_label(game, exact=True).check()
    desk.get_by_label("Format").select_option("rotation")
    desk.get_by_label("Preferred table size").fill("3")
    desk.get_by_label("Smallest table").fill("3")
    desk.get_by_label("Largest table").fill("3")
    desk.get_by_label("Number of rounds").fill("3")
    desk.get_by_label("Points", exact=True).select_option(GAMES[game]["scheme"])
    if GAMES[game]["options"]:
        desk.locator("details.house-rules summary").click()
    for name, value in GAMES[game]["options"].items():
        desk.locator(f'[name="{name}"]').fill(value)
    desk.get_by_label("Public: anyone may follow the schedule and the standings online").check()
    desk.get_by_role("button", name="Create").click()
    expect(desk.locator("h1")).to_contain_text(f"Palio di {game}")
    return Competition.objects.get(name=f"Palio di {game}")


def _teams(desk, competition):
    desk.get_by_role("link", name="Teams").first.click()
    desk.get_by_label("The teams meet").select_option("mixed_tables")
    desk.get_by_role("button", name="Save the team rules").click()
    expect(desk.locator("#mixed-tables")).to_be_visible()
    for name in TEAMS:
        desk.get_by_label("Team name").fill(name)
        for i in range(1, 4):
            desk.get_by_label(f"{name} {i}", exact=True).check()
        desk.get_by_role("button", name="Add the team").click()
        expect(desk.locator(".team-list")).to_contain_text(name)
    expect(desk.locator(".team-list li")).to_have_count(4)
    assert competition.entries.count() == 12


def _play(competition, olga, game, number):
    team_of = {
        entry: team
        for team, entries in team_selectors.member_entries(competition).items()
        for entry in entries
    }
    names = {t.pk: t.name for t in competition.teams.all()}
    rank = {name: i for i, name in enumerate(GAMES[game]["orders"][number - 1])}
    hands = GAMES[game]["hands"]
    round_ = competition.rounds.get(number=number)
    for table in round_.tables.select_related("game"):
        seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
        teams = [names[team_of[e]] for e in seats]
        assert not any(a == b for a, b in combinations(teams, 2)), teams
        play(table.game, hands(sorted(range(3), key=lambda s: rank[teams[s]])), olga)


@pytest.mark.parametrize("game", ["Terziglio", "Turkish"])
def test_a_palio_at_mixed_tables_played_from_the_pages(
    browser, live_server, laptop, club, olga, game
):
    for name in TEAMS:
        for i in range(1, 4):
            scoring.new_player(club, f"{name} {i}")
    desk = laptop.new_page()
    log_in(desk, "olga", "pw-olga")
    competition = _create(desk, game)
    _teams(desk, competition)
    base = f"/c/uno/k/{competition.slug}"
    desk.goto(f"{base}/")
    desk.locator("details.add-round summary").click()
    desk.get_by_role("button", name="Add the round").click()
    for number in (1, 2, 3):
        desk.goto(f"{base}/rounds/{number}/")
        if number == 1:
            desk.locator('#draw input[name="seed"]').fill("1")
            desk.locator("#draw").get_by_role("button", name="Draw").click()
        desk.get_by_role("button", name="Publish: open the games").click()
        expect(desk.get_by_role("button", name="Close the round")).to_be_visible()
        _play(competition, olga, game, number)
        desk.get_by_role("button", name="Close the round").click()
        desk.get_by_role("button", name=f"Yes, close round {number}").click()
        expect(desk.get_by_role("button", name="Reopen the round")).to_be_visible()

    context = browser.new_context(base_url=live_server.url, **PHONE)
    phone = context.new_page()
    phone.goto(f"/p/uno/{competition.slug}/team-standings/")
    rows = phone.locator("table.mixed-standings tbody tr")
    expect(rows).to_have_count(4)
    for index, (name, total) in enumerate(GAMES[game]["standings"]):
        expect(rows.nth(index).locator("th.name")).to_contain_text(name)
        expect(rows.nth(index).locator("[data-total]")).to_have_text(total)
    expect(phone.locator('[data-note="placed"]')).to_contain_text(GAMES[game]["note"])
    if game == "Terziglio":
        expect(phone.locator(".why-list")).to_contain_text("placed by the classifica avulsa")
        expect(phone.locator(".mini-table")).to_contain_text("6 duels at shared tables")
        expect(rows.nth(0).locator("[data-members]")).to_contain_text("Castello 3 10")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    # The totals are on the screen, not behind a sideways scroll of the table.
    box = rows.nth(0).locator("[data-total]").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390, box
    SHOTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(SHOTS / f"team-standings-{game.lower()}-390.png"), full_page=True)
    context.close()
