"""Competitions between teams through their services: rules, teams, rosters, lineups (and
every refusal of bad input, with nothing stored), the boards' games entered as any game, the
match result derived from the boards, the formats' draws and the team standings."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from scoring import services as scoring
from scoring.models import AuditEvent, Game, Player
from scoring.rules import RuleViolation
from scoring.services import Actor, NotAllowed
from teams import selectors as team_selectors
from teams.models import LineupSlot, RosterPlayer, Team, TeamMatch
from teams.services import team_draw, teams
from tests.tournaments.helpers import briscola_won_by, codes, make_competition, play
from tournaments.models import Competition, CompetitionEvent

pytestmark = pytest.mark.django_db

DISTRICTS = ["Borgo", "Castello", "Duomo", "Porta"]


def _players(club, count, prefix):
    return [scoring.new_player(club, f"{prefix} {i}") for i in range(count)]


def palio(club, user, *, teams_count=4, roster=4, fmt="round_robin", **rules):
    """A palio of ``teams_count`` districts, each with ``roster`` players (pairs at 2 boards
    unless told), rules as given."""
    number = Competition.objects.count() + 1
    competition = make_competition(
        club, user, name=f"Palio {number}", rulesets=["briscola"], format=fmt, scheme="matches_won"
    )
    rules.setdefault("boards", 2)
    teams.set_team_rules(competition=competition, by=Actor.for_user(user), **rules)
    made = []
    for name in DISTRICTS[:teams_count]:
        team = teams.add_team(competition=competition, name=name, by=Actor.for_user(user))
        for player in _players(club, roster, f"{name} {number}"):
            teams.add_to_roster(team=team, player=player.pk, by=Actor.for_user(user))
        made.append(team)
    return competition, made


def roster_ids(team):
    return list(team.roster.order_by("pk").values_list("player_id", flat=True))


def lineup_for(team, boards=2, per_board=2, start=0):
    ids = roster_ids(team)[start:]
    return {n: ids[(n - 1) * per_board : n * per_board] for n in range(1, boards + 1)}


def set_both(match, user, **kw):
    for side, team in (("home", match.home), ("away", match.away)):
        teams.set_lineup(
            match=match, side=side, lineup=lineup_for(team, **kw), by=Actor.for_user(user)
        )


def test_lineups_create_the_boards_games_and_the_result_comes_from_the_boards(club, olga):
    competition, _teams = palio(club, olga)
    drawn = team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))
    assert len(drawn) == 6  # 4 teams: 3 rounds of 2 matches
    assert sorted({m.round_number for m in drawn}) == [1, 2, 3]
    match = drawn[0]
    assert match.venue_id == match.home.club_id
    boards = list(match.boards.order_by("number"))
    assert [b.game_id for b in boards] == [None, None]
    set_both(match, olga)
    boards = list(match.boards.order_by("number").select_related("game"))
    home_ids, away_ids = roster_ids(match.home), roster_ids(match.away)
    game = boards[0].game
    seats = list(game.seats.order_by("index").values_list("player_id", flat=True))
    # home, away, home, away: the pairs sit crosswise
    assert seats == [home_ids[0], away_ids[0], home_ids[1], away_ids[1]]
    assert game.options["format"] == "pairs"
    assert team_selectors.match_outcome(match, competition.team_rules) is None
    play(boards[0].game, briscola_won_by(0, 4, 2), olga)
    play(boards[1].game, briscola_won_by(1, 4, 2), olga)
    outcome = team_selectors.match_outcome(match, competition.team_rules)
    assert (outcome.home_boards, outcome.away_boards, outcome.winner) == (1, 1, None)
    # A result that contradicts the boards is refused, by name; the right one is recorded.
    with pytest.raises(RuleViolation) as refused:
        teams.confirm_match_result(match=match, home_score=2, away_score=0, by=Actor.for_user(olga))
    assert codes(refused.value) == {("home_score", "inconsistent")}
    assert TeamMatch.objects.get(pk=match.pk).confirmed_at is None
    teams.confirm_match_result(match=match, home_score=1, away_score=1, by=Actor.for_user(olga))
    assert TeamMatch.objects.get(pk=match.pk).confirmed_at is not None
    standings = team_selectors.team_standings(competition)["standings"]
    assert standings.row(match.home_id).drawn == 1
    assert (
        CompetitionEvent.objects.filter(competition=competition, action="set_lineup").count() == 2
    )


def test_a_lineup_with_a_player_off_the_roster_or_at_two_boards_is_refused(club, olga):
    competition, _teams = palio(club, olga)
    match = team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))[0]
    home = match.home
    ids = roster_ids(home)
    stranger = roster_ids(match.away)[0]
    for lineup, expected in (
        ({1: [ids[0], stranger], 2: ids[2:4]}, {("lineup.1.1", "not_allowed")}),
        ({1: ids[0:2], 2: [ids[1], ids[2]]}, {("lineup.2.0", "duplicate")}),
        ({1: ids[0:2]}, {("lineup.2", "required")}),
        ({1: ids[0:1], 2: ids[2:4]}, {("lineup.1", "length")}),
        ({1: ids[0:2], 2: ids[2:4], 9: ids[:2]}, {("lineup.9", "not_found")}),
    ):
        with pytest.raises(RuleViolation) as refused:
            teams.set_lineup(match=match, side="home", lineup=lineup, by=Actor.for_user(olga))
        assert codes(refused.value) == expected
    assert not LineupSlot.objects.filter(match=match).exists()
    assert "not on the team's roster" in str(
        _message(match, olga, {1: [ids[0], stranger], 2: ids[2:4]})
    )


def _message(match, user, lineup):
    from scoring.messages import message

    try:
        teams.set_lineup(match=match, side="home", lineup=lineup, by=Actor.for_user(user))
    except RuleViolation as error:
        return message(error.problems[0])
    raise AssertionError("not refused")


def test_a_player_on_two_teams_of_one_competition_is_refused_by_the_service_and_the_database(
    club, olga
):
    competition, (borgo, castello, *_rest) = palio(club, olga)
    taken = roster_ids(borgo)[0]
    with pytest.raises(RuleViolation) as refused:
        teams.add_to_roster(team=castello, player=taken, by=Actor.for_user(olga))
    assert codes(refused.value) == {("player", "duplicate")}
    with pytest.raises(IntegrityError), transaction.atomic():
        RosterPlayer.objects.create(team=castello, competition=competition, player_id=taken)
    # Another competition may take the same player.
    _other, (team, *_x) = palio(club, olga, teams_count=2, roster=0)
    teams.add_to_roster(team=team, player=taken, by=Actor.for_user(olga))


def test_the_lineup_is_fixed_once_a_game_of_the_match_started_unless_the_rules_allow(club, olga):
    for may_change in (False, True):
        competition, _teams = palio(club, olga, lineup_may_change=may_change, roster=6)
        match = team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))[0]
        set_both(match, olga)
        first = match.boards.get(number=1).game
        play(first, briscola_won_by(0, 4, 1), olga)
        ids = roster_ids(match.home)
        changed_board_2 = {1: ids[0:2], 2: [ids[2], ids[4]]}
        if not may_change:
            with pytest.raises(RuleViolation) as refused:
                teams.set_lineup(
                    match=match, side="home", lineup=changed_board_2, by=Actor.for_user(olga)
                )
            assert codes(refused.value) == {("lineup", "not_allowed")}
            assert team_selectors.lineup_of(match)[(2, "home")] == ids[2:4]
        else:
            teams.set_lineup(
                match=match, side="home", lineup=changed_board_2, by=Actor.for_user(olga)
            )
            game = Game.objects.get(pk=match.boards.get(number=2).game_id)
            assert game.seats.get(index=2).player_id == ids[4]
            # A board whose game started keeps its players.
            with pytest.raises(RuleViolation) as refused:
                teams.set_lineup(
                    match=match,
                    side="home",
                    lineup={1: [ids[0], ids[5]], 2: [ids[2], ids[4]]},
                    by=Actor.for_user(olga),
                )
            assert codes(refused.value) == {("lineup.1", "not_allowed")}


def test_the_captain_sets_the_lineup_and_a_stranger_may_not(club, olga, oscar, sara, players):
    competition, (borgo, *_rest) = palio(club, olga)
    captain = Player.objects.get(pk=roster_ids(borgo)[0])
    captain.user = sara
    captain.save()
    Team.objects.filter(pk=borgo.pk).update(captain=captain)
    match = next(
        m
        for m in team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))
        if borgo.pk in (m.home_id, m.away_id)
    )
    side = "home" if match.home_id == borgo.pk else "away"
    other = "away" if side == "home" else "home"
    teams.set_lineup(
        match=match,
        side=side,
        lineup=lineup_for(Team.objects.get(pk=borgo.pk)),
        by=Actor.for_user(sara),
    )
    other_team = match.away if side == "home" else match.home
    with pytest.raises(NotAllowed):
        teams.set_lineup(
            match=match, side=other, lineup=lineup_for(other_team), by=Actor.for_user(sara)
        )


def test_rules_and_teams_refusals(club, olga):
    competition = make_competition(club, olga, rulesets=["terziglio"], format="rotation")
    with pytest.raises(RuleViolation) as refused:
        teams.set_team_rules(competition=competition, by=Actor.for_user(olga))
    assert codes(refused.value) == {("format", "inconsistent")}
    competition, _teams = palio(club, olga, teams_count=2, roster=0)
    for kwargs, expected in (
        ({"boards": 0}, ("boards", "range")),
        ({"players_per_board": 3}, ("players_per_board", "range")),
        ({"result_by": "luck"}, ("result_by", "choice")),
        ({"win_points": 0, "draw_points": 1}, ("draw_points", "inconsistent")),
    ):
        with pytest.raises(RuleViolation) as refused:
            teams.set_team_rules(competition=competition, by=Actor.for_user(olga), **kwargs)
        assert codes(refused.value) == {expected}
    with pytest.raises(RuleViolation) as refused:
        teams.add_team(competition=competition, name="borgo", by=Actor.for_user(olga))
    assert codes(refused.value) == {("name", "duplicate")}
    with pytest.raises(RuleViolation) as refused:
        team_draw.draw_team_round(
            competition=make_competition(
                club, olga, name="Vuoto", rulesets=["briscola"], format="round_robin"
            ),
            by=Actor.for_user(olga),
        )
    assert codes(refused.value) == {("competition", "not_allowed")}


def test_double_round_robin_swaps_home_and_away(club, olga):
    competition, _made = palio(club, olga)
    competition.double_round = True
    competition.save(update_fields=["double_round"])
    drawn = team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))
    assert len(drawn) == 12
    first = {(m.home_id, m.away_id) for m in drawn if m.leg == 1}
    second = {(m.away_id, m.home_id) for m in drawn if m.leg == 2}
    assert first == second
    with pytest.raises(RuleViolation) as refused:
        team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))
    assert codes(refused.value) == {("competition", "not_allowed")}


def _play_round(competition, user, number, home_wins=True):
    for match in competition.team_matches.filter(round_number=number):
        set_both(match, user)
        for board in match.boards.select_related("game"):
            play(board.game, briscola_won_by(0 if home_wins else 1, 4, 2), user)


def test_knockout_of_teams_takes_the_winners_on(club, olga):
    competition, _made = palio(club, olga, fmt="knockout")
    first = team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))
    assert len(first) == 2
    with pytest.raises(RuleViolation):
        team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))
    _play_round(competition, olga, 1)
    (final,) = team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))
    assert {final.home_id, final.away_id} == {m.home_id for m in first}


def test_swiss_of_teams_pairs_by_match_points_without_repeats(club, olga):
    competition, _made = palio(club, olga, fmt="swiss")
    first = team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))
    assert len(first) == 2
    _play_round(competition, olga, 1)
    second = team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))
    winners = {m.home_id for m in first}
    met = {frozenset((m.home_id, m.away_id)) for m in first}
    assert any({m.home_id, m.away_id} == winners for m in second)
    assert not any(frozenset((m.home_id, m.away_id)) in met for m in second)


def test_a_boards_game_started_or_seated_again_by_a_lineup_names_who_set_it(club, olga):
    competition, _teams = palio(club, olga, lineup_may_change=True)
    match = team_draw.draw_team_round(competition=competition, by=Actor.for_user(olga))[0]
    set_both(match, olga)
    game = match.boards.order_by("number").first().game
    # the home side moves its two pairs from one board to the other (no hand played yet)
    ids = roster_ids(match.home)
    teams.set_lineup(
        match=match, side="home", lineup={1: ids[2:4], 2: ids[0:2]}, by=Actor.for_user(olga)
    )
    trail = AuditEvent.objects.filter(game=game).order_by("pk")
    assert [(e.action, e.actor_id) for e in trail] == [
        ("start_game", olga.pk),
        ("reseat_game", olga.pk),
    ]
