"""Who can still win, wired: the standings (snapshot and API) carry each entry's outlook in a
league with nights left, the standings page shows it by each name and each entry's page says
it in full (the pure computation: test_outlook.py)."""

from __future__ import annotations

import pytest

from scoring.services import Actor
from tests.tournaments.helpers import briscola_won_by, enter, make_competition, play
from tournaments import selectors, services
from tournaments.models import Format

pytestmark = pytest.mark.django_db


def _play_night(competition, user, winners_of):
    """Draw, publish and play a night; ``winners_of(tables)`` names the winning entry id of
    each table (tables as (entry id, entry id) in seat order)."""
    by = Actor.for_user(user)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    tables = list(round_.tables.select_related("game").order_by("number"))
    pairs = [tuple(s.entry_id for s in t.seats.order_by("position")) for t in tables]
    winners = winners_of(pairs)
    for table, pair in zip(tables, pairs, strict=True):
        play(table.game, briscola_won_by(pair.index(winners[pair]), 2, 1), user)
    services.close_round(round_=round_, by=by)
    return pairs


def league_two_nights_in(club, user):
    """A league of club nights (Briscola, tables of two, 1 point a win, 3 nights planned) with
    two nights played by four entries: one has won both (2 points), two have won one (1), one
    has lost both (0). Returns the competition and the entries' ids by wins:
    {"two": id, "one": [id, id], "none": id}."""
    competition = make_competition(
        club, user, name="Lega del giovedì", kind="league", format=Format.CLUB_NIGHT,
        rulesets=["briscola"], table_size=2, planned_rounds=3, scheme="matches_won",
        options={"briscola": {"hands_to_win": 1}},
    )  # fmt: skip
    enter(competition, user, 4)
    first = _play_night(competition, user, lambda pairs: {p: p[0] for p in pairs})
    won = {p[0] for p in first}

    def second(pairs):
        # the two winners of the first night meet: one wins again, the losers' table too;
        # or each winner meets a loser: one winner wins again, the other loses
        winners = {}
        for i, pair in enumerate(pairs):
            a, b = pair
            if (a in won) == (b in won):
                winners[pair] = a
            else:
                winner, loser = (a, b) if a in won else (b, a)
                winners[pair] = winner if i == 0 else loser
        return winners

    _play_night(competition, user, second)
    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    by_points = {}
    for row in rows:
        by_points.setdefault(row["points"], []).append(row["entry"])
    assert sorted(len(v) for v in by_points.values()) == [1, 1, 2], by_points
    return competition, {"two": by_points[2][0], "one": by_points[1], "none": by_points[0][0]}


def test_the_standings_carry_each_entrys_outlook(club, olga):
    competition, who = league_two_nights_in(club, olga)
    data = selectors.standings_of(competition)
    assert data["outlook"] is True
    outlook = {row["entry"]: row["outlook"] for row in data["tables"][0]["rows"]}
    # one night left, one point a win: the leader (2) can be caught (1 + 1), not passed
    assert outlook[who["two"]] | {"reason": ""} == {
        "status": "can_win", "best": 1, "worst": 3, "exact": True, "ranks_exact": True,
        "reason": "",
    }  # fmt: skip
    for entry in who["one"]:
        assert outlook[entry]["status"] == "can_win" and outlook[entry]["exact"]
    assert outlook[who["none"]]["status"] == "cannot_win" and outlook[who["none"]]["exact"]
    assert (outlook[who["none"]]["best"], outlook[who["none"]]["worst"]) == (2, 4)


def test_no_outlook_for_a_tournament_nothing_planned_or_unbounded_points(club, olga, terziglio):
    tournament = make_competition(club, olga, name="Torneo", planned_rounds=2)
    enter(tournament, olga, 6)
    assert selectors.standings_of(tournament)["outlook"] is False
    league = make_competition(club, olga, name="Lega", kind="league")
    enter(league, olga, 4)
    assert selectors.standings_of(league)["outlook"] is False  # no night planned
    scored = make_competition(
        club, olga, name="Punti", kind="league", planned_rounds=2, scheme="game_score"
    )
    enter(scored, olga, 4)
    assert selectors.standings_of(scored)["outlook"] is False  # scores have no bound


def test_a_round_robin_counts_the_games_left(club, olga):
    """Four entries, a round robin of Briscola: three rounds, two games each. Before any is
    played, everyone can still win and nobody has clinched."""
    league = make_competition(
        club, olga, name="Girone", kind="league", format=Format.ROUND_ROBIN,
        rulesets=["briscola"], planned_rounds=3, options={"briscola": {"hands_to_win": 1}},
    )  # fmt: skip
    enter(league, olga, 4)
    rows = selectors.standings_of(league)["tables"][0]["rows"]
    assert {row["outlook"]["status"] for row in rows} == {"can_win"}
    assert {(row["outlook"]["best"], row["outlook"]["worst"]) for row in rows} == {(1, 4)}


def test_the_api_and_the_pages_show_it(client, api, club, olga):
    competition, who = league_two_nights_in(club, olga)
    rows = api.get(f"/api/v1/competitions/{competition.pk}/standings/").json()["tables"][0]["rows"]
    assert {r["entry"]: r["outlook"]["status"] for r in rows}[who["none"]] == "cannot_win"
    page = client.get(f"/p/{club.slug}/{competition.slug}/standings/").content.decode()
    assert (
        page.count('data-outlook="can_win"') == 3 and page.count('data-outlook="cannot_win"') == 1
    )
    entry = client.get(f"/p/{club.slug}/{competition.slug}/entries/{who['none']}/")
    assert entry.status_code == 200
    assert "First place is out of reach" in entry.content.decode()
    assert client.get(f"/p/{club.slug}/{competition.slug}/entries/999999/").status_code == 404


def test_the_openapi_schema_describes_the_outlook(api):
    schema = api.get("/api/schema/?format=json").json()
    get = schema["paths"]["/api/v1/competitions/{competition_id}/standings/"]["get"]
    ref = get["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    components = schema["components"]["schemas"]
    standings = components[ref.rsplit("/", 1)[1]]
    table = components[standings["properties"]["tables"]["items"]["$ref"].rsplit("/", 1)[1]]
    row = components[table["properties"]["rows"]["items"]["$ref"].rsplit("/", 1)[1]]
    outlook = row["properties"]["outlook"]
    outlook = components[(outlook.get("$ref") or outlook["allOf"][0]["$ref"]).rsplit("/", 1)[1]]
    assert set(outlook["properties"]) == {
        "status",
        "best",
        "worst",
        "exact",
        "ranks_exact",
        "reason",
    }


def test_a_drawn_night_is_played_at_its_tables(club, olga):
    """The third night drawn: its tables are what is left. Once the leader's table is played
    and won by the leader (3 points), nobody can reach it: clinched, although the other table
    is still playing."""
    competition, who = league_two_nights_in(club, olga)
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    assert {r["entry"]: r["outlook"]["status"] for r in rows}[who["none"]] == "cannot_win"
    table = next(
        t
        for t in round_.tables.select_related("game")
        if who["two"] in t.seats.values_list("entry_id", flat=True)
    )
    seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    play(table.game, briscola_won_by(seats.index(who["two"]), 2, 1), olga)
    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    outlook = {r["entry"]: r["outlook"] for r in rows}
    assert outlook[who["two"]] | {"reason": ""} == {
        "status": "clinched", "best": 1, "worst": 1, "exact": True, "ranks_exact": True,
        "reason": "",
    }  # fmt: skip
