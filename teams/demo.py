"""The demo club's palio, added by ``manage.py loaddemo`` (registered in
``scoring.extensions.DEMO_LOADERS`` by ``TeamsConfig.ready``, after the competitions').

* **Palio dei rioni**: four districts of the town (Borgo, Castello, Duomo, Porta), three players
  each, meet in a round robin of Briscola, two boards a match, one player a side at each board.
  The first two rounds were played on Friday evenings and their results confirmed; the last round
  is dated next Friday, its lineups not yet given: the palio's standings show who can still win
  it and the calendar shows the matches to come.

Through the public services, as the demo user, like an organizer would; the games' hands come
from the demo's generators, drawn from ``random.Random(SEED)``, so a fresh database always gets
the same palio. A competition that already exists (by its short name) is left alone.
"""

from __future__ import annotations

import datetime as dt
import random

from django.utils import timezone

from scoring import demo as scoring_demo
from scoring.models import Club, Player
from scoring.services import Actor
from teams import selectors, services
from teams.models import TeamMatch
from tournaments import demo as competitions_demo
from tournaments import services as competitions
from tournaments.models import Competition, Format, Kind

SEED = 23
NAME = "Palio dei rioni"
SLUG = "palio-dei-rioni"
#: The districts and their players (the demo club's, three a district, a reserve among them).
DISTRICTS = (
    ("Borgo", ("Anna", "Bruno", "Carla")),
    ("Castello", ("Dario", "Elena", "Franco")),
    ("Duomo", ("Giulia", "Luca", "Marta")),
    ("Porta", ("Nicola", "Paola", "Sandro")),
)
BOARDS = 2
#: Of the round robin's three rounds, the ones already played.
PLAYED_ROUNDS = 2
EVENING = dt.time(21, 0)


def load(club: Club, user) -> list[str]:
    """Add the demo palio unless it is there; one line saying what was created or kept."""
    if club.slug != scoring_demo.CLUB_SLUG:
        return []
    competition = Competition.objects.filter(club=club, slug=SLUG).first()
    if competition is not None:
        return [f"Kept the palio {summary(competition)}"]
    competition = build(club, Actor.for_user(user), random.Random(SEED))
    return [f"Created the palio {summary(competition)}"]


def build(club: Club, by: Actor, rng: random.Random) -> Competition:
    today = timezone.localdate()
    # Round r is played on a Friday: the last played one is the latest Friday before today.
    last_friday = today - dt.timedelta(days=(today.weekday() - 4) % 7 or 7)
    fridays = [
        last_friday + dt.timedelta(weeks=n - PLAYED_ROUNDS) for n in range(1, len(DISTRICTS))
    ]
    competition = competitions.create_competition(
        club=club,
        by=by,
        name=NAME,
        slug=SLUG,
        rulesets=["briscola"],
        kind=Kind.TOURNAMENT,
        format=Format.ROUND_ROBIN,
        scheme="matches_won",
        start_date=fridays[0],
        end_date=fridays[-1],
        description="Quattro rioni, tre giocatori ciascuno: ogni sfida si gioca su due tavoli "
        "di Briscola a due, un venerdì sera a settimana.",
    )
    services.set_team_rules(
        competition=competition,
        by=by,
        boards=BOARDS,
        players_per_board=1,
        win_points=2,
        draw_points=1,
    )
    players = {p.display_name: p for p in Player.objects.filter(club=club)}
    for district, names in DISTRICTS:
        team = services.add_team(competition=competition, name=district, by=by)
        for name in names:
            services.add_to_roster(team=team, player=players[name].pk, by=by)
    services.draw_team_round(competition=competition, by=by)
    for number, friday in enumerate(fridays, start=1):
        services.schedule_team_matches(
            competition=competition, by=by, round_number=number, date=friday, start_time=EVENING
        )
        if number <= PLAYED_ROUNDS:
            for match in competition.team_matches.filter(round_number=number).order_by("number"):
                play_match(match, by, rng)
    return competition


def play_match(match: TeamMatch, by: Actor, rng: random.Random) -> None:
    """Both lineups (each district rests one of its three, in turn), every board played to its
    end, and the result the boards give confirmed."""
    for side, team in (("home", match.home), ("away", match.away)):
        roster = list(team.roster.order_by("pk").values_list("player_id", flat=True))
        resting = (match.round_number - 1) % len(roster)
        playing = [pk for index, pk in enumerate(roster) if index != resting]
        lineup = {board: [playing[board - 1]] for board in range(1, BOARDS + 1)}
        services.set_lineup(match=match, side=side, lineup=lineup, by=by)
    for board in match.boards.select_related("game").order_by("number"):
        competitions_demo.play(board.game, by, rng, finish=True)
    outcome = selectors.match_outcome(match, match.competition.team_rules)
    services.confirm_match_result(
        match=match, home_score=outcome.home_score, away_score=outcome.away_score, by=by
    )


def summary(competition: Competition) -> str:
    """One line: the palio, its teams and how many of its matches are confirmed."""
    matches = competition.team_matches.all()
    confirmed = matches.filter(confirmed_at__isnull=False).count()
    return (
        f"{competition.name} ({competition.slug}): {competition.teams.count()} teams; "
        f"matches: {confirmed} confirmed of {matches.count()}."
    )
