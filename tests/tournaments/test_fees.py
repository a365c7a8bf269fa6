"""Entry fees at the desk: the fee, marks (paid with a method, waived), undoing a mark, and the
cash report adding up (expected = received + waived + outstanding, per method too)."""

from __future__ import annotations

import pytest

from scoring.messages import message
from scoring.rules import RuleViolation
from scoring.services import NotAllowed
from tests.builders import by
from tests.clients import api_as
from tests.concurrency import race
from tournaments import selectors, services
from tournaments.models import CompetitionEvent, Entry, Fee, Payment

from .helpers import codes, enter, enter_pairs, make_competition

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(club, olga):
    competition = make_competition(club, olga)
    entries = enter(competition, olga, 5)
    services.set_fee(competition=competition, amount_cents=500, by=by(olga))
    return competition, entries


def books():
    return (
        CompetitionEvent.objects.count(),
        list(Payment.objects.order_by("pk").values_list("kind", "method", "undone_at")),
        list(Fee.objects.values_list("amount_cents", "basis")),
    )


def test_cash_report_adds_up_per_method(desk, olga, oscar):
    competition, (anna, bruno, carla, dario, _elena) = desk
    services.mark_paid(entry=anna, method="cash", by=by(olga))
    services.mark_paid(entry=bruno, method="card", by=by(oscar))
    services.mark_paid(entry=carla, method="transfer", by=by(olga))
    services.waive_fee(entry=dario, by=by(olga), reason="helper")
    report = selectors.cash_report(competition)
    assert report["expected"] == 2500
    assert (report["received"], report["waived"], report["outstanding"]) == (1500, 500, 500)
    assert report["methods"] == {"cash": 500, "card": 500, "transfer": 500}
    assert report["expected"] == report["received"] + report["waived"] + report["outstanding"]
    assert report["received"] == sum(report["methods"].values())
    assert report["counts"] == {"paid": 3, "waived": 1, "outstanding": 1}
    assert report["currency"] == "EUR"


def test_a_second_mark_is_refused_by_name_and_nothing_changes(desk, olga, oscar):
    _competition, entries = desk
    services.mark_paid(entry=entries[0], method="cash", by=by(olga))
    before = books()
    with pytest.raises(RuleViolation) as refused:
        services.mark_paid(entry=entries[0], method="card", by=by(oscar))
    assert codes(refused.value) == {("entry", "not_allowed")}
    text = message(refused.value.problems[0])
    assert text.startswith("Anna has already paid: marked on ")
    assert "by olga" in text
    with pytest.raises(RuleViolation):
        services.waive_fee(entry=entries[0], by=by(oscar))
    assert books() == before


def test_undo_keeps_the_mark_in_the_books_and_the_entry_owes_again(desk, olga):
    competition, entries = desk
    services.mark_paid(entry=entries[0], method="cash", by=by(olga))
    services.undo_payment(entry=entries[0], by=by(olga), reason="wrong player")
    undone = Payment.objects.get()
    assert undone.undone_at is not None and undone.undo_reason == "wrong player"
    assert selectors.cash_report(competition)["outstanding"] == 2500
    assert CompetitionEvent.objects.filter(action="fee_undone").get().data["method"] == "cash"
    services.mark_paid(entry=entries[0], method="card", by=by(olga))
    assert selectors.cash_report(competition)["methods"]["card"] == 500
    with pytest.raises(RuleViolation) as refused:
        services.undo_payment(entry=entries[1], by=by(olga))
    assert "nothing to undo" in message(refused.value.problems[0])


@pytest.mark.parametrize(
    ("amount", "code"), [(-100, "range"), (10**9, "range"), ("5", "type"), (True, "type")]
)
def test_a_bad_amount_is_refused_naming_the_field(club, olga, amount, code):
    competition = make_competition(club, olga)
    before = books()
    with pytest.raises(RuleViolation) as refused:
        services.set_fee(competition=competition, amount_cents=amount, by=by(olga))
    assert codes(refused.value) == {("amount_cents", code)}
    assert books() == before


def test_a_method_not_in_the_list_is_refused(desk, olga):
    _competition, entries = desk
    before = books()
    with pytest.raises(RuleViolation) as refused:
        services.mark_paid(entry=entries[0], method="bitcoin", by=by(olga))
    assert codes(refused.value) == {("method", "choice")}
    assert "bitcoin" in message(refused.value.problems[0])
    assert books() == before


def test_no_fee_no_mark_and_a_bad_basis(club, olga):
    competition = make_competition(club, olga)
    entry = enter(competition, olga, 1)[0]
    with pytest.raises(RuleViolation) as refused:
        services.mark_paid(entry=entry, method="cash", by=by(olga))
    assert "charges no fee" in message(refused.value.problems[0])
    with pytest.raises(RuleViolation) as refused:
        services.set_fee(competition=competition, amount_cents=100, basis="team", by=by(olga))
    assert codes(refused.value) == {("basis", "choice")}


def test_pairs_charged_per_player_owe_twice(club, olga):
    competition = make_competition(
        club, olga, rulesets=["briscola"], options={"briscola": {"format": "pairs"}}
    )
    pairs = enter_pairs(competition, olga, 2)
    services.set_fee(competition=competition, amount_cents=300, basis="player", by=by(olga))
    services.mark_paid(entry=pairs[0], method="cash", by=by(olga))
    report = selectors.cash_report(competition)
    assert (report["expected"], report["received"], report["outstanding"]) == (1200, 600, 600)
    # A later change of the fee leaves the books as marked.
    services.set_fee(competition=competition, amount_cents=400, by=by(olga))
    report = selectors.cash_report(competition)
    assert (report["received"], report["outstanding"]) == (600, 400)


