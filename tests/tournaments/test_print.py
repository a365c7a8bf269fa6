"""Paper (issue 11 point 8): a score sheet per table with the players, who deals each hand, the
game's columns and a row per expected hand; printable standings through print CSS."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring.services import Actor
from tests.clients import login
from tournaments import services
from tournaments.views.printouts import expected_hands

from .helpers import enter, make_competition

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("minutes", "seats", "rows"),
    [(90, 3, 15), (90, 4, 16), (20, 5, 10), (60, 6, 12), (10, 2, 4)],
)
def test_a_sheet_has_a_row_per_expected_hand_in_whole_deals_round_the_table(minutes, seats, rows):
    assert expected_hands(minutes, seats) == rows


def test_score_sheets_of_a_published_round(club, olga):
    competition = make_competition(club, olga, slug="coppa", planned_rounds=1)
    enter(competition, olga, 7)  # a table of 4 and one of 3
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by, duration_minutes=60)
    services.generate_round(round_=round_, by=by, seed=2)
    client = login(olga)
    draft = client.get("/c/uno/k/coppa/rounds/1/sheets/").content.decode()
    assert "Publish it first." in draft and "score-sheet" not in draft.split("</h1>", 1)[1].split(
        "<script", 1
    )[0].replace("print-sheets", "")
    services.publish_round(round_=round_, by=by)
    html = client.get("/c/uno/k/coppa/rounds/1/sheets/").content.decode()
    sheets = html.split('<section class="score-sheet"')[1:]
    assert len(sheets) == round_.tables.count() == 2
    for sheet, table in zip(sheets, round_.tables.order_by("number"), strict=True):
        names = [s.player.display_name for s in table.game.seats.all()]
        order = re.search(r"Dealing order:</strong> (.*?)</p>", sheet).group(1)
        assert order.startswith(" ".join([f"1. {names[0]}"]))
        dealers = re.findall(r'<td class="dealer">(.*?)</td>', sheet)
        assert len(dealers) == expected_hands(60, len(names))
        assert dealers == [names[i % len(names)] for i in range(len(dealers))]
        heads = re.findall(r'<th scope="col" class="(?:col|player)">(.*?)</th>', sheet)
        assert heads[:3] == ["Outcome", "Soloist", "Contract"] and heads[-len(names) :] == names
        if len(names) == 4:
            assert "the dealer sits out" in sheet
    round_page = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert 'href="/c/uno/k/coppa/rounds/1/sheets/"' in round_page
    assert Client().get("/c/uno/k/coppa/rounds/1/sheets/").status_code == 302  # login first


def test_the_standings_page_prints(club, olga):
    make_competition(club, olga, slug="coppa")
    html = Client().get("/p/uno/coppa/").content.decode()
    assert "data-print>Print the standings</button>" in html and "js/print.js" in html
    assert 'class="print-standings"' in html


def test_the_sheet_of_a_best_of_three_has_three_rows_and_labelled_columns(club, olga):
    competition = make_competition(
        club,
        olga,
        slug="coppa",
        rulesets=["briscola"],
        format="knockout",
        options={"briscola": {"hands_to_win": 2}},
    )
    enter(competition, olga, 4, seeded=True)
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by, duration_minutes=60)
    services.generate_round(round_=round_, by=by)
    services.publish_round(round_=round_, by=by)
    html = login(olga).get("/c/uno/k/coppa/rounds/1/sheets/").content.decode()
    sheets = html.split('<section class="score-sheet"')[1:]
    assert len(sheets) == 2
    for sheet, table in zip(sheets, round_.tables.order_by("number"), strict=True):
        names = [s.player.display_name for s in table.game.seats.all()]
        assert len(re.findall(r'<td class="dealer">', sheet)) == 3  # 2–1 at the longest
        assert f"<h2>Table {table.number} · Briscola · best of 3</h2>" in sheet
        heads = re.findall(r'<th scope="col" class="(?:col|player)">(.*?)</th>', sheet)
        assert "None" not in heads
        assert heads == [
            f"Card points: {names[0]}",
            f"Card points: {names[1]}",
            f"Hands won: {names[0]}",
            f"Hands won: {names[1]}",
        ]
