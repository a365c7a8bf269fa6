"""The desk and the prizes in Chromium (issue 24 points 4 and 5): fees marked in one tap on a
phone at the door (390×844) and the cash report adding up, then on the organizer's laptop
(1280×800); on the laptop too, a prize list whose first prize is split by a tie, and the final results sheet printed."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.services import Actor
from tests.tournaments.helpers import play, terziglio_in_order
from tournaments import services
from tournaments.models import Payment, Round

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-desk")


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_fees_marked_at_the_desk_on_a_phone_add_up(olga_page, laptop, club, olga):
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club, by=by, name="Coppa", slug="coppa", rulesets=["terziglio"]
    )
    entries = [
        services.add_entry(competition=competition, player=name, by=by)
        for name in ("Anna", "Bruno", "Carla", "Dario")
    ]
    services.set_fee(competition=competition, amount_cents=500, by=by)
    page = olga_page
    page.goto("/c/uno/k/coppa/desk/")
    expect(page.locator('[data-total="expected"]')).to_have_text("€20.00")
    row = page.locator(f"#entry-{entries[0].pk}")
    row.get_by_role("button", name="Cash").tap()
    expect(page.locator(f'#entry-{entries[0].pk} [data-status="paid"]')).to_have_text("paid · cash")
    page.locator(f"#entry-{entries[1].pk}").get_by_role("button", name="Card").tap()
    expect(page.locator(f'#entry-{entries[1].pk} [data-status="paid"]')).to_be_visible()
    page.locator(f"#entry-{entries[2].pk}").get_by_role("button", name="Waive").tap()
    expect(page.locator(f'#entry-{entries[2].pk} [data-status="waived"]')).to_be_visible()
    expect(page.locator('[data-total="received"]')).to_have_text("€10.00")
    expect(page.locator('[data-total="waived"]')).to_have_text("€5.00")
    expect(page.locator('[data-total="outstanding"]')).to_have_text("€5.00")
    no_sideways_scroll(page)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "desk-390.png"), full_page=True)
    # Undo a mark: the entry owes again.
    undo = page.locator(f"#entry-{entries[1].pk}")
    undo.get_by_role("textbox").fill("wrong player")
    undo.get_by_role("button", name="Undo").tap()
    expect(page.locator('[data-total="outstanding"]')).to_have_text("€10.00")
    assert Payment.objects.filter(undone_at__isnull=True).count() == 2
    page.goto("/c/uno/k/coppa/desk/report/")
    expect(page.locator('.cash-totals [data-total="expected"]')).to_have_text("€20.00")
    expect(page.locator('[data-method="cash"]')).to_have_text("€5.00")
    expect(page.locator('[data-method="card"]')).to_have_text("€0.00")
    no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS / "cash-report-390.png"), full_page=True)
    # The organizer's laptop: the same books, the desk and the report at 1280×800.
    desk = laptop.new_page()
    log_in(desk, "olga", "pw-olga")
    desk.goto("/c/uno/k/coppa/desk/")
    expect(desk.locator('[data-total="received"]')).to_have_text("€5.00")
    expect(desk.locator('[data-total="outstanding"]')).to_have_text("€10.00")
    desk.locator(f"#entry-{entries[3].pk}").get_by_role("button", name="Transfer").click()
    expect(desk.locator('[data-total="outstanding"]')).to_have_text("€5.00")
    desk.screenshot(path=str(SHOTS / "desk-1280.png"), full_page=True)
    desk.goto("/c/uno/k/coppa/desk/report/")
    expect(desk.locator('[data-method="transfer"]')).to_have_text("€5.00")
    expect(desk.locator('.cash-totals [data-total="received"]')).to_have_text("€10.00")
    no_sideways_scroll(desk)
    desk.screenshot(path=str(SHOTS / "cash-report-1280.png"), full_page=True)


def test_a_prize_list_with_a_tie_and_the_results_sheet_printed(
    laptop, club, olga, django_capture_on_commit_callbacks
):
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club,
        by=by,
        name="Coppa",
        slug="coppa",
        rulesets=["terziglio"],
        scheme="placement",
        planned_rounds=1,
    )
    for name in ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"):
        services.add_entry(competition=competition, player=name, by=by)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.select_related("game"):
            play(table.game, terziglio_in_order([0, 1, 2]), olga)
    services.close_round(round_=Round.objects.get(pk=round_.pk), by=by)
    page = laptop.new_page()
    log_in(page, "olga", "pw-olga")
    page.goto("/c/uno/k/coppa/prizes/")
    form = page.locator("#add-prize")
    for rank, amount in (("1", "50"), ("2", "30,01")):
        form.get_by_label("Rank").fill(rank)
        form.get_by_label("Money (EUR)").fill(amount)
        form.get_by_role("button", name="Add the prize").click()
        expect(page.locator(".prize-list li")).to_have_count(int(rank))
    form.get_by_label("Rank").fill("3")
    form.get_by_label("or an object").fill("Bottle of wine")
    form.get_by_role("button", name="Add the prize").click()
    # The two winners of a table each tie on 4 points: 50.00 + 30.01 shared, the odd cent to
    # the better tie-break.
    awards = page.locator("#awards tbody tr")
    expect(awards).to_have_count(3)
    expect(awards.nth(0).locator(".prize")).to_have_text("€40.01")
    expect(awards.nth(1).locator(".prize")).to_have_text("€40.00")
    expect(awards.nth(0).locator("td").nth(1)).to_have_text("1–2")
    expect(awards.nth(2).locator(".prize")).to_have_text("Bottle of wine")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "prizes-1280.png"), full_page=True)
    # A rank twice is refused next to its field.
    form = page.locator("#add-prize")
    form.get_by_label("Rank").fill("1")
    form.get_by_label("Money (EUR)").fill("5")
    form.get_by_role("button", name="Add the prize").click()
    expect(page.locator('[data-field="rank"] .error')).to_contain_text("Rank 1 of this list")
    services.finalize_competition(competition=competition, by=by)
    page.goto("/c/uno/k/coppa/prizes/results/")
    expect(page.locator(".results-sheet tbody tr")).to_have_count(6)
    expect(page.locator(".results-sheet .prize").first).to_have_text("€40.01")
    page.emulate_media(media="print")
    expect(page.locator(".topbar")).to_be_hidden()
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    page.screenshot(path=str(SHOTS / "results-print.png"), full_page=True)
    pdf = page.pdf(format="A4")
    assert pdf[:4] == b"%PDF"
    (SHOTS / "results.pdf").write_bytes(pdf)
    page.emulate_media(media="screen")
    public = laptop.new_page()
    public.goto("/p/uno/coppa/")
    expect(public.locator("#prizes tbody tr")).to_have_count(3)
    public.screenshot(path=str(SHOTS / "public-1280.png"), full_page=True)
