"""The competition API, rounds and tables: add, draw, swap, publish, close, forfeit, delete a
draft, a season of nights in one call."""

from __future__ import annotations

import pytest

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.clients import api_as
from tournaments import services
from tournaments.models import Adjustment, Table

from .api_helpers import fields, seats, url
from .helpers import enter, make_competition, play, tables_of, terziglio_won_by

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Rounds


def test_add_a_round_with_its_date_and_time(api, tournament):
    response = api.post(
        url(tournament, "rounds/"),
        {"date": "2026-04-11", "start_time": "15:30", "duration_minutes": 120},
        format="json",
    )
    assert response.status_code == 201, response.json()
    data = response.json()
    assert response["Location"] == url(tournament, "rounds/1/")
    assert (data["number"], data["date"], data["start_time"], data["duration_minutes"]) == (
        1,
        "2026-04-11",
        "15:30",
        120,
    )
    assert (data["status"], data["ruleset"], data["tables"], data["byes"]) == (
        "draft",
        "terziglio",
        [],
        [],
    )
    second = api.post(url(tournament, "rounds/"), format="json")
    assert second.status_code == 201 and second.json()["number"] == 2
    assert second.json()["date"] is None and second.json()["duration_minutes"] == 90
    assert [r["number"] for r in api.get(url(tournament, "rounds/")).json()["results"]] == [1, 2]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"date": "11/04/2026"}, {("date", "type")}),
        ({"date": "2026-13-01"}, {("date", "type")}),
        ({"date": "2026-4-1"}, {("date", "type")}),
        ({"date": 20260411}, {("date", "type")}),
        ({"start_time": "25:00"}, {("start_time", "type")}),
        ({"start_time": "3pm"}, {("start_time", "type")}),
        ({"start_time": "15:30:00"}, {("start_time", "type")}),
        ({"duration_minutes": 5}, {("duration_minutes", "range")}),
        ({"duration_minutes": "90"}, {("duration_minutes", "type")}),
        ({"ruleset": "briscola"}, {("ruleset", "choice")}),
        ({"ruleset": ["terziglio"]}, {("ruleset", "type")}),
        (
            {"date": "2026-02-30", "start_time": "", "number": 3},
            {("date", "type"), ("start_time", "type"), ("number", "unknown_key")},
        ),
    ],
)
def test_bad_round_fields_are_named(api, tournament, body, expected):
    response = api.post(url(tournament, "rounds/"), body, format="json")
    assert response.status_code == 400
    assert fields(response) == expected
    assert not tournament.rounds.exists()


def test_a_round_shows_its_tables_seats_games_and_figures(api, drawn):
    response = api.get(url(drawn, "rounds/1/"))
    assert response.status_code == 200
    data = response.json()
    names = {e.pk: e.name for e in drawn.entries.all()}
    assert len(data["tables"]) == 2
    for table in data["tables"]:
        assert [s["position"] for s in table["seats"]] == [0, 1, 2]
        assert all(s["name"] == names[s["entry"]] for s in table["seats"])
        assert all(s["game_seats"] == [s["position"]] for s in table["seats"])
        assert table["game"] is None and table["forfeited"] is False
        assert Table.objects.get(pk=table["id"]).number == table["number"]
    # Six players at two tables of three cannot play two rounds without a repeat.
    assert (data["metrics"]["lower_bound"], data["method"]) == (1, "rotation")
    assert set(data["metrics"]) >= {"repeated_pairs", "max_meetings", "first_dealer", "sit_outs"}
    assert data["byes"] == [] and data["check_ins"] == [] and data["seed"] == 1
    assert api.get(url(drawn, "rounds/9/")).status_code == 404


def test_check_ins(api, club, olga):
    league = make_competition(club, olga, kind="league", format="club_night")
    entries = enter(league, olga, 5)
    services.add_round(competition=league, by=Actor.for_user(olga))
    present = [e.pk for e in entries[:3]]
    response = api.post(url(league, "rounds/1/check-ins/"), {"entries": present}, format="json")
    assert response.status_code == 200 and response.json()["check_ins"] == sorted(present)
    listed = api.get(url(league, "rounds/")).json()["results"]
    assert [(r["number"], r["check_ins"]) for r in listed] == [(1, sorted(present))]
    generated = api.post(url(league, "rounds/1/generate/"), {"seed": 4}, format="json").json()
    assert sorted(s["entry"] for t in generated["tables"] for s in t["seats"]) == sorted(present)
    for body, expected in (
        ({"entries": "all"}, {("entries", "type")}),
        ({"entries": [present[0], "x", 1.5]}, {("entries[1]", "type"), ("entries[2]", "type")}),
        ({}, {("entries", "required")}),
        ({"entries": [10**6]}, {("entries", "not_found")}),
    ):
        response = api.post(url(league, "rounds/1/check-ins/"), body, format="json")
        assert response.status_code == 400 and fields(response) == expected, body
    # Ids no row can have (found by schemathesis: a 500 on both databases) are refused by name.
    response = api.post(
        url(league, "rounds/1/check-ins/"), {"entries": [-140, 2**79, present[0]]}, format="json"
    )
    assert response.status_code == 400
    assert {field for field, _code in fields(response)} == {"entries[0]", "entries[1]"}
    with pytest.raises(RuleViolation) as refused:
        services.set_check_ins(
            round_=league.rounds.get(), entries=[present[0], 2**79], by=Actor.for_user(olga)
        )
    assert [(p.field, p.code) for p in refused.value.problems] == [("entries", "not_found")]
    listed = api.get(url(league, "rounds/")).json()["results"]
    assert [(r["number"], r["check_ins"]) for r in listed] == [(1, sorted(present))]


