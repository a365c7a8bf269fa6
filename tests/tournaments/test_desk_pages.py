"""The desk's and the prize list's pages: one tap marks a fee, refusals next to the row or the
field, the cash report (page and CSV), privacy of the books, the results sheet, and the public
page showing the prizes only once the results are final."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.builders import by
from tests.clients import field_error, login
from tournaments import services
from tournaments.models import CompetitionEvent, Payment, Prize

from .helpers import enter, make_competition
from .test_prizes import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(club, olga):
    competition = make_competition(club, olga)
    entries = enter(competition, olga, 3)
    services.set_fee(competition=competition, amount_cents=750, by=by(olga))
    return competition, entries


def url(competition, tail=""):
    return f"/c/{competition.club.slug}/k/{competition.slug}/{tail}"


def test_one_tap_marks_paid_and_a_second_tap_is_refused_by_name(desk, olga):
    competition, entries = desk
    client = login(olga)
    page = client.get(url(competition, "desk/"))
    assert page.status_code == 200 and "€7.50" in page.content.decode()
    tap = {"action": "paid", "entry": entries[0].pk, "method": "cash"}
    answer = client.post(url(competition, "desk/"), tap)
    assert answer.status_code == 302 and answer["Location"].endswith(f"#entry-{entries[0].pk}")
    again = client.post(url(competition, "desk/"), {**tap, "method": "card"})
    assert again.status_code == 400
    assert "Anna has already paid: marked on" in again.content.decode()
    assert Payment.objects.count() == 1


def test_a_method_not_in_the_list_is_refused_next_to_the_row(desk, olga):
    competition, entries = desk
    answer = login(olga).post(
        url(competition, "desk/"), {"action": "paid", "entry": entries[1].pk, "method": "gold"}
    )
    assert answer.status_code == 400 and "Method: choose one of" in answer.content.decode()
    assert not Payment.objects.exists()


@pytest.mark.parametrize("amount", ["-5", "abc", "7,505"])
def test_a_bad_fee_is_refused_next_to_its_field(desk, olga, amount):
    competition, _entries = desk
    events = CompetitionEvent.objects.count()
    answer = login(olga).post(url(competition, "desk/"), {"action": "fee", "amount_cents": amount})
    assert answer.status_code == 400
    assert field_error(answer.content.decode(), "amount_cents")
    assert CompetitionEvent.objects.count() == events


def test_the_cash_report_page_and_csv_add_up(desk, olga):
    competition, entries = desk
    services.mark_paid(entry=entries[0], method="card", by=by(olga))
    services.waive_fee(entry=entries[1], by=by(olga))
    client = login(olga)
    report = client.get(url(competition, "desk/report/")).content.decode()
    assert 'data-total="expected">€22.50' in report
    assert 'data-method="card">€7.50' in report
    csv = client.get(url(competition, "desk/report.csv")).content.decode()
    lines = csv.splitlines()
    assert lines[0] == "Name;Due;Status;Method;Received;Waived;Outstanding;Currency"
    assert "Anna;7.50;paid;card;7.50;0.00;0.00;EUR" in lines
    assert "Bruno;7.50;waived;;0.00;7.50;0.00;EUR" in lines
    assert "Carla;7.50;owes;;0.00;0.00;7.50;EUR" in lines
    assert "Expected;22.50;;;;;;EUR" in lines
    assert "Received: card;7.50;;;;;;EUR" in lines


def test_the_books_are_for_the_organizers_only(desk, sara, bea):
    competition, entries = desk
    for user in (sara, bea):
        client = login(user)
        for tail in ("desk/", "desk/report/", "desk/report.csv"):
            assert client.get(url(competition, tail)).status_code == 403
        tap = {"action": "paid", "entry": entries[0].pk, "method": "cash"}
        assert client.post(url(competition, "desk/"), tap).status_code == 403
    assert not Payment.objects.exists()


def test_undo_from_the_desk(desk, olga):
    competition, entries = desk
    services.mark_paid(entry=entries[0], method="cash", by=by(olga))
    answer = login(olga).post(
        url(competition, "desk/"), {"action": "undo", "entry": entries[0].pk, "reason": "oops"}
    )
    assert answer.status_code == 302
    assert Payment.objects.get().undo_reason == "oops"


def test_prize_page_refuses_next_to_the_field(club, olga):
    competition = make_competition(club, olga)
    client = login(olga)
    post = {"action": "add", "category": "overall", "rank": "1", "amount_cents": "50"}
    assert client.post(url(competition, "prizes/"), post).status_code == 302
    again = client.post(url(competition, "prizes/"), {**post, "object": ""})
    assert again.status_code == 400
    assert "Rank 1 of this list already has a prize" in field_error(again.content.decode(), "rank")
    bad = client.post(url(competition, "prizes/"), {**post, "rank": "0"})
    assert field_error(bad.content.decode(), "rank")
    unknown = client.post(url(competition, "prizes/"), {**post, "rank": "2", "category": "x"})
    assert field_error(unknown.content.decode(), "category")
    assert Prize.objects.count() == 1


def test_public_page_shows_prizes_only_once_final(club, olga, django_capture_on_commit_callbacks):
    competition, _entries = played(club, olga, django_capture_on_commit_callbacks)
    services.add_prize(competition=competition, rank=1, amount_cents=5001, by=by(olga))
    public = f"/p/{club.slug}/{competition.slug}/"
    page = Client().get(public).content.decode()
    assert 'id="prizes"' not in page
    services.finalize_competition(competition=competition, by=by(olga))
    page = Client().get(public).content.decode()
    assert 'id="prizes"' in page and "€25.01" in page and "€25.00" in page
    sheet = login(olga).get(url(competition, "prizes/results/")).content.decode()
    assert "€25.01" in sheet and "Provisional" not in sheet


def test_the_cash_csv_writes_amounts_as_the_readers_language_does(desk, olga):
    competition, entries = desk
    services.mark_paid(entry=entries[0], method="card", by=by(olga))
    client = login(olga)
    client.cookies["django_language"] = "it"
    lines = client.get(url(competition, "desk/report.csv")).content.decode().splitlines()
    assert lines[0] == "Nome;Dovuto;Stato;Metodo;Incassato;Condonato;Da incassare;Valuta"
    assert lines[1].startswith("Anna;7,50;") and lines[1].endswith(";7,50;0,00;0,00;EUR")
    assert "Previsto;22,50;;;;;;EUR" in lines
    client.cookies["django_language"] = "fr"
    assert "Anna;7,50;" in client.get(url(competition, "desk/report.csv")).content.decode()
    # Asked for: a point whatever the language, as the standings' CSV.
    asked = client.get(url(competition, "desk/report.csv") + "?decimal=point").content.decode()
    assert "Anna;7.50;" in asked
