"""Who beat whom in a palio (issue 35, point 2, team matches): each pair of teams with every
match they played, its score from each side and the games of its boards, equal to a recount
from the boards' games; on the public team standings page and in the API."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring.models import GameStatus
from scoring.services import Actor
from teams.head_to_head import matrix_of, team_head_to_head
from teams.services import team_draw
from tests.clients import api_as
from tests.teams.test_teams import palio, set_both
from tests.tournaments.helpers import briscola_won_by, make_competition, play

pytestmark = pytest.mark.django_db


def test_a_match_is_seen_from_both_sides_with_the_rows_score_first():
    order = [{"team": 1, "name": "Borgo"}, {"team": 2, "name": "Castello"}]
    played = [
        {
            "id": 7,
            "round": 2,
            "home_id": 2,
            "away_id": 1,
            "home_score": 0,
            "away_score": 2,
            "confirmed": True,
            "games": [70, 71],
        },
        {
            "id": 5,
            "round": 1,
            "home_id": 1,
            "away_id": 2,
            "home_score": 1,
            "away_score": 1,
            "confirmed": False,
            "games": [50, 51],
        },
    ]
    data = matrix_of(order, played)
    assert data["teams"] == order
    borgo, castello = data["pairs"]
    assert (borgo["team"], borgo["opponent"]) == (1, 2)
    assert [
        (m["match"], m["score"], m["opponent_score"], m["outcome"]) for m in borgo["meetings"]
    ] == [
        (5, 1, 1, "drawn"),
        (7, 2, 0, "won"),
    ]
    assert [(m["score"], m["opponent_score"], m["outcome"]) for m in castello["meetings"]] == [
        (1, 1, "drawn"),
        (0, 2, "lost"),
    ]
    assert castello["meetings"][1]["games"] == [70, 71]


def _play(competition, user, number, winner_of_board):
    """Round ``number``: each board's game won by ``winner_of_board(match, board)`` (0: home)."""
    for match in competition.team_matches.filter(round_number=number):
        set_both(match, user)
        for board in match.boards.select_related("game").order_by("number"):
            play(board.game, briscola_won_by(winner_of_board(match, board.number), 4, 2), user)


def _recount(competition):
    """From the boards' games alone: {(team, opponent): [(round, boards won, boards lost)]}."""
    seen = {}
    for match in competition.team_matches.order_by("round_number", "pk"):
        boards = list(match.boards.select_related("game").order_by("number"))
        finished = [b.game is not None and b.game.status == GameStatus.FINISHED for b in boards]
        if not boards or not all(finished):
            continue
        home = sum(b.game.totals[0] > b.game.totals[1] for b in boards)
        away = len(boards) - home
        seen.setdefault((match.home_id, match.away_id), []).append((match.round_number, home, away))
        seen.setdefault((match.away_id, match.home_id), []).append((match.round_number, away, home))
    return seen


@pytest.fixture
def played(club, olga):
    """A round robin of 4 teams (its whole schedule drawn at once), rounds 1 and 2 played:
    in round 1 the home team wins both boards, in round 2 the boards are split."""
    competition, _teams = palio(club, olga, result_by="boards")
    team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))
    _play(competition, olga, 1, lambda match, board: 0)
    _play(competition, olga, 2, lambda match, board: board - 1)
    return competition


def test_the_pairs_are_the_matches_the_boards_games_give(played):
    data = team_head_to_head(played)
    got = {
        (p["team"], p["opponent"]): [
            (m["round"], m["score"], m["opponent_score"]) for m in p["meetings"]
        ]
        for p in data["pairs"]
    }
    assert got == _recount(played)
    assert len(got) == 8  # 4 matches over two rounds, each seen from both sides
    assert {m["outcome"] for p in data["pairs"] for m in p["meetings"]} == {"won", "lost", "drawn"}
    for pair in data["pairs"]:
        for meeting in pair["meetings"]:
            match = played.team_matches.get(pk=meeting["match"])
            assert meeting["games"] == [b.game_id for b in match.boards.order_by("number")]


def test_the_public_standings_page_shows_the_matrix_with_each_boards_game(played):
    page = Client().get(f"/p/{played.club.slug}/{played.slug}/team-standings/")
    assert page.status_code == 200
    html = page.content.decode()
    section = html.split('id="head-to-head"', 1)[1].split("</section>", 1)[0]
    games = {int(g) for g in re.findall(r'href="/g/(\d+)/"', section)}
    boards = {  # the games of the matches played (round 3 has no lineups, so no games)
        game
        for match in played.team_matches.filter(round_number__in=(1, 2))
        for game in match.boards.values_list("game_id", flat=True)
    }
    assert games == boards
    assert section.count('class="h2h-m ') == 8
    assert '<th scope="row">' in section and "Who beat whom" in section


def test_the_api_gives_the_same_and_hides_a_private_palio(played, olga):
    url = f"/api/v1/competitions/{played.pk}/team-head-to-head/"
    answer = Client().get(url)
    assert answer.status_code == 200
    assert answer.json() == team_head_to_head(played)
    played.public = False
    played.save(update_fields=["public"])
    assert Client().get(url).status_code == 404
    assert Client().get(f"/p/{played.club.slug}/{played.slug}/team-standings/").status_code == 404
    assert api_as(olga).get(url).status_code == 200  # its organizer still reads it


def test_a_competition_without_team_matches_has_none(club, olga):
    competition = make_competition(club, olga)
    answer = api_as(olga).get(f"/api/v1/competitions/{competition.pk}/team-head-to-head/")
    assert answer.status_code == 404
    assert team_head_to_head(competition) is None