def test_generate_draws_the_same_tables_for_the_same_seed(api, tournament):
    api.post(url(tournament, "rounds/"), format="json")
    first = api.post(url(tournament, "rounds/1/generate/"), {"seed": 11}, format="json")
    assert first.status_code == 200, first.json()
    again = api.post(url(tournament, "rounds/1/generate/"), {"seed": 11}, format="json")
    assert seats(again) == seats(first)
    assert api.post(url(tournament, "rounds/1/generate/"), format="json").status_code == 200
    for body, expected in (
        ({"seed": "x"}, {("seed", "type")}),
        ({"seed": -1}, {("seed", "range")}),
        ({"seed": 2**31}, {("seed", "range")}),
    ):
        assert fields(api.post(url(tournament, "rounds/1/generate/"), body, format="json")) == expected  # fmt: skip


def test_generate_refuses_what_cannot_be_drawn(api, club, olga):
    too_few = make_competition(club, olga, name="Pochi")
    enter(too_few, olga, 2)
    services.add_round(competition=too_few, by=Actor.for_user(olga))
    response = api.post(url(too_few, "rounds/1/generate/"), format="json")
    assert response.status_code == 400 and fields(response) == {("entries", "range")}
    # A third-place match needs four players: three are refused on the entries, as a 400.
    knockout = make_competition(
        club, olga, name="Ko", rulesets=["briscola"], format="knockout", third_place=True
    )
    enter(knockout, olga, 3)
    services.add_round(competition=knockout, by=Actor.for_user(olga))
    response = api.post(url(knockout, "rounds/1/generate/"), format="json")
    assert response.status_code == 400 and fields(response) == {("entries", "range")}
    assert not Table.objects.filter(round__competition=knockout).exists()


