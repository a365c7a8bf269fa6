"""The API of a published round's changes (issue 23, point 1): ``/rounds/{n}/swap/`` (a draft's
or a published round's), ``/replace/``, ``/redraw/``, ``/unpublish/``: 200 with the round as it
now is, 400 naming the field on bad input, 409 for a refusal the round's state causes, 403 for
a scorer; nothing changes on a refusal."""

from __future__ import annotations

import pytest

from scoring.models import Game, TableLink
from scoring.services import Actor
from tests.clients import api_as
from tournaments import services
from tournaments.models import CompetitionEvent

from .helpers import play, published_night, tables_of, terziglio_won_by


@pytest.fixture
def night(club, olga):
    return published_night(club, olga, 7)


def url(round_, rest: str) -> str:
    return f"/api/v1/competitions/{round_.competition_id}/rounds/{round_.number}/{rest}"


def errors(response) -> set[tuple[str | None, str]]:
    body = response.json()["errors"]
    assert all(e["message"] for e in body)
    return {(e["field"], e["code"]) for e in body}


def seats(response) -> list[list[int]]:
    return [[s["entry"] for s in t["seats"]] for t in response.json()["tables"]]


def test_swap_a_published_round_keeps_the_games(api, night):
    (t1, t2) = tables_of(night)
    games = [t["game"]["id"] for t in api.get(url(night, "")).json()["tables"]]
    response = api.post(url(night, "swap/"), {"a": t1[0], "b": t2[0]}, format="json")
    assert response.status_code == 200, response.json()
    assert seats(response)[0][0] == t2[0] and seats(response)[1][0] == t1[0]
    assert [t["game"]["id"] for t in response.json()["tables"]] == games


def test_swap_refusals(api, night, olga, sara):
    (t1, t2) = tables_of(night)
    for body, code, expected in (
        ({"a": t1[0]}, 400, {("b", "required")}),
        ({"a": "x", "b": t2[0]}, 400, {("a", "type")}),
        ({"a": t1[0], "b": t1[1]}, 400, {("b", "not_allowed")}),
        ({"a": t1[0], "b": 10**9}, 400, {("b", "not_found")}),
    ):
        response = api.post(url(night, "swap/"), body, format="json")
        assert response.status_code == code and errors(response) == expected, body
    assert (
        api_as(sara).post(url(night, "swap/"), {"a": t1[0], "b": t2[0]}, format="json").status_code
        == 403
    )
    play(night.tables.get(number=2).game, terziglio_won_by(1, len(t2)), olga)
    refused = api.post(url(night, "swap/"), {"a": t1[0], "b": t2[0]}, format="json")
    assert refused.status_code == 409 and errors(refused) == {("b", "not_allowed")}
    assert "Table 2 has hands entered" in refused.json()["errors"][0]["message"]
    assert tables_of(night) == [t1, t2]


def test_replace_by_a_late_entrant_and_by_a_bye(api, night, olga):
    late = services.add_entry(competition=night.competition, player="Zeno", by=Actor.for_user(olga))
    four = [len(t) for t in tables_of(night)].index(4)
    absent = tables_of(night)[four][1]
    response = api.post(url(night, "replace/"), {"absent": absent, "late": late.pk}, format="json")
    assert response.status_code == 200, response.json()
    assert late.pk in seats(response)[four] and absent not in seats(response)[four]
    response = api.post(url(night, "replace/"), {"absent": late.pk, "late": None}, format="json")
    assert response.status_code == 200, response.json()
    assert len(seats(response)[four]) == 3


def test_replace_refusals(api, night, olga):
    (t1, t2) = tables_of(night)
    three = t1 if len(t1) == 3 else t2
    for body, code, expected in (
        ({}, 400, {("absent", "required")}),
        ({"absent": "x"}, 400, {("absent", "type")}),
        ({"absent": 10**9}, 400, {("absent", "not_found")}),
        ({"absent": t1[0], "late": t2[0]}, 400, {("late", "not_found")}),
        ({"absent": three[0]}, 400, {("late", "required")}),
        ({"absent": t1[0], "extra": 1}, 400, {("extra", "unknown_key")}),
    ):
        response = api.post(url(night, "replace/"), body, format="json")
        assert response.status_code == code and errors(response) == expected, body
    play(night.tables.get(number=1).game, terziglio_won_by(1, len(t1)), olga)
    refused = api.post(url(night, "replace/"), {"absent": t1[0]}, format="json")
    assert refused.status_code == 409 and errors(refused) == {("absent", "not_allowed")}
    assert tables_of(night) == [t1, t2]


