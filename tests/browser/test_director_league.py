"""Issue 32, "Done means", event 3 (see test_director_day.py for events 1 and 2): a Terziglio
league of 12 players over 6 nights, the best 5 counting, a late entrant from night 3 (one
player missing each night from then on), and a correction after night 6 closed: the organizer
reopens it with a reason on the round page (1280×800), corrects a game, closes it again. The
best-5 figures are asserted against the nights worked out here, and the "corrected results"
e-mail goes out once."""

import pytest
from django.core import mail
from playwright.sync_api import expect

from scoring import services as scoring
from scoring.models import Game
from scoring.services import Actor
from tests.browser.conftest import log_in
from tests.browser.test_director_day import PLAYERS, address, shot
from tests.tournaments.helpers import make_competition, play, tables_of, terziglio_in_order
from tournaments import selectors, services
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: classic placement points at a table of three
PLACE_POINTS = (4, 2, 0)


def night(competition, olga, present=None) -> tuple[Round, dict[int, int]]:
    """A night drawn, published, played (the seats finish in seat order) and closed; the points
    each entry made, worked out from the seats."""
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    if present is not None:
        services.set_check_ins(round_=round_, entries=present, by=by)
    services.generate_round(round_=round_, by=by, seed=round_.number)
    services.publish_round(round_=round_, by=by)
    made = {}
    for table, seats in zip(round_.tables.order_by("number"), tables_of(round_), strict=True):
        assert len(seats) == 3
        play(table.game, terziglio_in_order([0, 1, 2]), olga)
        made |= {entry: PLACE_POINTS[seat] for seat, entry in enumerate(seats)}
    services.close_round(round_=Round.objects.get(pk=round_.pk), by=by)
    return Round.objects.get(pk=round_.pk), made


def best_five(nights: list[dict[int, int]], entry: int) -> tuple[int, list[int]]:
    played = [n[entry] for n in nights if entry in n]
    return sum(sorted(played, reverse=True)[:5]), played


def test_a_terziglio_league_best_five_of_six_with_a_late_entrant_and_a_correction(
    laptop, club, olga
):
    by = Actor.for_user(olga)
    competition = make_competition(
        club, olga, name="Lega di Terziglio", slug="lega", kind="league", format="club_night",
        best_of=5, planned_rounds=6, public=True,
    )  # fmt: skip
    entries = []
    for name in PLAYERS[:12]:
        entry = services.add_entry(competition=competition, player=name, by=by)
        scoring.update_player(player=entry.player, by=by, email=address(name), language="en")
        entries.append(entry)
    nights = [night(competition, olga)[1] for _ in range(2)]
    # The late entrant arrives for night 3, entered on the entries page.
    desk = laptop.new_page()
    log_in(desk, "olga", "pw-olga")
    desk.goto(f"/c/uno/k/{competition.slug}/entries/")
    desk.get_by_label("New players, one name per line").fill(PLAYERS[12])
    desk.get_by_role("button", name="Enter").click()
    late = competition.entries.get(player__display_name=PLAYERS[12])
    scoring.update_player(player=late.player, by=by, email=address(PLAYERS[12]), language="en")
    everyone = [*entries, late]
    for missing in range(4):  # nights 3 to 6: one of the first four stays home each night
        present = [e.pk for e in everyone if e != entries[missing]]
        _round, made = night(competition, olga, present)
        nights.append(made)
    assert len(nights) == 6

    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    assert len(rows) == 13
    for row in rows:
        total, played = best_five(nights, row["entry"])
        assert row["points"] == total, row["name"]
        assert sorted(p for _, p, _ in row["nights"]) == sorted(played), row["name"]
        # Six nights played: the worst one is not counted; five or fewer: all count.
        counted = [p for _, p, c in row["nights"] if c]
        assert sum(counted) == total and len(counted) == min(5, len(played))
    late_row = next(r for r in rows if r["entry"] == late.pk)
    assert len(late_row["nights"]) == 4
    # Players 5 to 12 played all six nights: their worst night is dropped.
    six = [r for r in rows if len(r["nights"]) == 6]
    assert len(six) == 8 and all(sum(not c for _, _, c in r["nights"]) == 1 for r in six)
    before = {r["entry"]: r["points"] for r in rows}
    desk.goto(f"/p/uno/{competition.slug}/standings/")
    table = desk.locator(".standings-table tbody tr[data-entry]")
    expect(table).to_have_count(13)
    for index, row in enumerate(rows):
        expect(table.nth(index)).to_have_attribute("data-entry", str(row["entry"]))
        expect(table.nth(index).locator("td.points")).to_have_text(str(row["points"]))
    shot(desk, "director-league-standings-1280")

    # Night 6, table 1 was mistyped: its last took the first place. Reopened with a reason.
    sixth = competition.rounds.get(number=6)
    first_table = tables_of(sixth)[0]
    desk.goto(f"/c/uno/k/{competition.slug}/rounds/6/#reopen")
    desk.locator("#reopen").get_by_label("Why reopen it").fill("table 1's order was mistyped")
    mail.outbox.clear()
    desk.locator("#reopen").get_by_role("button", name="Reopen the round").click()
    expect(desk.get_by_text("Round 6 is open again")).to_be_visible()
    game = Game.objects.get(pk=sixth.tables.get(number=1).game_id)
    # Seats finish 2, 1, 0 instead: the last of the table is first.
    scoring.correct_hands(
        game=game,
        changes=dict(enumerate(terziglio_in_order([2, 1, 0]), start=1)),
        by=by,
        reason="order mistyped",
    )
    desk.reload()
    desk.locator("#close button[type=submit]").first.click()
    desk.get_by_role("button", name="Yes, close round 6").click()
    expect(desk.locator("#reopen")).to_be_visible()
    nights[5] |= {first_table[2]: 4, first_table[1]: 2, first_table[0]: 0}
    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    for row in rows:
        assert row["points"] == best_five(nights, row["entry"])[0], row["name"]
    after = {r["entry"]: r["points"] for r in rows}
    assert after[first_table[2]] > before[first_table[2]]  # 0 became 4 on night 6
    # Every player of night 6 gets the corrected results of round 6, once.
    corrected = [m for m in mail.outbox if "corrected results" in m.subject]
    assert {m.subject for m in corrected} == {
        "Lega di Terziglio: your corrected results of round 6"
    }
    assert sorted(m.to[0] for m in corrected) == sorted(
        address(e.player.display_name) for e in everyone if e.pk in nights[5]
    )
    assert len(corrected) == 12
