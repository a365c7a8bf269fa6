"""The draw panel as an organizer uses it (issue 11 point 5): draw with "spread them", read who
repeats, preview a swap and confirm it, on a phone and on a laptop."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.services import Actor
from tournaments import services
from tournaments.models import Competition

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-drawq")
TWENTY = [
    "Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo", "Ivo", "Lia",
    "Mario", "Nina", "Olivia", "Piero", "Rita", "Sandro", "Tina", "Vito", "Zeno", "Wanda",
]  # fmt: skip


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_organizer_draws_reads_the_repeats_and_previews_a_swap(
    browser, live_server, club, olga, width, height
):
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club, by=by, name="Coppa", slug="coppa", rulesets=["briscola_chiamata"],
        planned_rounds=4,
    )  # fmt: skip
    for name in TWENTY:
        services.add_entry(competition=competition, player=name, by=by)
    services.add_round(competition=competition, by=by)
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": width, "height": height}, has_touch=True
    )
    page = context.new_page()
    log_in(page, "olga", "pw-olga")
    page.goto("/c/uno/k/coppa/rounds/1/")
    spread = page.get_by_label("spread them: the fewest meetings for any one pair")
    expect(spread).to_be_checked()
    page.locator('#draw input[name="seed"]').fill("7")
    page.locator("#draw").get_by_role("button", name="Draw").click()
    expect(page.locator('[data-quality="floor"]')).to_have_text(
        "At least 12 repeated meetings are unavoidable; no pair needs to meet more than 2 times."
    )
    page.goto("/c/uno/k/coppa/rounds/4/")
    expect(page.locator('[data-repeats="round"] li').first).to_contain_text("Met once before:")
    expect(page.locator('[data-repeats="plan"]')).not_to_contain_text("Meet 3 times")
    page.locator("#quality").scroll_into_view_if_needed()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"draw-quality-{width}.png"), full_page=True)
    options = page.locator('#swap select[name="a"] option')
    first, second = options.nth(1).get_attribute("value"), options.nth(8).get_attribute("value")
    page.locator('#swap select[name="a"]').select_option(first)
    page.locator('#swap select[name="b"]').select_option(second)
    page.get_by_role("button", name="Preview").click()
    box = page.locator("#swap-preview")
    expect(box).to_be_visible()
    expect(box.locator("tbody tr")).to_have_count(2)
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"swap-preview-{width}.png"))
    box.get_by_role("button", name="Confirm the swap").click()
    expect(page.locator("#swap-preview")).to_have_count(0)
    expect(page.locator('[data-metric="seconds"]')).to_have_count(0)
    assert Competition.objects.get(pk=competition.pk).repeat_objective == "spread"
    context.close()