def test_redraw(api, club, olga):
    night = published_night(club, olga, 9)
    before = tables_of(night)
    response = api.post(url(night, "redraw/"), {"seed": 3}, format="json")
    assert response.status_code == 200, response.json()
    assert {frozenset(t) for t in seats(response)} != {frozenset(t) for t in before}
    bad = api.post(url(night, "redraw/"), {"seed": -1}, format="json")
    assert bad.status_code == 400 and errors(bad) == {("seed", "range")}
    for table in night.tables.all()[:2]:
        play(table.game, terziglio_won_by(1, 3), olga)
    refused = api.post(url(night, "redraw/"), format="json")
    assert refused.status_code == 409 and errors(refused) == {("round", "not_allowed")}
    assert "nothing to draw again" in refused.json()["errors"][0]["message"]


def test_unpublish_and_its_refusals(api, night, olga):
    games = list(night.tables.values_list("game_id", flat=True))
    response = api.post(url(night, "unpublish/"), {"reason": "too early"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "draft"
    assert set(Game.objects.filter(pk__in=games).values_list("status", flat=True)) == {"abandoned"}
    assert CompetitionEvent.objects.get(action="unpublish_round").reason == "too early"
    again = api.post(url(night, "unpublish/"), format="json")
    assert again.status_code == 409 and errors(again) == {("round", "not_allowed")}
    bad = api.post(url(night, "unpublish/"), {"reason": 5}, format="json")
    assert bad.status_code == 400 and errors(bad) == {("reason", "type")}
    services.publish_round(round_=night, by=Actor.for_user(olga))
    play(night.tables.get(number=1).game, terziglio_won_by(1, len(tables_of(night)[0])), olga)
    refused = api.post(url(night, "unpublish/"), format="json")
    assert refused.status_code == 409 and errors(refused) == {("round", "not_allowed")}
    assert TableLink.objects.filter(game__in=night.tables.values("game")).count() == 2


# -- withdrawn entries (issue 32, point 2) -----------------------------------------------------


def test_a_change_naming_a_withdrawn_entry_is_a_400_naming_the_field(api, night, olga):
    (t1, t2) = tables_of(night)
    by = Actor.for_user(olga)
    gone = next(e for e in night.entries if e.pk == t1[0])
    services.withdraw_entry(entry=gone, by=by)
    swap = api.post(url(night, "swap/"), {"a": t1[0], "b": t2[0]}, format="json")
    assert swap.status_code == 400 and errors(swap) == {("a", "not_allowed")}
    assert swap.json()["errors"][0]["message"].startswith(f"{gone.name} has withdrawn")
    late = services.add_entry(competition=night.competition, player="Zeno", by=by)
    services.withdraw_entry(entry=late, by=by)
    replace = api.post(url(night, "replace/"), {"absent": t2[0], "late": late.pk}, format="json")
    assert replace.status_code == 400 and errors(replace) == {("late", "not_allowed")}
    assert tables_of(night) == [t1, t2]


def test_a_redraw_leaves_the_withdrawn_out_or_is_a_409_naming_the_table(api, night, club, olga):
    (t1, _t2) = tables_of(night)
    gone = next(e for e in night.entries if e.pk == t1[0])
    services.withdraw_entry(entry=gone, by=Actor.for_user(olga))
    response = api.post(url(night, "redraw/"), {"seed": 2}, format="json")
    assert response.status_code == 200, response.json()
    assert gone.pk not in {e for t in seats(response) for e in t}
    six = published_night(club, olga, 6, name="Sei", slug="sei")
    out = next(e for e in six.entries if e.pk == tables_of(six)[0][0])
    services.withdraw_entry(entry=out, by=Actor.for_user(olga))
    refused = api.post(url(six, "redraw/"), {"seed": 2}, format="json")
    assert refused.status_code == 409 and errors(refused) == {("round", "not_allowed")}
    assert f"Table 1 seats {out.name}, who has withdrawn" in refused.json()["errors"][0]["message"]


def test_the_withdrawal_answer_says_which_table_to_fix(api, night):
    (t1, _t2) = tables_of(night)
    base = f"/api/v1/competitions/{night.competition_id}/entries"
    response = api.post(f"{base}/{t1[0]}/withdraw/", {"reason": "went home"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "withdrawn"
    assert response.json()["to_fix"] == [{"round": 1, "table": 1}]
