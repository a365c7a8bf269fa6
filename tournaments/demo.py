"""The demo club's competitions, added by ``manage.py loaddemo`` (registered in
``scoring.extensions.DEMO_LOADERS`` by ``TournamentsConfig.ready``).

* **Torneo sociale di Terziglio**: a tournament played a few weeks ago, thirteen players, three
  rounds of rotation at tables of three (and one of four), every game played to its end, every
  round closed and its results declared final.
* **Campionato del circolo**: a league of weekly club nights alternating Briscola and Terziglio.
  Three past nights are closed (each with the players who came that night), tonight's is
  published with some tables finished and others still playing, and next week's is a draft
  waiting for its check-ins and its draw.

Everything goes through the public services (``tournaments.services`` for the competition,
``scoring.services.record_hand`` for the hands), as the demo user, like an organizer would. The
hands come from the generators of :mod:`scoring.demo`; the draws and the hands are drawn from
``random.Random(SEED)``, so a fresh database always gets the same competitions. The dates follow
the day the demo is loaded, so that the league is always running. A competition that already
exists (by its short name) is left alone.
"""

from __future__ import annotations

import datetime as dt
import random

from django.utils import timezone

from scoring import demo as scoring_demo
from scoring import services as scoring
from scoring.models import Club, Game, GameStatus, Player
from scoring.services import Actor
from tournaments import services
from tournaments.models import Competition, Format, Kind, Round, RoundStatus

SEED = 11
TOURNAMENT_NAME = "Torneo sociale di Terziglio"
TOURNAMENT_SLUG = "torneo-sociale"
TOURNAMENT_PLAYERS = scoring_demo.PLAYER_NAMES[:13]
TOURNAMENT_ROUNDS = 3
LEAGUE_NAME = "Campionato del circolo"
LEAGUE_SLUG = "campionato"
#: The club nights, a week apart, in order: their game, and how many players came.
LEAGUE_NIGHTS = (("briscola", 10), ("terziglio", 12), ("briscola", 9), ("terziglio", 10))
#: The game of next week's night, still a draft.
LEAGUE_NEXT = "briscola"
NIGHT_START = dt.time(21, 0)


def load(club: Club, user) -> list[str]:
    """Add the demo competitions missing from ``club``; one line per competition saying what
    was created or kept."""
    if club.slug != scoring_demo.CLUB_SLUG:
        return []
    by = Actor.for_user(user)
    players = {p.display_name: p for p in Player.objects.filter(club=club)}
    today = timezone.localdate()
    lines = []
    for slug, build in ((TOURNAMENT_SLUG, build_tournament), (LEAGUE_SLUG, build_league)):
        competition = Competition.objects.filter(club=club, slug=slug).first()
        verb = "Kept"
        if competition is None:
            # Each competition its own stream, so that one does not change the other.
            rng = random.Random(f"{SEED}-{slug}")
            competition = build(club, by, players, today, rng)
            verb = "Created"
        lines.append(f"{verb} the {summary(competition)}")
    return lines


def build_tournament(
    club: Club, by: Actor, players: dict[str, Player], today: dt.date, rng: random.Random
) -> Competition:
    # A Saturday afternoon at least five weeks ago.
    day = today - dt.timedelta(days=35 + (today.weekday() - 5) % 7)
    competition = services.create_competition(
        club=club,
        by=by,
        name=TOURNAMENT_NAME,
        slug=TOURNAMENT_SLUG,
        rulesets=["terziglio"],
        kind=Kind.TOURNAMENT,
        format=Format.ROTATION,
        planned_rounds=TOURNAMENT_ROUNDS,
        start_date=day,
        end_date=day,
        description="Tre turni a rotazione, tavoli da tre: si incontrano quasi tutti.",
    )
    for name in TOURNAMENT_PLAYERS:
        services.add_entry(competition=competition, player=players[name], by=by)
    # Played weeks ago, checked and declared final (a circuit counts it: circuits/demo.py).
    return play_rotation(competition, by, rng, day, dt.time(15, 0))


