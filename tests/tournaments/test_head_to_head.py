"""Who beat whom (issue 35, point 2): the head-to-head of a competition counts exactly the games
played, pair by pair, for a Briscola singles Swiss, a Briscola pairs round robin and a Terziglio
league; its matrix is on the public and organizer pages (a real table, each cell linking its
games) and in the API."""

from __future__ import annotations

import re
from collections import defaultdict
from itertools import permutations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import GameStatus
from scoring.services import Actor
from tournaments import services
from tournaments.models import Table
from tournaments.selectors.head_to_head import head_to_head_of
from tournaments.selectors.standings import seat_entries

from .helpers import (
    briscola_won_by,
    enter,
    enter_pairs,
    make_competition,
    play,
    played_briscola_swiss,
    terziglio_won_by,
)

pytestmark = pytest.mark.django_db


def recount(competition) -> dict[tuple[int, int], tuple[int, int, int, list[int]]]:
    """(ahead, behind, level, games) of every ordered pair that shared a finished table, counted
    here from the tables' seats and their games' totals (highest total first)."""
    counts: dict[tuple[int, int], list] = defaultdict(lambda: [0, 0, 0, []])
    tables = Table.objects.filter(
        round__competition=competition, game__status=GameStatus.FINISHED, forfeited=False
    ).select_related("game")
    for table in tables:
        seated = list(table.seats.order_by("position").values_list("entry_id", flat=True))
        totals = table.game.totals
        total_of: dict[int, int] = {}
        for seat, entry in enumerate(seat_entries(seated, len(totals), competition.pairs)):
            total_of.setdefault(entry, totals[seat])
        for a, b in permutations(total_of, 2):
            count = counts[a, b]
            count[0 if total_of[a] > total_of[b] else 1 if total_of[a] < total_of[b] else 2] += 1
            count[3].append(table.game_id)
    return {key: (a, b, c, sorted(games)) for key, (a, b, c, games) in counts.items()}


def counted(data) -> dict[tuple[int, int], tuple[int, int, int, list[int]]]:
    return {
        (p["entry"], p["opponent"]): (
            p["ahead"],
            p["behind"],
            p["level"],
            sorted(m["game"] for m in p["meetings"]),
        )
        for p in data["pairs"]
    }


@pytest.fixture
def swiss(club, olga):
    return played_briscola_swiss(
        club, olga, name="Svizzera", names=[], more=8, rounds=3, tie_breaks=["opponents_strength"]
    )


@pytest.fixture
def pairs(club, olga):
    """Four Briscola pairs in a round robin (three rounds), the second side winning at table 1
    of every round and the first elsewhere."""
    by = Actor.for_user(olga)
    competition = make_competition(
        club, olga, name="Coppie", rulesets=["briscola"], format="round_robin",
        options={"briscola": {"format": "pairs", "hands_to_win": 2}},
    )  # fmt: skip
    enter_pairs(competition, olga, 4)
    services.add_round(competition=competition, by=by)
    for round_ in competition.rounds.order_by("number"):
        if not round_.tables.exists():
            services.generate_round(round_=round_, by=by, seed=1)
    for round_ in competition.rounds.order_by("number"):
        services.publish_round(round_=round_, by=by)
        for table in round_.tables.select_related("game").order_by("number"):
            play(table.game, briscola_won_by(1 if table.number == 1 else 0, 4, 2), olga)
        services.close_round(round_=round_, by=by)
    return competition


@pytest.fixture
def league(club, olga):
    """A Terziglio league of seven (a table of four and one of three a night), two nights: the
    second seat wins each table."""
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name="Lega", kind="league", format="club_night")
    enter(competition, olga, 7)
    for seed in (1, 2):
        round_ = services.add_round(competition=competition, by=by)
        services.generate_round(round_=round_, by=by, seed=seed)
        services.publish_round(round_=round_, by=by)
        for table in round_.tables.select_related("game"):
            play(table.game, terziglio_won_by(1, table.game.n), olga)
        services.close_round(round_=round_, by=by)
    return competition


@pytest.mark.parametrize(
    ("event", "kind", "games"),
    [("swiss", "matches", 12), ("pairs", "matches", 6), ("league", "places", 4)],
)
def test_the_counts_equal_the_games(request, event, kind, games):
    competition = request.getfixturevalue(event)
    data = head_to_head_of(competition)
    expected = recount(competition)
    assert len({g for *_, found in expected.values() for g in found}) == games
    assert data["counted_by"] == kind
    assert counted(data) == expected
    for (a, b), (ahead, behind, level, found) in expected.items():
        assert expected[b, a] == (behind, ahead, level, found)  # both ways round


