"""A competition's table sizes (issue 32, point 4): the smallest and largest table it announces
bound every format's draw, nearest the preferred size (``tournaments.scheduling.sizes``); a
range that leaves a game no table, or a preferred size outside it, is refused naming the field,
on the API and next to the field on the page."""

from __future__ import annotations

import pytest

from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.clients import api_as, field_error, login
from tournaments import services
from tournaments.forms import CompetitionSettingsForm
from tournaments.models import Competition

from .helpers import codes, make_competition

pytestmark = pytest.mark.django_db


def turkish_evening(club, olga, fmt: str, count: int = 22, **fields) -> Competition:
    fields = {"min_table_size": 3, "max_table_size": 6, "table_size": 5} | fields
    competition = make_competition(club, olga, rulesets=["turkish"], format=fmt, **fields)
    by = Actor.for_user(olga)
    for i in range(count):
        services.add_entry(competition=competition, player=f"Giocatore {i + 1}", by=by)
    return competition


def drawn_sizes(competition, olga) -> list[int]:
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=3)
    return sorted((t.seats.count() for t in round_.tables.all()), reverse=True)


@pytest.mark.parametrize("fmt", ["club_night", "swiss", "rotation"])
def test_22_turkish_players_at_tables_of_3_to_6_sit_6_6_5_5_in_every_format(club, olga, fmt):
    competition = turkish_evening(club, olga, fmt, planned_rounds=2)
    assert competition.table_policy("turkish")[:2] == ((3, 4, 5, 6), 5)
    assert drawn_sizes(competition, olga) == [6, 6, 5, 5]


def test_a_table_never_exceeds_the_largest_announced_size(club, olga):
    # 7 players, preferred 5: the game alone would seat one table of 7; "3 to 6" seats 4 + 3.
    competition = turkish_evening(club, olga, "club_night", count=7)
    assert drawn_sizes(competition, olga) == [4, 3]
    wide = turkish_evening(club, olga, "club_night", count=7, name="Aperta", max_table_size=None)
    assert wide.table_policy("turkish")[0] == (3, 4, 5, 6, 7, 8)
    assert drawn_sizes(wide, olga) == [7]


def test_without_a_range_the_game_s_own_sizes_apply(club, olga):
    competition = make_competition(club, olga, rulesets=["terziglio"])
    assert competition.table_policy("terziglio") == ((3, 4), 3, 4)


def test_a_preferred_size_outside_a_narrowed_game_range_falls_to_the_nearest_in_range(club, olga):
    competition = make_competition(club, olga, rulesets=["turkish"], min_table_size=5)
    # Turkish prefers 4: with tables of 5 to 8 the nearest is 5.
    assert competition.table_policy("turkish")[:2] == ((5, 6, 7, 8), 5)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"min_table_size": 6, "max_table_size": 4}, {("max_table_size", "inconsistent")}),
        ({"min_table_size": 5}, {("min_table_size", "inconsistent")}),
        ({"max_table_size": 2}, {("max_table_size", "inconsistent")}),
        ({"min_table_size": 1, "max_table_size": 9}, {
            ("min_table_size", "range"), ("max_table_size", "range")}),
        ({"min_table_size": 3, "max_table_size": 3, "table_size": 4},
         {("table_size", "inconsistent")}),
    ],
)  # fmt: skip
def test_a_range_that_seats_nobody_is_refused_naming_the_field(club, olga, fields, expected):
    with pytest.raises(RuleViolation) as refused:
        make_competition(club, olga, rulesets=["terziglio"], **fields)
    assert codes(refused.value) == expected
    assert not Competition.objects.exists()


def test_the_api_refuses_a_bad_range_with_a_400_naming_the_field(club, olga):
    api = api_as(olga)
    body = {"name": "Serata", "rulesets": ["terziglio"], "min_table_size": 5}
    response = api.post("/api/v1/clubs/uno/competitions/", body, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "min_table_size"
    assert error["message"] == (
        "Terziglio is played at tables of 3 to 4 players: these table sizes leave it none."
    )
    body = {"name": "Serata", "rulesets": ["turkish"], "min_table_size": 3, "max_table_size": 6}
    response = api.post("/api/v1/clubs/uno/competitions/", body, format="json")
    assert response.status_code == 201, response.content
    assert (response.json()["min_table_size"], response.json()["max_table_size"]) == (3, 6)
    pk = response.json()["id"]
    changed = api.patch(f"/api/v1/competitions/{pk}/", {"max_table_size": 2}, format="json")
    assert changed.status_code == 400
    assert [e["field"] for e in changed.json()["errors"]] == ["max_table_size"]
    assert Competition.objects.get(pk=pk).max_table_size == 6


def test_the_page_shows_a_bad_range_next_to_its_field_and_keeps_nothing(club, olga):
    client = login(olga)
    data = {
        "name": "Serata turca",
        "kind": "tournament",
        "rulesets": ["turkish"],
        "format": "club_night",
        "scheme": "fair_placement",
        "tie_break_1": "wins",
        "public": "on",
        "min_table_size": "6",
        "max_table_size": "4",
    }
    response = client.post("/c/uno/k/new/", data)
    assert response.status_code == 400
    html = response.content.decode()
    assert field_error(html, "max_table_size") == (
        "The largest table cannot be smaller than the smallest table."
    )
    assert not Competition.objects.exists()
    response = client.post("/c/uno/k/new/", data | {"max_table_size": "6", "min_table_size": "3"})
    assert response.status_code == 302, response.content.decode()
    assert Competition.objects.get().table_policy("turkish")[0] == (3, 4, 5, 6)


def prefilled(form) -> dict:
    """What a browser sends for the untouched prefilled form."""
    data = {}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if value not in (None, "", False):
            data[name] = "on" if value is True else value
    return data


def test_the_settings_page_changes_the_range(club, olga):
    competition = make_competition(club, olga, rulesets=["turkish"])
    data = prefilled(CompetitionSettingsForm(competition=competition))
    url = f"/c/uno/k/{competition.slug}/settings/"
    response = login(olga).post(url, data | {"min_table_size": "9"})
    assert response.status_code == 400
    assert field_error(response.content.decode(), "min_table_size")
    response = login(olga).post(url, data | {"max_table_size": "6"})
    assert response.status_code == 302, response.content.decode()
    assert Competition.objects.get(pk=competition.pk).max_table_size == 6
