"""The manual pairing editor (``services.pairing.move_entry``, issue 32 point 7a): any entry of a
round not yet started moved to any seat, the quality figures measured again, an impossible table
refused by its field with nothing changed, every move audited."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from scoring.messages import message
from scoring.models import TableLink
from scoring.rules import RuleViolation
from scoring.services import Actor, Conflict, NotAllowed
from tests.clients import api_as, field_error, login
from tournaments import scheduling, selectors, services
from tournaments.models import CompetitionEvent
from tournaments.services.pairing import check_tables, moved

from .helpers import (
    byes_of,
    codes,
    enter,
    make_competition,
    play,
    published_night,
    tables_of,
    terziglio_won_by,
)
from .test_changes import give_emails, seats_of_game


@pytest.fixture
def draft(club, olga):
    """A club night of 7 Terziglio players drawn (seed 1), not published: tables of 4 and 3."""
    competition = make_competition(club, olga, format="club_night")
    entries = enter(competition, olga, 7)
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=round_, by=Actor.for_user(olga), seed=1)
    round_.entries = entries
    return round_


ROUND = scheduling.Round(((1, 2, 3, 4), (5, 6, 7)), (8,))


@pytest.mark.parametrize(
    ("entry", "table", "seat", "tables", "byes"),
    [
        pytest.param(1, 2, 4, ((2, 3, 4), (5, 6, 7, 1)), (8,), id="to-a-free-seat"),
        pytest.param(1, 2, None, ((2, 3, 4), (5, 6, 7, 1)), (8,), id="to-the-end"),
        pytest.param(1, 2, 2, ((6, 2, 3, 4), (5, 1, 7)), (8,), id="taken-seat-swaps"),
        pytest.param(4, 1, 1, ((4, 1, 2, 3), (5, 6, 7)), (8,), id="same-table-deals-first"),
        pytest.param(8, 2, 1, ((1, 2, 3, 4), (8, 6, 7)), (5,), id="from-a-bye-occupant-sits-out"),
        pytest.param(8, 2, 4, ((1, 2, 3, 4), (5, 6, 7, 8)), (), id="from-a-bye-to-a-free-seat"),
        pytest.param(4, 0, None, ((1, 2, 3), (5, 6, 7)), (8, 4), id="to-a-bye"),
        pytest.param(9, 1, 2, ((1, 9, 3, 4), (5, 6, 7)), (8, 2), id="from-outside-the-round"),
    ],
)
def test_a_move_puts_the_entry_at_its_seat(entry, table, seat, tables, byes):
    assert moved(ROUND, entry, table, seat) == scheduling.Round(tables, byes)


@pytest.mark.parametrize(
    ("entry", "table", "seat", "field"),
    [
        pytest.param(1, 3, 1, "table", id="no-such-table"),
        pytest.param(1, 2, 5, "seat", id="past-the-free-seat"),
        pytest.param(1, 1, 5, "seat", id="same-table-no-free-seat"),
        pytest.param(1, 2, 0, "seat", id="seat-zero"),
        pytest.param(8, 0, None, "table", id="already-a-bye"),
    ],
)
def test_a_move_to_no_seat_is_refused_by_its_field(entry, table, seat, field):
    with pytest.raises(RuleViolation) as refused:
        moved(ROUND, entry, table, seat)
    assert {p.field for p in refused.value.problems} == {field}


def test_impossible_tables_are_refused_by_their_field():
    with pytest.raises(RuleViolation) as refused:
        check_tables([(1, 2, 3), (3, 4, 5)], (3, 4), {})
    assert codes(refused.value) == {("entry", "not_allowed")}
    assert refused.value.problems[0].params["reason"] == "seated_twice"
    with pytest.raises(RuleViolation) as refused:
        check_tables([(1, 2, 3), (4, 5, 6, 7, 8)], (3, 4), {})
    assert codes(refused.value) == {("table", "not_allowed")}
    assert "Table 2 would seat 5: the tables of this competition seat 3 to 4." in message(
        refused.value.problems[0]
    )
    with pytest.raises(RuleViolation) as refused:
        check_tables([(1, 2, 3)], (3, 4), {2: "Bruno"}, before=[(1, 2, 4)])
    assert "Bruno has withdrawn" in message(refused.value.problems[0])
    # A table as it was is left to the changes that take a withdrawn entry out.
    check_tables([(1, 2, 3)], (3, 4), {2: "Bruno"}, before=[(1, 2, 3)])


def test_a_draft_move_is_stored_measured_again_and_audited(draft, olga):
    (t1, t2) = tables_of(draft)
    mover = t1[0]
    services.move_entry(round_=draft, entry=mover, table=2, seat=4, by=Actor.for_user(olga))
    assert tables_of(draft) == [t1[1:], (*t2, mover)]
    draft.refresh_from_db()
    assert draft.metrics["repeated_pairs"] == 0 and draft.metrics["first_dealer"] == [0, 1]
    event = CompetitionEvent.objects.get(action="move_entry")
    assert event.actor == olga and event.data | {} == {
        "number": 1,
        "entry": mover,
        "table": 2,
        "seat": 4,
        "repeated_before": 0,
        "repeated_after": 0,
    }


def test_a_draft_move_to_a_bye_and_back(draft, olga):
    by = Actor.for_user(olga)
    (t1, t2) = tables_of(draft)
    services.move_entry(round_=draft, entry=t1[3], table=0, by=by)
    assert byes_of(draft) == {t1[3]} and tables_of(draft) == [t1[:3], t2]
    services.move_entry(round_=draft, entry=t1[3], table=1, seat=1, by=by)
    assert byes_of(draft) == {t1[0]} and tables_of(draft)[0] == (t1[3], *t1[1:3])


def test_an_impossible_draft_table_is_refused_and_nothing_changes(draft, olga):
    by = Actor.for_user(olga)
    (_t1, t2) = tables_of(draft)
    before = tables_of(draft)
    # 7 players at tables of 3 to 4: this move would leave a table of 5 and one of 2.
    with pytest.raises(RuleViolation) as refused:
        services.move_entry(round_=draft, entry=t2[0], table=1, by=by)
    assert codes(refused.value) == {("table", "not_allowed")}
    assert refused.value.problems[0].params == {
        "reason": "table_size",
        "table": 1,
        "value": 5,
        "min": 3,
        "max": 4,
    }
    assert tables_of(draft) == before
    assert not CompetitionEvent.objects.filter(action="move_entry").exists()


def test_a_withdrawn_entry_takes_no_seat(draft, olga):
    by = Actor.for_user(olga)
    gone = draft.entries[0]
    services.withdraw_entry(entry=gone, by=by)
    before = tables_of(draft)
    with pytest.raises(RuleViolation) as refused:
        services.move_entry(round_=draft, entry=gone.pk, table=1, seat=1, by=by)
    assert codes(refused.value) == {("entry", "not_allowed")}
    assert refused.value.problems[0].params["reason"] == "withdrawn_entry"
    assert tables_of(draft) == before
    with pytest.raises(RuleViolation) as refused:
        services.move_entry(round_=draft, entry=10**9, table=1, by=by)
    assert codes(refused.value) == {("entry", "not_found")}
    with pytest.raises(RuleViolation) as refused:
        services.move_entry(round_=draft, entry=before[0][0], table="x", by=by)
    assert codes(refused.value) == {("table", "type")}


def test_only_an_organizer_moves(draft, sara):
    (t1, _t2) = tables_of(draft)
    with pytest.raises(NotAllowed):
        services.move_entry(round_=draft, entry=t1[0], table=2, by=Actor.for_user(sara))


def test_a_published_move_reseats_the_games_in_place_and_emails_them(
    club, olga, django_user_model, django_capture_on_commit_callbacks
):
    night = published_night(club, olga, 7, notify_entrants=True)
    give_emails(night, django_user_model)
    (t1, t2) = tables_of(night)
    first, second = night.tables.select_related("game").order_by("number")
    links = {t.game_id: TableLink.objects.get(game=t.game).token for t in (first, second)}
    with django_capture_on_commit_callbacks(execute=True):
        services.move_entry(round_=night, entry=t1[0], table=2, seat=4, by=Actor.for_user(olga))
    after = tables_of(night)
    assert after == [t1[1:], (*t2, t1[0])]
    by_entry = {e.pk: e.player_id for e in night.entries}
    for table, seats in zip((first, second), after, strict=True):
        table.refresh_from_db()
        assert seats_of_game(table) == [by_entry[e] for e in seats]
    assert {t.game_id: TableLink.objects.get(game=t.game).token for t in (first, second)} == links
    assert CompetitionEvent.objects.get(action="move_entry").data["tables"] == [1, 2]
    assert selectors.tables_to_reprint(night) == [1, 2]
    assert len(mail.outbox) == 7
    night.refresh_from_db()
    assert night.metrics["first_dealer"] == [0, 1]


def test_a_published_move_is_refused_at_a_table_that_started(club, olga):
    night = published_night(club, olga, 7)
    by = Actor.for_user(olga)
    (t1, t2) = tables_of(night)
    second = night.tables.select_related("game").get(number=2)
    play(second.game, terziglio_won_by(1, 3)[:1], olga)
    with pytest.raises(Conflict) as refused:
        services.move_entry(round_=night, entry=t1[0], table=2, seat=4, by=by)
    assert codes(refused.value) == {("table", "not_allowed")}
    with pytest.raises(RuleViolation) as refused:
        services.move_entry(round_=night, entry=t1[0], table=0, by=by)
    assert codes(refused.value) == {("table", "not_allowed")}
    # Within a table with no hand: only who deals first changes.
    services.move_entry(round_=night, entry=t1[3], table=1, seat=1, by=by)
    assert tables_of(night) == [(t1[3], *t1[:3]), t2]


def test_a_published_move_never_seats_a_withdrawn_entry(club, olga):
    night = published_night(club, olga, 7)
    by = Actor.for_user(olga)
    (t1, t2) = tables_of(night)
    gone = next(e for e in night.entries if e.pk == t2[0])
    services.withdraw_entry(entry=gone, by=by)
    with pytest.raises(RuleViolation) as refused:
        services.move_entry(round_=night, entry=t1[0], table=2, seat=1, by=by)
    assert refused.value.problems[0].params["reason"] == "withdrawn_entry"
    with pytest.raises(RuleViolation):
        services.move_entry(round_=night, entry=gone.pk, table=1, seat=4, by=by)
    assert tables_of(night) == [t1, t2]


def api_url(round_) -> str:
    return f"/api/v1/competitions/{round_.competition_id}/rounds/{round_.number}/move/"


def test_the_api_moves_an_entry_and_answers_with_the_round(api, draft):
    (t1, t2) = tables_of(draft)
    response = api.post(api_url(draft), {"entry": t1[0], "table": 2, "seat": 4}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert [[s["entry"] for s in t["seats"]] for t in body["tables"]] == [
        list(t1[1:]),
        [*t2, t1[0]],
    ]
    assert body["metrics"]["first_dealer"] == [0, 1]


def test_the_api_refuses_an_impossible_move_naming_the_field(api, draft, sara):
    (t1, t2) = tables_of(draft)
    before = tables_of(draft)
    for body, field in (
        ({"entry": t2[0], "table": 1}, "table"),
        ({"entry": t1[0], "table": 2, "seat": 9}, "seat"),
        ({"entry": t1[0], "table": "two"}, "table"),
        ({"entry": 10**9, "table": 1}, "entry"),
        ({"table": 1}, "entry"),
    ):
        response = api.post(api_url(draft), body, format="json")
        assert response.status_code == 400, body
        assert {e["field"] for e in response.json()["errors"]} == {field}, body
        assert all(e["message"] for e in response.json()["errors"])
    assert tables_of(draft) == before
    response = api_as(sara).post(api_url(draft), {"entry": t1[0], "table": 2}, format="json")
    assert response.status_code == 403


def test_the_api_refuses_a_move_to_a_started_table_with_409(api, club, olga):
    night = published_night(club, olga, 7)
    (t1, _t2) = tables_of(night)
    second = night.tables.select_related("game").get(number=2)
    play(second.game, terziglio_won_by(1, 3)[:1], olga)
    response = api.post(api_url(night), {"entry": t1[0], "table": 2}, format="json")
    assert response.status_code == 409
    assert {e["field"] for e in response.json()["errors"]} == {"table"}


def round_page(round_) -> str:
    c = round_.competition
    return reverse("round", args=[c.club.slug, c.slug, round_.number])


def test_the_round_page_moves_a_player_and_shows_the_figures_again(draft, olga):
    (t1, t2) = tables_of(draft)
    client = login(olga)
    html = client.get(round_page(draft)).content.decode()
    assert 'id="pairing"' in html and 'id="quality"' in html
    response = client.post(
        round_page(draft), {"action": "move", "entry": t1[0], "table": 2, "seat": ""}
    )
    assert response.status_code == 302 and response["Location"].endswith("#pairing")
    assert tables_of(draft) == [t1[1:], (*t2, t1[0])]
    html = client.get(round_page(draft)).content.decode()
    assert "Moved: the quality of the draw is measured again." in html
    # The panel reads the figures as measured after the move: seat 1 dealt first by the
    # mover's old table-mate now (every table still one first dealer each).
    assert 'data-quality="headline"' in html


def test_the_round_page_puts_a_refused_move_next_to_its_field(draft, olga):
    (_t1, t2) = tables_of(draft)
    before = tables_of(draft)
    response = login(olga).post(
        round_page(draft), {"action": "move", "entry": t2[0], "table": 1, "seat": ""}
    )
    assert response.status_code == 400
    editor = response.content.decode().split('id="pairing"', 1)[1]
    assert "Table 1 would seat 5: the tables of this competition seat 3 to 4." in field_error(
        editor, "table"
    )
    assert tables_of(draft) == before


def test_a_published_round_shows_the_editor_and_its_figures(club, olga, sara):
    night = published_night(club, olga, 7)
    (t1, t2) = tables_of(night)
    client = login(olga)
    html = client.get(round_page(night)).content.decode()
    assert 'id="pairing"' in html and 'id="quality"' in html
    response = client.post(
        round_page(night), {"action": "move", "entry": t2[2], "table": 2, "seat": 1}
    )
    assert response.status_code == 302
    assert tables_of(night) == [t1, (t2[2], t2[0], t2[1])]
    html = client.get(round_page(night)).content.decode()
    assert 'id="reprint"' in html
    assert 'id="pairing"' not in login(sara).get(round_page(night)).content.decode()
