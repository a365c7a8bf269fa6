"""Every list the API answers is paged (``scoring.api.pagination``): the census over the schema,
then three lists walked page by page (a club's games, read from the database; a competition's
entries and a club's competitions, assembled in Python), and the refusals of a cursor that is
not ours and of a page size out of range."""

from __future__ import annotations

import base64
import datetime as dt
from typing import Any
from urllib.parse import unquote

import pytest
from drf_spectacular.generators import SchemaGenerator

from scoring import services
from scoring.api.pagination import MAX_PAGE_SIZE, PAGE_SIZE
from scoring.services import Actor
from tests.tournaments.helpers import enter, make_competition

pytestmark = pytest.mark.django_db

COMPONENTS = "#/components/schemas/"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def _resolved(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].removeprefix(COMPONENTS)]
    return node


def _lists(schema: dict[str, Any]):
    """Every GET's 2xx JSON answer: (path, answer schema resolved)."""
    for path, item in schema["paths"].items():
        operation = item.get("get")
        if operation is None:
            continue
        for status_code, response in operation["responses"].items():
            body = response.get("content", {}).get("application/json")
            if status_code.startswith("2") and body is not None:
                yield path, operation, _resolved(schema, body["schema"])


def test_no_get_answers_a_bare_array_and_every_list_is_paged(schema):
    bare = [path for path, _op, answer in _lists(schema) if answer.get("type") == "array"]
    assert bare == []
    paged = {}
    for path, operation, answer in _lists(schema):
        results = answer.get("properties", {}).get("results")
        if results is None:
            continue
        assert answer["required"] == ["next", "previous", "results"], path
        assert answer["properties"]["next"]["format"] == "uri", path
        assert results["type"] == "array", path
        parameters = {p["name"]: p for p in operation["parameters"] if p["in"] == "query"}
        assert parameters["cursor"]["schema"] == {"type": "string"}, path
        size = parameters["page_size"]["schema"]
        assert size == {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}, path
        paged[path] = operation["operationId"]
    # The fifteen lists of issue 34 (more may come; none may answer a bare array).
    assert len(paged) >= 15
    assert "/api/v1/clubs/{slug}/games/" in paged
    assert "/api/v1/rulesets/" in paged


def _walk(api, url: str, size: int) -> tuple[list[Any], list[dict[str, Any]]]:
    """Every row of the list, following ``next`` from the first page; and the pages."""
    rows, pages = [], []
    while url:
        response = api.get(url)
        assert response.status_code == 200, response.json()
        page = response.json()
        assert len(page["results"]) <= size
        pages.append(page)
        rows.extend(page["results"])
        url = page["next"]
    return rows, pages


def _back(api, page: dict[str, Any]) -> list[Any]:
    """Every row before ``page``, following ``previous``, in the list's order."""
    rows: list[Any] = []
    url = page["previous"]
    while url:
        earlier = api.get(url).json()
        rows[:0] = earlier["results"]
        url = earlier["previous"]
    return rows


def _games(club, players, olga, count: int) -> list[int]:
    by = Actor.for_user(olga)
    return [
        services.start_game(club=club, ruleset="terziglio", players=players[:3], by=by).pk
        for _ in range(count)
    ]


def test_a_clubs_games_page_by_page_nothing_repeated_or_missed(api, club, players, olga):
    ids = _games(club, players, olga, 3)
    rows, pages = _walk(api, "/api/v1/clubs/uno/games/?page_size=2", 2)
    assert [row["id"] for row in rows] == sorted(ids, reverse=True)  # newest first
    assert [len(p["results"]) for p in pages] == [2, 1]
    assert pages[0]["previous"] is None and pages[-1]["next"] is None
    assert [row["id"] for row in _back(api, pages[-1])] == sorted(ids, reverse=True)[:2]
    # A game started meanwhile comes first: the second page still starts where the first ended.
    _games(club, players, olga, 1)
    assert [g["id"] for g in api.get(pages[0]["next"]).json()["results"]] == [min(ids)]


