"""The demo's circuit of two clubs, added by ``manage.py loaddemo`` (registered in
``scoring.extensions.DEMO_LOADERS`` by ``CircuitsConfig.ready``, after the competitions').

* **Circolo del Ponte**: a second club on the same server, also run by the demo login (so that
  both sides of a circuit can be seen: the organizer's invitation and the other club's consent),
  with ten players of its own. Two of them, Anna and Bruno, are the demo club's Anna and Bruno,
  who play at both clubs.
* **Torneo del Ponte**: that club's Terziglio tournament of two rounds, played two weeks ago and
  declared final.
* **Circuito del Lago**: the demo club's circuit of the season, with Circolo del Ponte invited
  and accepted; it counts the demo club's "Torneo sociale di Terziglio" and the Torneo del
  Ponte, best result of two, Anna and Bruno each linked as one person across the two clubs.

Through the public services, as the demo user, like the two clubs' organizers would; the hands
come from the demo's generators, drawn from ``random.Random(SEED)``. A circuit that already
exists (by its short name) is left alone, and so is the second club.
"""

from __future__ import annotations

import datetime as dt
import random

from django.utils import timezone

from circuits import services
from circuits.models import Circuit
from scoring import demo as scoring_demo
from scoring import services as scoring
from scoring.models import Club, Player
from scoring.services import Actor
from tournaments import demo as competitions_demo
from tournaments import services as competitions
from tournaments.models import Competition, Format, Kind

SEED = 31
NAME = "Circuito del Lago"
SLUG = "circuito-del-lago"
#: Points for the places of each competition: 1st, 2nd … 10th.
POINTS_TABLE = (25, 20, 16, 13, 11, 9, 7, 5, 3, 1)
BEST_OF = 2
OTHER_CLUB_NAME = "Circolo del Ponte"
OTHER_CLUB_SLUG = "circolo-del-ponte"
#: The other club's players; the first two are the demo club's players of the same names.
OTHER_PLAYERS = (
    "Anna",
    "Bruno",
    "Ilaria",
    "Ottavio",
    "Rita",
    "Teresa",
    "Ugo",
    "Vittoria",
    "Walter",
    "Zeno",
)
BOTH_CLUBS = ("Anna", "Bruno")
OTHER_TOURNAMENT_NAME = "Torneo del Ponte"
OTHER_TOURNAMENT_SLUG = "torneo-del-ponte"
OTHER_TOURNAMENT_ROUNDS = 2


def load(club: Club, user) -> list[str]:
    """Add the demo circuit (and the second club it needs) unless it is there."""
    if club.slug != scoring_demo.CLUB_SLUG:
        return []
    circuit = Circuit.objects.filter(club=club, slug=SLUG).first()
    if circuit is not None:
        return [f"Kept the circuit {summary(circuit)}"]
    by = Actor.for_user(user)
    other = Club.objects.filter(slug=OTHER_CLUB_SLUG).first() or build_other_club(by)
    circuit = build_circuit(club, other, by)
    return [f"Created the circuit {summary(circuit)}"]


def build_other_club(by: Actor) -> Club:
    """The second club, its players and its tournament, played and declared final."""
    other = scoring.create_club(
        name=OTHER_CLUB_NAME, slug=OTHER_CLUB_SLUG, by=by, language="it", results_public=True
    )
    players = [scoring.add_player(club=other, display_name=name, by=by) for name in OTHER_PLAYERS]
    rng = random.Random(SEED)
    today = timezone.localdate()
    # A Sunday afternoon two weeks ago.
    day = today - dt.timedelta(days=14 + (today.weekday() - 6) % 7)
    tournament = competitions.create_competition(
        club=other,
        by=by,
        name=OTHER_TOURNAMENT_NAME,
        slug=OTHER_TOURNAMENT_SLUG,
        rulesets=["terziglio"],
        kind=Kind.TOURNAMENT,
        format=Format.ROTATION,
        planned_rounds=OTHER_TOURNAMENT_ROUNDS,
        start_date=day,
        end_date=day,
        description="Due turni di Terziglio a rotazione, tappa del Circuito del Lago.",
    )
    for player in players:
        competitions.add_entry(competition=tournament, player=player, by=by)
    competitions_demo.play_rotation(tournament, by, rng, day, dt.time(15, 30))
    return other


def build_circuit(club: Club, other: Club, by: Actor) -> Circuit:
    circuit = services.create_circuit(
        club=club,
        by=by,
        name=NAME,
        slug=SLUG,
        season=str(timezone.localdate().year),
        points_table=list(POINTS_TABLE),
        best_of=BEST_OF,
        description="Le tappe dei circoli del lago: conta il miglior risultato di due.",
    )
    services.invite_club(circuit=circuit, by=by, club=other)
    services.accept_invitation(circuit=circuit, by=by, club=other)
    stages = [
        Competition.objects.get(club=club, slug=competitions_demo.TOURNAMENT_SLUG),
        Competition.objects.get(club=other, slug=OTHER_TOURNAMENT_SLUG),
    ]
    for competition in stages:
        services.add_competition(circuit=circuit, by=by, competition=competition)
    for name in BOTH_CLUBS:
        services.link_players(
            circuit=circuit,
            by=by,
            a=Player.objects.get(club=club, display_name=name),
            b=Player.objects.get(club=other, display_name=name),
        )
    return circuit


def summary(circuit: Circuit) -> str:
    """One line: the circuit, its clubs and competitions."""
    clubs = circuit.clubs.filter(accepted_at__isnull=False, left_at__isnull=True).count()
    return (
        f"{circuit.name} ({circuit.slug}): {clubs} clubs, "
        f"{circuit.competitions.count()} competitions, {circuit.links.count()} people linked "
        "across clubs."
    )
