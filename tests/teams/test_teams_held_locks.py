"""A team's lineup set while a hand of one of its match's boards is being entered from a second
connection (the board's game row locked, the hand inserted, not yet committed:
``tests.held_lock``): the lineup waits for the hand and sees it, so a board that has started
is never seated again under a hand the phone was told was stored (issue 33, point 1)."""

from __future__ import annotations

import pytest

from scoring import services as scoring
from scoring.models import Game, GameStatus, Hand, Seat
from scoring.services import Actor
from teams.models import LineupSlot, TeamMatch
from teams.services import team_draw, teams
from tests.held_lock import while_held
from tests.teams.test_teams import lineup_for, palio, set_both
from tests.tournaments.helpers import briscola_won_by, play

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_lineup_changed_while_a_board_hand_is_entered_waits_and_is_refused(club, olga):
    by = Actor.for_user(olga)
    competition, _teams = palio(club, olga, roster=6, lineup_may_change=True)
    match = team_draw.draw_team_round(competition=competition, by=by)[0]
    set_both(match, olga)
    board = match.boards.get(number=1)
    seats = list(
        Seat.objects.filter(game=board.game_id)
        .order_by("index")
        .values_list("player_id", flat=True)
    )
    slots = list(
        LineupSlot.objects.filter(match=match).order_by("pk").values_list("board", "side", "player")
    )
    hand = {"dealer": 0, "points": [70, 50]}

    def changing():
        fresh = TeamMatch.objects.select_related("competition__club", "home", "away").get(
            pk=match.pk
        )
        return teams.set_lineup(
            match=fresh, side="home", lineup=lineup_for(fresh.home, start=2), by=by
        )

    kind, answer = while_held(
        lambda: scoring.record_hand(game=board.game_id, document=hand, by=by), changing
    )
    assert kind == "refused", answer
    assert [(p.field, p.params.get("reason")) for p in answer.problems] == [
        ("lineup.1", "board_started")
    ]
    assert Hand.objects.filter(game_id=board.game_id).count() == 1
    assert (
        list(
            Seat.objects.filter(game=board.game_id)
            .order_by("index")
            .values_list("player_id", flat=True)
        )
        == seats
    )
    assert (
        list(
            LineupSlot.objects.filter(match=match)
            .order_by("pk")
            .values_list("board", "side", "player")
        )
        == slots
    )


def test_a_result_confirmed_while_a_board_loses_its_last_hand_waits_and_is_refused(club, olga):
    by = Actor.for_user(olga)
    competition, _teams = palio(club, olga)
    match = team_draw.draw_team_round(competition=competition, by=by)[0]
    set_both(match, olga)
    one, two = match.boards.order_by("number").select_related("game")
    play(one.game, briscola_won_by(0, 4, 2), olga)
    play(two.game, briscola_won_by(1, 4, 2), olga)  # one board each: 1 to 1, both finished

    def confirming():
        fresh = TeamMatch.objects.select_related("competition__club").get(pk=match.pk)
        return teams.confirm_match_result(match=fresh, home_score=1, away_score=1, by=by)

    kind, answer = while_held(
        lambda: scoring.remove_hand(game=two.game_id, number=2, by=by, reason="Wrong table"),
        confirming,
    )
    assert kind == "refused", answer
    assert [(p.field, p.params.get("reason")) for p in answer.problems] == [
        ("match", "boards_unfinished")
    ]
    assert TeamMatch.objects.get(pk=match.pk).confirmed_at is None
    assert Game.objects.get(pk=two.game_id).status == GameStatus.IN_PROGRESS
