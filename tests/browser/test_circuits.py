"""A circuit of two competitions in two clubs, run in Chromium: Olga (Circolo Uno) creates it
and invites Circolo Due on her laptop, Bea accepts on her phone and adds her club's competition,
Olga links Anna (Uno) and Elena (Due) as one person; the public standings show that person once
with both results, on a phone and a laptop, as do the projector and the CSV."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.circuits.circuit_helpers import competition_with_results

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-circuits")


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")


def test_a_circuit_of_two_clubs_with_one_person_in_both(
    browser, live_server, laptop, phone, club, other_club, olga, bea
):
    competition_with_results(club, olga, "Coppa Uno", {"Anna": 9, "Bruno": 5, "Carla": 1})
    competition_with_results(other_club, bea, "Coppa Due", {"Elena": 9, "Gina": 5})

    desk = laptop.new_page()
    log_in(desk, "olga", "pw-olga")
    desk.goto("/c/uno/")
    desk.get_by_role("link", name="Circuits").click()
    desk.get_by_label("Name").fill("Circuito delle Langhe")
    desk.get_by_label("Points by place").fill("10, 12")
    desk.get_by_role("button", name="Create").click()
    expect(desk.locator('[data-field="points_table"] .error')).to_contain_text(
        "may not earn more than the place before it"
    )
    desk.get_by_label("Points by place").fill("")
    desk.get_by_role("button", name="Create").click()
    expect(desk).to_have_url(f"{live_server.url}/c/uno/circuits/circuito-delle-langhe/")
    desk.get_by_label("Club's address").fill("due")
    desk.get_by_role("button", name="Invite").click()
    expect(desk.locator('[data-club="due"]')).to_contain_text("invited, not yet accepted")
    desk.get_by_label("Competition").select_option(label="Coppa Uno")
    desk.get_by_role("button", name="Add to the circuit").click()
    expect(desk.locator("#competitions")).to_contain_text("Coppa Uno")

    mobile = phone.new_page()
    log_in(mobile, "bea", "pw-bea")
    mobile.goto("/c/due/circuits/")
    mobile.get_by_role("button", name="Accept the invitation").tap()
    expect(mobile.locator(".circuit-place")).to_contain_text("taking part")
    mobile.get_by_label("Competition").select_option(label="Coppa Due")
    mobile.get_by_role("button", name="Add to the circuit").tap()
    expect(mobile.locator(".circuit-place")).to_contain_text("Coppa Due")
    no_sideways_scroll(mobile)
    shot(mobile, "club-circuits-390")

    desk.reload()
    desk.locator("#links").get_by_label("Player").select_option(label="Anna (Circolo Uno)")
    desk.get_by_label("is the same person as").select_option(label="Bruno (Circolo Uno)")
    desk.get_by_role("button", name="Link").click()
    expect(desk.locator('[data-field="b"] .error')).to_contain_text("same club (Circolo Uno)")
    desk.locator("#links").get_by_label("Player").select_option(label="Anna (Circolo Uno)")
    desk.get_by_label("is the same person as").select_option(label="Elena (Circolo Due)")
    desk.get_by_role("button", name="Link").click()
    expect(desk.locator("#links li")).to_contain_text("Elena (Circolo Due) = Anna (Circolo Uno)")
    shot(desk, "circuit-organizer-1280")

    public = "/circuits/uno/circuito-delle-langhe/"
    for page, name in ((mobile, "390"), (desk, "1280")):
        page.goto(public)
        rows = page.locator("table.circuit-standings tbody tr[data-person]")
        expect(rows).to_have_count(4)
        first = rows.nth(0)
        expect(first).to_contain_text("Elena / Anna")
        expect(first.locator(".points")).to_have_text("5")
        expect(first.locator(".circuit-results li")).to_have_count(2)
        # Every figure (issue 32, the director's day): points by field size, 3 + 2 for the
        # person who won both; Bruno second of three, 2; Carla (third of three) and Gina
        # (second of two) level on 1 share third place.
        expect(first.locator(".rank")).to_have_text("1")
        expect(rows.nth(1)).to_contain_text("Bruno")
        expect(rows.nth(1).locator(".points")).to_have_text("2")
        expect(rows.nth(1).locator(".rank")).to_have_text("2")
        for name in ("Carla", "Gina"):
            expect(rows.filter(has_text=name).locator(".points")).to_have_text("1")
            expect(rows.filter(has_text=name).locator(".rank")).to_have_text("3")
        expect(page.get_by_text("Elena / Anna")).to_have_count(1)
        expect(page.locator('[data-note="final"]')).to_contain_text("declared final count")
        no_sideways_scroll(page)
        shot(page, f"circuit-public-{name}")

    desk.goto(public + "projector/")
    expect(desk.locator(".standings-list li").first).to_contain_text("Elena / Anna")
    shot(desk, "circuit-projector-1280")
    csv = desk.request.get(public + "standings.csv")
    assert csv.ok and csv.headers["content-type"].startswith("text/csv")
    assert csv.text().splitlines()[1].startswith("1;Elena / Anna;Circolo Due, Circolo Uno;5;2;")


def test_the_public_circuit_says_who_can_still_win(browser, live_server, laptop, phone, club, olga):
    """Points 10, 6, 3: Anna 20, Bruno 12, Carla 6 after two finals; the final, with Bruno and
    Carla entered, still to play: Anna and Bruno can still win, Carla cannot (16 at most)."""
    from circuits import services as circuits
    from tests.builders import by

    circuit = circuits.create_circuit(
        club=club, by=by(olga), name="Stagione", points_table=[10, 6, 3]
    )
    for name in ("Coppa Uno", "Coppa Due"):
        done = competition_with_results(club, olga, name, {"Anna": 9, "Bruno": 5, "Carla": 1})
        circuits.add_competition(circuit=circuit, by=by(olga), competition=done)
    last = competition_with_results(club, olga, "Finale", {"Bruno": 0, "Carla": 0}, final=False)
    circuits.add_competition(circuit=circuit, by=by(olga), competition=last)

    for context, name in ((phone, "390"), (laptop, "1280")):
        page = context.new_page()
        page.goto(f"/circuits/uno/{circuit.slug}/")
        row = page.locator("table.circuit-standings tbody tr[data-person]")
        expect(row.nth(0).locator(".badge.outlook")).to_have_text("can still win")
        expect(row.filter(has_text="Bruno").locator(".badge.outlook")).to_have_text("can still win")
        expect(row.filter(has_text="Carla").locator(".badge.outlook")).to_have_text("cannot win")
        # The final ranks still possible, in words a phone shows (no hover there).
        expect(row.nth(0).locator("[data-ranks]")).to_have_text("Final rank between 1 and 2")
        # Carla: second if Bruno stays home; the final's field is still open, so newcomers
        # who win it could pass her: no worst rank.
        carla = row.filter(has_text="Carla").locator("[data-ranks]")
        expect(carla).to_have_text("Final rank 2 or below")
        expect(page.locator('[data-note="outlook"]')).to_contain_text("Who can still win")
        no_sideways_scroll(page)
        shot(page, f"circuit-outlook-{name}")