def play_rotation(
    competition: Competition, by: Actor, rng: random.Random, day: dt.date, start: dt.time
) -> Competition:
    """A rotation tournament of one afternoon, its entries in: every planned round drawn at
    once, each published, its games played to their end and closed; the results declared final."""
    first = services.add_round(
        competition=competition, by=by, date=day, start_time=start, duration_minutes=80
    )
    # Rotation draws every planned round at once (the later ones follow on the same afternoon).
    services.generate_round(round_=first, by=by, seed=rng.randrange(1, 10**6))
    for round_ in competition.rounds.order_by("number"):
        services.publish_round(round_=round_, by=by)
        for game in round_games(round_):
            play(game, by, rng, finish=True)
        services.close_round(round_=round_, by=by)
    return services.finalize_competition(competition=competition, by=by)


def build_league(
    club: Club, by: Actor, players: dict[str, Player], today: dt.date, rng: random.Random
) -> Competition:
    first_night = today - dt.timedelta(weeks=len(LEAGUE_NIGHTS) - 1)
    competition = services.create_competition(
        club=club,
        by=by,
        name=LEAGUE_NAME,
        slug=LEAGUE_SLUG,
        rulesets=["briscola", "terziglio"],
        kind=Kind.LEAGUE,
        format=Format.CLUB_NIGHT,
        start_date=first_night,
        description="Una sera a settimana, Briscola e Terziglio a sere alterne: "
        "si gioca con chi c'è.",
    )
    entries = [
        services.add_entry(competition=competition, player=players[name], by=by)
        for name in scoring_demo.PLAYER_NAMES
    ]
    for index, (ruleset, present) in enumerate(LEAGUE_NIGHTS):
        tonight = index == len(LEAGUE_NIGHTS) - 1
        round_ = services.add_round(
            competition=competition,
            by=by,
            ruleset=ruleset,
            date=first_night + dt.timedelta(weeks=index),
            start_time=NIGHT_START,
            duration_minutes=150,
        )
        services.set_check_ins(round_=round_, entries=rng.sample(entries, present), by=by)
        services.generate_round(round_=round_, by=by, seed=rng.randrange(1, 10**6))
        services.publish_round(round_=round_, by=by)
        games = round_games(round_)
        for number, game in enumerate(games):
            # Tonight, the first half of the tables have finished; the others are still playing.
            play(game, by, rng, finish=not tonight or number < len(games) // 2)
        if not tonight:
            services.close_round(round_=round_, by=by)
    services.add_round(
        competition=competition,
        by=by,
        ruleset=LEAGUE_NEXT,
        date=today + dt.timedelta(weeks=1),
        start_time=NIGHT_START,
        duration_minutes=150,
    )
    return competition


def round_games(round_: Round) -> list[Game]:
    return [table.game for table in round_.tables.select_related("game").order_by("number")]


def play(game: Game, by: Actor, rng: random.Random, *, finish: bool) -> None:
    """Enter the hands of ``game``: to its end, or a few that leave it in progress."""
    if finish:
        # A match counted in hands won (Briscola) is over in two or three hands; a points game
        # of three hands bores.
        short_match = game.rules.totals_are_hands_won
        shortest = 2 if short_match else 6
        plan = scoring_demo.Plan(game.ruleset, (), game.title, min_hands=shortest, max_hands=20)
    else:
        hands = rng.randint(1, 2) if game.rules.totals_are_hands_won else rng.randint(3, 6)
        plan = scoring_demo.Plan(game.ruleset, (), game.title, finish=False, hands=hands)
    for document in scoring_demo.deal_game(game.ruleset, game.options, game.n, rng, plan):
        scoring.record_hand(game=game, document=document, by=by)


def summary(competition: Competition) -> str:
    """One line: the competition, its entries, and where its rounds are."""
    rounds = list(competition.rounds.order_by("number"))
    games = Game.objects.filter(competition_table__round__competition=competition)
    finished = games.filter(status=GameStatus.FINISHED).count()
    by_status = {
        status: sum(r.status == status for r in rounds)
        for status in (RoundStatus.CLOSED, RoundStatus.PUBLISHED, RoundStatus.DRAFT)
    }
    return (
        f"{'league' if competition.kind == Kind.LEAGUE else 'tournament'} {competition.name} ({competition.slug}): "
        f"{competition.entries.count()} entries; rounds: {by_status[RoundStatus.CLOSED]} closed, "
        f"{by_status[RoundStatus.PUBLISHED]} under way, {by_status[RoundStatus.DRAFT]} draft; "
        f"games: {finished} finished of {games.count()}."
    )