def test_a_clubs_games_are_all_there_past_the_old_cut_of_200(api, club, players, olga):
    ids = _games(club, players, olga, 201)
    rows, pages = _walk(api, "/api/v1/clubs/uno/games/?page_size=200", 200)
    assert [len(p["results"]) for p in pages] == [200, 1]
    assert sorted(row["id"] for row in rows) == sorted(ids)
    rows, pages = _walk(api, "/api/v1/clubs/uno/games/?status=in_progress", PAGE_SIZE)
    assert len(rows) == 201 and len(pages) == 5


def test_a_competitions_entries_page_in_seed_order(api, club, olga):
    competition = make_competition(club, olga)
    entries = enter(competition, olga, 3, seeded=True)
    url = f"/api/v1/competitions/{competition.pk}/entries/?page_size=2"
    rows, pages = _walk(api, url, 2)
    assert [row["id"] for row in rows] == [e.pk for e in entries]
    assert len(pages) == 2
    assert [row["id"] for row in _back(api, pages[-1])] == [e.pk for e in entries[:2]]


def test_a_clubs_competitions_page_latest_first(api, club, olga):
    made = [
        make_competition(club, olga, name=f"Torneo {day}", start_date=dt.date(2026, 5, day))
        for day in (3, 1, 2)
    ]
    undated = make_competition(club, olga, name="Senza data")
    rows, pages = _walk(api, "/api/v1/clubs/uno/competitions/?page_size=3", 3)
    assert [row["id"] for row in rows] == [made[0].pk, made[2].pk, made[1].pk, undated.pk]
    assert [len(p["results"]) for p in pages] == [3, 1]


def test_the_default_page_holds_fifty_and_the_largest_two_hundred(api):
    assert (PAGE_SIZE, MAX_PAGE_SIZE) == (50, 200)
    page = api.get("/api/v1/rulesets/").json()
    assert page["next"] is None and page["previous"] is None
    assert 1 <= len(page["results"]) <= PAGE_SIZE


@pytest.mark.parametrize("size", ["0", "201", "-1", "two", "", "1.5"])
def test_a_page_size_out_of_range_is_refused_naming_it(api, club, size):
    response = api.get(f"/api/v1/clubs/uno/games/?page_size={size}")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["code"]) == ("page_size", "range")
    assert "1 to 200" in error["message"]


def _cursor_of(url: str) -> str:
    return unquote(url.split("cursor=")[1].split("&")[0])


def test_a_cursor_that_is_not_ours_is_refused_naming_it(api, club, players, olga):
    _games(club, players, olga, 3)
    ours = _cursor_of(api.get("/api/v1/clubs/uno/games/?page_size=1").json()["next"])
    drf_style = base64.b64encode(b"p=2026-01-01").decode()
    for cursor in (
        drf_style,
        "garbage",
        "",
        ours[:-2] + ("AA" if not ours.endswith("AA") else "BB"),
    ):
        for path in ("/api/v1/clubs/uno/games/", "/api/v1/rulesets/"):
            response = api.get(path, {"cursor": cursor})
            assert response.status_code == 400, (path, cursor)
            [error] = response.json()["errors"]
            assert (error["field"], error["code"]) == ("cursor", "invalid")
            assert "first page" in error["message"]
    # One list's cursor is not another's.
    response = api.get("/api/v1/clubs/uno/competitions/", {"cursor": ours})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "cursor"
    assert api.get("/api/v1/clubs/uno/games/", {"cursor": ours}).status_code == 200


def test_strict_query_readers_take_the_paging_parameters(api, club):
    response = api.get("/api/v1/clubs/uno/leaderboard/?page_size=5&days=30")
    assert response.status_code == 200, response.json()
    assert response.json()["results"] == []
    assert api.get("/api/v1/clubs/uno/ratings/?page_size=500").status_code == 400