def test_a_match_tells_its_outcome_and_score_from_each_side(pairs):
    data = head_to_head_of(pairs)
    pair = data["pairs"][0]
    other = next(
        p for p in data["pairs"] if (p["entry"], p["opponent"]) == (pair["opponent"], pair["entry"])
    )
    for mine, theirs in zip(pair["meetings"], other["meetings"], strict=True):
        assert {mine["outcome"], theirs["outcome"]} == {"won", "lost"}
        assert (mine["score"], mine["opponent_score"]) == (
            theirs["opponent_score"],
            theirs["score"],
        )
        assert max(mine["score"], mine["opponent_score"]) == 2  # hands won, to two


def test_the_entries_come_in_standings_order(league):
    services.store_standings(competition=league)
    data = head_to_head_of(league)
    standings = league.snapshot.data["tables"][0]["rows"]
    assert [e["entry"] for e in data["entries"]] == [r["entry"] for r in standings]
    assert data["entries"][0]["rank"] == 1


def test_the_matrix_is_read_in_a_few_queries_whatever_the_games(
    swiss, league, django_assert_max_num_queries
):
    for competition in (swiss, league):
        with django_assert_max_num_queries(4):
            head_to_head_of(competition)


def cells(html: str) -> list[str]:
    section = html.split('id="head-to-head"', 1)[1].split("</section>", 1)[0]
    return re.findall(r"<td>(.*?)</td>", section)


def matrix(client, slug: str) -> str:
    """The section the competition page loads when it scrolls into view (htmx)."""
    answer = client.get(f"/p/uno/{slug}/head-to-head/", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    return answer.content.decode()


SLOT = 'hx-get="/p/uno/{}/head-to-head/" hx-trigger="revealed"'


def test_the_public_page_draws_the_matrix_as_a_table_linking_the_games(swiss):
    assert SLOT.format("svizzera") in Client().get("/p/uno/svizzera/").content.decode()
    html = matrix(Client(), "svizzera")
    assert '<section class="card h2h" id="head-to-head"' in html
    assert "<caption" in html and '<th scope="col">' in html and '<th scope="row">' in html
    data = head_to_head_of(swiss)
    linked = set(re.findall(r'href="/g/(\d+)/"', "".join(cells(html))))
    assert linked == {str(m["game"]) for p in data["pairs"] for m in p["meetings"]}
    met = sum(len(p["meetings"]) for p in data["pairs"])
    assert sum(c.count('class="h2h-m') for c in cells(html)) == met


def test_opened_directly_it_is_a_whole_page(swiss):
    html = Client().get("/p/uno/svizzera/head-to-head/").content.decode()
    assert "<html" in html and '<th scope="row">' in html


def test_the_organizer_page_has_it_too_with_the_counts(league, olga):
    organizer = Client()
    organizer.force_login(olga)
    assert SLOT.format("lega") in organizer.get("/c/uno/k/lega/").content.decode()
    data = head_to_head_of(league)
    shown = [
        re.search(r'class="h2h-count">(\d+)–(\d+)', c).groups()
        for c in cells(matrix(organizer, "lega"))
    ]
    assert sorted(shown) == sorted((str(p["ahead"]), str(p["behind"])) for p in data["pairs"])


def test_a_second_visitor_gets_it_from_the_cache(swiss, django_assert_max_num_queries):
    first = matrix(Client(), "svizzera")
    with django_assert_max_num_queries(2):  # the competition and its standings' version
        assert matrix(Client(), "svizzera") == first


def test_no_matrix_before_a_game_is_finished(club, olga):
    competition = make_competition(club, olga, name="Nuovo")
    enter(competition, olga, 6)
    html = matrix(Client(), "nuovo")
    assert "No game is finished yet." in html and "<table" not in html


def test_the_api_gives_the_same_head_to_head(swiss):
    answer = APIClient().get(f"/api/v1/competitions/{swiss.pk}/head-to-head/")
    assert answer.status_code == 200
    assert answer.json() == head_to_head_of(swiss)


def test_a_private_competitions_head_to_head_is_a_404(swiss):
    swiss.public = False
    swiss.save(update_fields=["public"])
    assert APIClient().get(f"/api/v1/competitions/{swiss.pk}/head-to-head/").status_code == 404
    assert Client().get("/p/uno/svizzera/").status_code == 404
    assert Client().get("/p/uno/svizzera/head-to-head/").status_code == 404
