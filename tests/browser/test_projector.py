"""The projector at 1920×1080 (issue 11 point 7): 40 entries, every standings row and every
table shown (a page at a time), names on one line; the round timer counts down live; and
"where do I sit?" finds a player by typing."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.services import Actor
from tournaments import services
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-drawq")

FORTY = [
    f"{first} {last}"
    for first in ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo")
    for last in ("Rossi", "Bianchi", "Esposito-Mastrangelo di Sant'Agata", "Ferrari", "Greco")
]


@pytest.fixture
def forty(club, olga):
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club, by=by, name="Coppa d'autunno", slug="coppa", rulesets=["terziglio"],
        planned_rounds=1,
    )  # fmt: skip
    for name in FORTY:
        services.add_entry(competition=competition, player=name, by=by)
    round_ = services.add_round(competition=competition, by=by, duration_minutes=90)
    services.generate_round(round_=round_, by=by, seed=3)
    services.publish_round(round_=round_, by=by)
    return competition


def visible_texts(page, selector: str) -> set[str]:
    """Texts of the elements shown, each wholly inside the 1920×1080 window."""
    return set(
        page.eval_on_selector_all(
            selector,
            """els => els.filter(e => {
                 const r = e.getBoundingClientRect();
                 return e.offsetParent !== null && r.height > 0 && r.top >= 0 && r.left >= 0
                   && r.bottom <= innerHeight && r.right <= innerWidth;
               }).map(e => e.dataset.entry || e.dataset.table)""",
        )
    )


def test_the_projector_shows_every_one_of_forty_rows_at_1920_by_1080(browser, live_server, forty):
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1920, "height": 1080}
    )
    page = context.new_page()
    page.clock.install()
    page.goto("/p/uno/coppa/projector/")
    rows = page.locator(".standings-list li")
    expect(rows).to_have_count(40)
    tables = page.locator(".tables-list .table-box")
    count = tables.count()
    assert count == Round.objects.get(competition=forty).tables.count()
    assert page.evaluate("document.scrollingElement.scrollHeight") <= 1080  # nothing below
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "projector-1920.png"))
    pages = int(
        page.locator(".projector-standings [data-pager-page]").inner_text().split()[-1] or 1
    )
    seen_rows, seen_tables = set(), set()
    for _ in range(pages * 2):
        seen_rows |= visible_texts(page, ".standings-list li")
        seen_tables |= visible_texts(page, ".tables-list .table-box")
        page.clock.run_for(10_000)
    assert len(seen_rows) == 40  # every row shown on some page, none cut off
    assert len(seen_tables) == count
    # Names stay on one line: a long name is cut with an ellipsis, the full name in its title.
    long_name = page.locator(".standings-list .name", has_text="Sant'Agata").first
    assert long_name.evaluate("e => getComputedStyle(e).whiteSpace") == "nowrap"
    assert long_name.evaluate("e => getComputedStyle(e).textOverflow") == "ellipsis"
    assert "Sant'Agata" in long_name.get_attribute("title")
    # The QR code leads to "where do I sit?".
    assert page.locator(".projector-qr").get_attribute("href").endswith("/p/uno/coppa/where/")
    assert page.locator(".projector-qr svg").count() == 1
    context.close()


def test_where_do_i_sit_lists_names_alphabetically_and_filters_as_you_type(page, forty):
    page.goto("/p/uno/coppa/where/")
    names = page.locator(".where-list li a")
    expect(names).to_have_count(40)
    shown = names.all_inner_texts()
    assert shown == sorted(FORTY, key=str.casefold)
    page.locator("[data-where-filter]").fill("ferr")
    expect(page.locator(".where-list li:visible")).to_have_count(8)
    page.locator("[data-where-filter]").fill("ÉLENA ferr")  # case and accents ignored
    expect(page.locator(".where-list li:visible")).to_have_text(["Elena Ferrari"])
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "where-390.png"))
    page.locator("[data-where-filter]").press("Enter")
    expect(page.locator(".where-answer h2")).to_have_text("Elena Ferrari")
    expect(page.locator(".where-answer .big-answer")).to_contain_text("Table")
    page.locator("[data-where-filter]").fill("Zorro")
    expect(page.locator("[data-where-none]")).to_be_visible()


def test_the_projector_counts_down_once_the_organizer_starts_the_timer(
    browser, live_server, forty, olga
):
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1920, "height": 1080}
    )
    page = context.new_page()
    page.clock.install()
    page.goto("/p/uno/coppa/projector/")
    clock = page.locator(".projector-timer .timer-clock")
    expect(clock).to_have_text("1:30:00")
    expect(page.locator(".projector-timer")).to_have_attribute("data-state", "idle")
    round_ = Round.objects.get(competition=forty)
    services.set_round_timer(round_=round_, by=Actor.for_user(olga), action="start")
    page.clock.run_for(5_000)  # the projector asks the server
    expect(page.locator(".projector-timer")).to_have_attribute("data-state", "running")
    # Between two polls the screen counts down by itself (the fake clock runs 3 s; the server
    # answered with what was left when it was asked).
    page.clock.run_for(3_000)
    left = clock.inner_text()
    assert left.startswith("1:29:5") and left != "1:30:00"
    services.set_round_timer(round_=round_, by=Actor.for_user(olga), action="pause")
    page.clock.run_for(5_000)
    expect(page.locator(".projector-timer")).to_have_attribute("data-state", "paused")
    expect(page.locator(".projector-timer .timer-label")).to_have_text("paused")
    context.close()
