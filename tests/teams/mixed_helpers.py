"""A team event at mixed tables, set up and played through the services: ``TEAMS`` of
``per_team`` players entered by their teams, each round drawn (seed 1), published, every table
played by ``documents(order)`` where ``order`` lists the table's seats best first by the round's
team order, then closed."""

from __future__ import annotations

from itertools import combinations

from scoring import services as scoring
from scoring.services import Actor
from teams import selectors as team_selectors
from teams.services import teams
from tests.tournaments.helpers import make_competition, play
from tournaments import services

TEAMS = ["Borgo", "Castello", "Duomo", "Porta", "Rione"]


def mixed_event(club, user, *, game, size, count=4, per_team=3, **fields):
    by = Actor.for_user(user)
    competition = make_competition(
        club,
        user,
        name=f"Palio {game}",
        rulesets=[game],
        table_size=size,
        min_table_size=size,
        max_table_size=size,
        **fields,
    )
    teams.set_team_rules(competition=competition, by=by, kind="mixed_tables", lots_seed="palio")
    made = []
    for name in TEAMS[:count]:
        players = [scoring.new_player(club, f"{name} {i}") for i in range(1, per_team + 1)]
        made.append(teams.add_team(competition=competition, name=name, by=by, players=players))
    return competition, made


def team_of_entries(competition) -> dict[int, str]:
    names = {t.pk: t.name for t in competition.teams.all()}
    return {
        entry: names[team]
        for team, entries in team_selectors.member_entries(competition).items()
        for entry in entries
    }


def play_round(competition, user, orders, documents, number):
    """Draw (the first round: a rotation plans them all), publish, play and close round
    ``number``; ``orders[number - 1]`` is the round's team order, best first."""
    by = Actor.for_user(user)
    round_ = competition.rounds.filter(number=number).first()
    if round_ is None:
        round_ = services.add_round(competition=competition, by=by)
    if not round_.tables.exists():
        services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    team_of = team_of_entries(competition)
    rank = {name: i for i, name in enumerate(orders[number - 1])}
    tables = []
    for table in round_.tables.select_related("game").order_by("number"):
        seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
        tables.append([team_of[e] for e in seats])
        order = sorted(range(len(seats)), key=lambda s: rank[team_of[seats[s]]])
        play(table.game, documents(order), user)
    services.close_round(round_=round_, by=by)
    return tables


def team_mates_together(tables) -> int:
    return sum(a == b for table in tables for a, b in combinations(table, 2))
