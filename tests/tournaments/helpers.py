"""Helpers shared by the competition tests (services, guards, API): enter players, play hands
through ``scoring.services.record_hand``, read tables and byes back. Plain functions, not
fixtures: each takes the personas (club, user) the test already has."""

from __future__ import annotations

from scoring import services as scoring
from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services import Actor
from tournaments import services
from tournaments.models import Entry, Round

NAMES = [
    "Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo", "Ivo", "Lia",
    "Mario", "Nina", "Olivia", "Piero", "Rita", "Sandro",
]  # fmt: skip


def codes(error: RuleViolation) -> set[tuple[str, str]]:
    return {(p.field, p.code) for p in error.problems}


def make_competition(club, user, **fields):
    fields.setdefault("name", "Torneo")
    fields.setdefault("rulesets", ["terziglio"])
    # These tests count the classic placement points (4/2/0, 3/2/1/0); new competitions default
    # to ``fair_placement``, tested on its own (test_standings_explained.py).
    fields.setdefault("scheme", "placement")
    return services.create_competition(club=club, by=Actor.for_user(user), **fields)


def enter(competition, user, count, *, seeded=False) -> list[Entry]:
    """``count`` new players entered, in order (seeds 1 … count when ``seeded``)."""
    return [
        services.add_entry(
            competition=competition,
            player=NAMES[i],
            seed=i + 1 if seeded else None,
            by=Actor.for_user(user),
        )
        for i in range(count)
    ]


def enter_pairs(competition, user, count) -> list[Entry]:
    return [
        services.add_entry(
            competition=competition,
            player=NAMES[2 * i],
            partner=NAMES[2 * i + 1],
            by=Actor.for_user(user),
        )
        for i in range(count)
    ]


def tables_of(round_: Round) -> list[tuple[int, ...]]:
    """Entry ids of each table, in seat order."""
    return [
        tuple(s.entry_id for s in table.seats.order_by("position"))
        for table in round_.tables.order_by("number")
    ]


def byes_of(round_: Round) -> set[int]:
    return set(round_.byes.values_list("entry_id", flat=True))


def terziglio_in_order(order: list[int]) -> list[dict]:
    """Hands of a three-seat Terziglio ending with the seats in ``order`` (first to last):
    the last fails a chiamo (-2, the others +1), then the first makes a scegliete (+32, the
    others -16). Totals: first 33, second -15, last -18."""
    first, _second, last = order
    return [
        {"dealer": 0, "outcome": "played", "soloist": last, "contract": "chiamo",
         "soloist_points": 5},
        {"dealer": 1, "outcome": "played", "soloist": first, "contract": "scegliete",
         "soloist_points": 6},
    ]  # fmt: skip


def terziglio_won_by(seat: int, n: int) -> list[dict]:
    """One hand that ends a Terziglio: ``seat`` makes a scegliete (+32 from two payers; at a
    table of four the dealer, seat 0, sits out and scores nothing). ``seat`` may not be 0 at a
    table of four."""
    dealer = 0 if n == 4 else (seat + 1) % n
    return [
        {"dealer": dealer, "outcome": "played", "soloist": seat, "contract": "scegliete",
         "soloist_points": 8},
    ]  # fmt: skip


def briscola_won_by(side: int, n: int, hands: int) -> list[dict]:
    """``hands`` hands all won by ``side`` (of two)."""
    points = [70, 50] if side == 0 else [50, 70]
    return [{"dealer": i % n, "points": points} for i in range(hands)]


def play(game: Game, documents: list[dict], user) -> Game:
    for document in documents:
        scoring.record_hand(game=game, document=document, by=Actor.for_user(user))
    return Game.objects.get(pk=game.pk)


def published_night(club, user, count: int, **fields) -> Round:
    """A club night of ``count`` Terziglio players drawn (seed 1) and published (7: a table of
    four and a table of three); ``round_.entries`` are its entries in order."""
    fields.setdefault("format", "club_night")
    competition = make_competition(club, user, **fields)
    entries = enter(competition, user, count)
    round_ = services.add_round(competition=competition, by=Actor.for_user(user))
    services.generate_round(round_=round_, by=Actor.for_user(user), seed=1)
    services.publish_round(round_=round_, by=Actor.for_user(user))
    round_.entries = entries
    return round_


def played_briscola_swiss(club, user, *, name, names, more, rounds, tie_breaks):
    """A Briscola Swiss of ``names`` and ``more`` numbered players, ``rounds`` rounds drawn,
    published, played (the first seat wins every game) and closed."""
    by = Actor.for_user(user)
    swiss = make_competition(
        club, user, name=name, rulesets=["briscola"], format="swiss", table_size=2,
        planned_rounds=rounds, tie_breaks=tie_breaks, options={"briscola": {"hands_to_win": 1}},
    )  # fmt: skip
    for player in names:
        services.add_entry(competition=swiss, player=player, by=by)
    enter(swiss, user, more)
    for _ in range(rounds):
        round_ = services.add_round(competition=swiss, by=by)
        services.generate_round(round_=round_, by=by)
        services.publish_round(round_=round_, by=by)
        for table in round_.tables.select_related("game"):
            play(table.game, briscola_won_by(0, 2, 1), user)
        services.close_round(round_=round_, by=by)
    return swiss