def test_rescheduling_a_round_changes_only_what_is_sent(api, drawn, sara):
    response = api.patch(
        url(drawn, "rounds/1/"), {"date": "2026-05-02", "start_time": "21:00"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert (response.json()["date"], response.json()["start_time"]) == ("2026-05-02", "21:00")
    response = api.patch(url(drawn, "rounds/1/"), {"duration_minutes": 120}, format="json")
    round_ = drawn.rounds.get(number=1)
    assert (str(round_.date), str(round_.start_time), round_.duration_minutes) == (
        "2026-05-02",
        "21:00:00",
        120,
    )
    assert (
        api.patch(url(drawn, "rounds/1/"), {"start_time": None}, format="json").status_code == 200
    )
    round_.refresh_from_db()
    assert (str(round_.date), round_.start_time) == ("2026-05-02", None)
    for body, expected in (
        ({"date": "2 May"}, {("date", "type")}),
        ({"duration_minutes": 5}, {("duration_minutes", "range")}),
        ({"ruleset": "poker"}, {("ruleset", "choice")}),
        ({"when": "soon"}, {("when", "unknown_key")}),
    ):
        response = api.patch(url(drawn, "rounds/1/"), body, format="json")
        assert response.status_code == 400 and fields(response) == expected, body
    round_.refresh_from_db()
    assert (str(round_.date), round_.duration_minutes) == ("2026-05-02", 120)
    assert (
        api_as(sara).patch(url(drawn, "rounds/1/"), {"date": None}, format="json").status_code
        == 403
    )
    assert api.patch(url(drawn, "rounds/9/"), {"date": None}, format="json").status_code == 404


def test_swap_two_entries_of_a_draft(api, drawn):
    (a, b, _), (c, _, _) = tables_of(drawn.rounds.get(number=2))
    response = api.post(url(drawn, "rounds/2/swap/"), {"a": a, "b": c}, format="json")
    assert response.status_code == 200, response.json()
    swapped = seats(response)
    assert swapped[0][0] == c and swapped[1][0] == a
    assert response.json()["metrics"]["repeated_pairs"] >= 0
    for body, expected in (
        ({"a": a}, {("b", "required")}),
        ({"a": "x", "b": b}, {("a", "type")}),
        ({"a": a, "b": 10**6}, {("b", "not_found")}),
    ):
        response = api.post(url(drawn, "rounds/2/swap/"), body, format="json")
        assert response.status_code == 400 and fields(response) == expected


def test_publish_then_close_a_round(api, drawn, olga):
    response = api.post(url(drawn, "rounds/1/publish/"))
    assert response.status_code == 200, response.json()
    data = response.json()
    assert data["status"] == "published" and data["published_at"]
    games = [t["game"] for t in data["tables"]]
    assert all(g["status"] == "in_progress" and g["hand_count"] == 0 for g in games)
    assert {g.title for g in Game.objects.all()} == {"Torneo · R1 · T1", "Torneo · R1 · T2"}
    again = api.post(url(drawn, "rounds/1/publish/"), format="json")
    assert again.status_code == 400 and fields(again) == {("round", "not_allowed")}
    swap = api.post(url(drawn, "rounds/1/swap/"), {"a": 1, "b": 2}, format="json")
    assert swap.status_code == 400

    first = Game.objects.get(pk=games[0]["id"])
    play(first, terziglio_won_by(1, 3), olga)
    refused = api.post(url(drawn, "rounds/1/close/"), format="json")
    assert refused.status_code == 400 and fields(refused) == {("round", "unfinished")}
    play(Game.objects.get(pk=games[1]["id"]), terziglio_won_by(2, 3), olga)
    closed = api.post(url(drawn, "rounds/1/close/"), format="json")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert [t["game"]["status"] for t in closed.json()["tables"]] == ["finished", "finished"]
    assert fields(api.post(url(drawn, "rounds/2/close/"), format="json")) == {
        ("round", "not_allowed")
    }
    assert fields(api.post(url(drawn, "rounds/1/publish/"), {"now": True}, format="json")) == {
        ("now", "unknown_key")
    }


def test_forfeit_a_table(api, drawn):
    api.post(url(drawn, "rounds/1/publish/"))
    round_ = drawn.rounds.get(number=1)
    table = round_.tables.get(number=1)
    d, e, _f = tables_of(round_)[0]
    target = url(drawn, f"tables/{table.pk}/forfeit/")
    for body, expected in (
        ({}, {("reason", "required")}),
        ({"reason": "x", "points": [1]}, {("points", "type")}),
        ({"reason": "x", "points": {"abc": 1}}, {("points.abc", "type")}),
        ({"reason": "x", "points": {"999999": 1}}, {("points.999999", "not_found")}),
        ({"reason": "x", "points": {str(d): "lots"}}, {(f"points.{d}", "type")}),
        ({"reason": "x", "points": {str(d): "2"}}, {(f"points.{d}", "type")}),
        ({"reason": "x", "points": {str(d): True}}, {(f"points.{d}", "type")}),
        ({"reason": "x", "points": {str(d): 10**6}}, {(f"points.{d}", "range")}),
    ):
        response = api.post(target, body, format="json")
        assert response.status_code == 400 and fields(response) == expected, body
    worded = api.post(target, {"reason": "x", "points": {str(d): "2"}}, format="json")
    assert "enter a number" in worded.json()["errors"][0]["message"]

    response = api.post(
        target, {"reason": "Dario left", "points": {str(d): 2, str(e): 0.5}}, format="json"
    )

    assert response.status_code == 200, response.json()
    shown = response.json()["tables"][0]
    assert (shown["forfeited"], shown["forfeit_reason"], shown["game"]["status"]) == (
        True,
        "Dario left",
        "abandoned",
    )
    assert sorted(Adjustment.objects.values_list("entry_id", "points")) == [(d, 2), (e, 0.5)]
    other = make_competition(drawn.club, drawn.created_by, name="Altro")
    assert api.post(url(other, f"tables/{table.pk}/forfeit/"), {"reason": "x"}, format="json").status_code == 404  # fmt: skip


def test_delete_a_draft_round_and_not_a_published_one(api, drawn, olga):
    second = services.add_round(competition=drawn, by=Actor.for_user(olga))
    path = url(drawn, f"rounds/{second.number}/")
    assert api.delete(path, HTTP_IF_MATCH=api.get(path)["ETag"]).status_code == 204
    assert not drawn.rounds.filter(number=second.number).exists()
    services.publish_round(round_=drawn.rounds.get(number=1), by=Actor.for_user(olga))
    first = url(drawn, "rounds/1/")
    refused = api.delete(first, HTTP_IF_MATCH=api.get(first)["ETag"])
    assert refused.status_code in (400, 409)
    assert drawn.rounds.filter(number=1).exists()


def test_a_season_of_nights_in_one_call(api, club, olga):
    league = make_competition(
        club, olga, name="Lega", kind="league", rulesets=["terziglio", "turkish"]
    )
    response = api.post(
        url(league, "season/"),
        {"first_date": "2027-01-12", "nights": 4, "start_time": "21:00", "weekday": 1},
        format="json",
    )
    assert response.status_code == 201, response.content
    nights = response.json()
    assert [n["number"] for n in nights] == [1, 2, 3, 4]
    assert [n["date"] for n in nights] == ["2027-01-12", "2027-01-19", "2027-01-26", "2027-02-02"]
    assert [n["ruleset"] for n in nights] == ["terziglio", "turkish", "terziglio", "turkish"]
    bad = api.post(url(league, "season/"), {"first_date": "2027-01-12", "nights": 0}, format="json")
    assert bad.status_code == 400 and ("nights", "range") in fields(bad)
    late = api.post(
        url(league, "season/"), {"first_date": "9999-12-20", "nights": 3}, format="json"
    )
    assert late.status_code == 400 and ("first_date", "range") in fields(late)
