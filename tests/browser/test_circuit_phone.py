"""Issue 37, point 7: a circuit's public page on a 390 px phone says the final ranks once when
they are everyone's ("Final rank 1 or below" was on every row), and a person's row reads as
the name beside the points with the results on a line of their own under them (the name
column was 70 px wide and each result ran over four lines)."""

import pytest
from playwright.sync_api import expect

from circuits import services as circuits
from tests.browser.test_phone_layout import shot
from tests.builders import by
from tests.circuits.circuit_helpers import competition_with_results

from .conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAID_ONCE = {
    "en-GB": "For everyone: Final rank 1 or below.",
    "fr-FR": "Rang final : 1 ou au-delà, pour tous.",
    "it-IT": "Posizione finale: 1 o oltre, per tutti.",
}


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "it-IT"])
def test_a_circuits_shared_final_ranks_are_said_once(browser, live_server, club, olga, locale):
    circuit = circuits.create_circuit(
        club=club, by=by(olga), name="Stagione", points_table=[10, 6, 3]
    )
    done = competition_with_results(club, olga, "Coppa Uno", {"Anna": 9, "Bruno": 5, "Carla": 1})
    circuits.add_competition(circuit=circuit, by=by(olga), competition=done)
    # The final's field is still open: anyone may still come first, no worst rank is known.
    last = competition_with_results(club, olga, "Finale", {"Bruno": 0, "Carla": 0}, final=False)
    circuits.add_competition(circuit=circuit, by=by(olga), competition=last)
    context = browser.new_context(base_url=live_server.url, **{**PHONE, "locale": locale})
    page = context.new_page()
    page.goto(f"/circuits/uno/{circuit.slug}/")
    rows = page.locator("table.circuit-standings tbody tr[data-person]")
    expect(rows).to_have_count(3)
    expect(page.locator("[data-ranks]")).to_have_count(0)
    note = page.locator('[data-note="ranks"]')
    expect(note).to_have_count(1)
    expect(note).to_have_text(SAID_ONCE[locale])
    name = page.locator("td.name").first.bounding_box()
    assert name["width"] > 200  # the name and its clubs, beside the rank and the points
    # The results take a line of their own under the name, as wide as the name and the points.
    results = page.locator("td.results").first.bounding_box()
    assert results["y"] >= name["y"] + name["height"] - 1
    assert results["width"] > 250
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shot(page, f"circuit-390-{locale}")
    context.close()