def test_a_withdrawn_entry_never_marked_owes_nothing(desk, olga):
    competition, entries = desk
    services.withdraw_entry(entry=entries[4], by=by(olga), reason="ill")
    assert selectors.cash_report(competition)["expected"] == 2000


def test_only_organizers_keep_the_books(desk, sara, bea):
    _competition, entries = desk
    for user in (sara, bea):
        with pytest.raises(NotAllowed):
            services.mark_paid(entry=entries[0], method="cash", by=by(user))
    assert not Payment.objects.exists()


def test_the_books_stay_open_once_the_results_are_final(desk, olga):
    competition, entries = desk
    competition.finalized_at = competition.created_at
    competition.save(update_fields=["finalized_at"])
    services.mark_paid(entry=entries[0], method="cash", by=by(olga))
    assert selectors.cash_report(competition)["received"] == 500


# -- the API -----------------------------------------------------------------------------------


def test_the_desk_through_the_api(desk, olga):
    competition, entries = desk
    api = api_as(olga)
    base = f"/api/v1/competitions/{competition.pk}"
    assert api.get(f"{base}/fee/").json() == {
        "amount_cents": 500,
        "basis": "entry",
        "currency": "EUR",
    }
    assert api.put(f"{base}/fee/", {"amount_cents": 600}, format="json").status_code == 200
    paid = api.post(f"{base}/entries/{entries[0].pk}/payment/", {"method": "card"}, format="json")
    assert paid.status_code == 201
    assert paid.json()["payment"]["mark"] == "paid" and paid.json()["due_cents"] == 600
    again = api.post(f"{base}/entries/{entries[0].pk}/payment/", {"method": "cash"}, format="json")
    assert again.status_code == 400
    (error,) = again.json()["errors"]
    assert error["field"] == "entry" and "already paid" in error["message"]
    waived = api.post(f"{base}/entries/{entries[1].pk}/payment/", {"mark": "waived"}, format="json")
    assert waived.json()["status"] == "waived"
    report = api.get(f"{base}/cash-report/").json()
    assert report["expected_cents"] == 3000
    assert report["received_cents"] + report["waived_cents"] + report["outstanding_cents"] == 3000
    assert report["methods"] == {"cash": 0, "card": 600, "transfer": 0}
    rows = api.get(f"{base}/payments/").json()["results"]
    assert [r["status"] for r in rows] == ["paid", "waived", "owes", "owes", "owes"]
    undo = api.post(f"{base}/entries/{entries[0].pk}/payment/undo/", {}, format="json")
    assert undo.status_code == 200 and undo.json()["status"] == "owes"


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("fee/", {"amount_cents": -1}, "amount_cents"),
        ("fee/", {"amount_cents": 5_000_000}, "amount_cents"),
        ("fee/", {"amount_cents": "5"}, "amount_cents"),
        ("fee/", {"amount_cents": 5, "basis": "team"}, "basis"),
        ("entries/{entry}/payment/", {"method": "bitcoin"}, "method"),
        ("entries/{entry}/payment/", {"mark": "stolen"}, "mark"),
    ],
)
def test_api_refuses_bad_input_naming_the_field(desk, olga, path, body, field):
    competition, entries = desk
    before = books()
    url = f"/api/v1/competitions/{competition.pk}/" + path.format(entry=entries[0].pk)
    method = "put" if path == "fee/" else "post"
    answer = getattr(api_as(olga), method)(url, body, format="json")
    assert answer.status_code == 400
    assert [e["field"] for e in answer.json()["errors"]] == [field]
    assert books() == before


def test_api_books_are_for_the_organizers_only(desk, sara, bea):
    competition, entries = desk
    base = f"/api/v1/competitions/{competition.pk}"
    for user in (sara, bea):
        api = api_as(user)
        for path in ("fee/", "payments/", "cash-report/"):
            assert api.get(f"{base}/{path}").status_code == 403
        tap = api.post(
            f"{base}/entries/{entries[0].pk}/payment/", {"method": "cash"}, format="json"
        )
        assert tap.status_code == 403
    competition.public = False
    competition.save(update_fields=["public"])
    assert api_as(bea).get(f"{base}/cash-report/").status_code == 404
    assert not Payment.objects.exists()


# -- two phones at the desk at once --------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_taps_at_once_record_one_payment_and_refuse_the_other(club, olga, oscar):
    """Real commits (on PostgreSQL: two connections, the second waits for the competition's
    lock): one payment, the other tap refused by name, no database error."""
    competition = make_competition(club, olga)
    entry = enter(competition, olga, 1)[0]
    services.set_fee(competition=competition, amount_cents=500, by=by(olga))

    def tap(user, method):
        return (
            lambda: Entry.objects.select_related("competition__club", "player").get(pk=entry.pk),
            lambda fresh: services.mark_paid(entry=fresh, method=method, by=by(user)),
        )

    outcomes = race(tap(olga, "cash"), tap(oscar, "card"))
    assert sorted(kind for kind, _result in outcomes) == ["done", "refused"]
    refusal = next(result for kind, result in outcomes if kind == "refused")
    assert codes(refusal) == {("entry", "not_allowed")}
    assert Payment.objects.count() == 1
