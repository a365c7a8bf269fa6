"""The demo club that ``manage.py loaddemo`` builds: a living club to look around in.

"Circolo Demo" has a dozen players and, for every game the app scores, a finished game and a
game in progress, plus one abandoned game. The hands are made up by small generators, one per
game, that follow that game's rules (the dealer rotation, who sits out, the card points that can
occur); they are drawn from ``random.Random(SEED)``, so every run builds the same club. Some hands
are passed out (where the game has them) and a few were "entered wrong at the table" and then
corrected with a reason, so the history shows corrected hands and their audit trail.

Everything is written through :mod:`scoring.services` as the demo user, exactly as a scorer at
the table would: the services validate every hand again, which checks the generators.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from scoring import services
from scoring.models import Club, Game, GameStatus, Hand
from scoring.rules import RULESETS, RuleViolation, engine
from scoring.rules.turkish import PER_PACK
from scoring.services import Actor

CLUB_NAME = "Circolo Demo"
CLUB_SLUG = "circolo-demo"
SEED = 7
PLAYER_NAMES = (
    "Anna",
    "Bruno",
    "Carla",
    "Dario",
    "Elena",
    "Franco",
    "Giulia",
    "Luca",
    "Marta",
    "Nicola",
    "Paola",
    "Sandro",
    "Amélie",
    "Julien",
)

Document = dict[str, Any]
#: (rng, seats, resolved options, dealer) -> a valid hand document dealt by ``dealer``.
HandMaker = Callable[[random.Random, int, Mapping[str, Any], int], Document]
#: (rng, seats, resolved options, true document, player names) -> (the document as it was
#: mistakenly entered, the reason given when it was corrected), or None if no typo fits.
TypoMaker = Callable[
    [random.Random, int, Mapping[str, Any], Document, list[str]], tuple[Document, str] | None
]


@dataclass(frozen=True)
class Plan:
    """One demo game: who plays what, and how far it got."""

    ruleset: str
    players: tuple[str, ...]
    title: str
    options: Mapping[str, Any] = field(default_factory=dict)
    #: True: play until the game is over. False: stop after ``hands`` hands, still in progress.
    finish: bool = True
    hands: int = 0
    #: A finished game that took fewer or more hands is dealt again (a demo game over in two
    #: hands bores, one of ninety drowns the history).
    min_hands: int = 0
    max_hands: int = 30
    #: One hand is entered wrong, then corrected.
    corrected: bool = False
    #: Abandon the game (in progress) with this reason.
    abandon: str = ""


PLANS: tuple[Plan, ...] = (
    Plan(
        "terziglio",
        ("Anna", "Bruno", "Carla"),
        "Terziglio del martedì",
        corrected=True,
        min_hands=8,
    ),
    Plan(
        "terziglio",
        ("Dario", "Elena", "Franco"),
        "Terziglio a 31",
        {"target_score": 31},
        finish=False,
        hands=7,
    ),
    Plan(
        "terziglio",
        ("Giulia", "Luca", "Marta", "Nicola"),
        "Terziglio in quattro, regole tradizionali",
        {"preset": "traditional"},
        corrected=True,
        min_hands=8,
    ),
    Plan(
        "terziglio",
        ("Paola", "Sandro", "Anna", "Bruno"),
        "Terziglio in quattro, paga anche il mazziere",
        {"sitting_out_dealer_pays": True},
        finish=False,
        hands=6,
    ),
    Plan("calabrasella", ("Carla", "Dario", "Julien"), "Calabrasella", corrected=True),
    Plan(
        "calabrasella",
        ("Elena", "Franco", "Amélie", "Luca"),
        "Calabrasella in quattro",
        finish=False,
        hands=5,
    ),
    Plan(
        "turkish",
        ("Amélie", "Julien", "Marta", "Nicola"),
        "Turkish del venerdì",
        corrected=True,
    ),
    Plan(
        "turkish",
        ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"),
        "Turkish a sei, due mazzi",
        finish=False,
        hands=5,
    ),
    Plan(
        "briscola",
        ("Giulia", "Luca"),
        "Briscola al meglio delle tre",
        corrected=True,
        min_hands=3,
    ),
    Plan(
        "briscola",
        ("Paola", "Sandro"),
        "Briscola al meglio delle cinque",
        {"hands_to_win": 3},
        finish=False,
        hands=3,
    ),
    Plan("briscola", ("Marta", "Nicola", "Julien"), "Briscola a tre", min_hands=3),
    Plan(
        "briscola",
        ("Anna", "Bruno", "Carla", "Dario"),
        "Briscola a coppie, famiglia Prini",
        {"variant": "famiglia_prini"},
        min_hands=3,
    ),
    Plan(
        "briscola",
        ("Elena", "Franco", "Giulia", "Luca"),
        "Briscola a coppie",
        {"hands_to_win": 3},
        finish=False,
        hands=3,
    ),
    Plan(
        "briscola_chiamata",
        ("Anna", "Carla", "Elena", "Giulia", "Marta"),
        "Briscola chiamata del sabato",
        corrected=True,
    ),
    Plan(
        "briscola_chiamata",
        ("Bruno", "Dario", "Franco", "Luca", "Nicola"),
        "Briscola chiamata",
        finish=False,
        hands=6,
        corrected=True,
    ),
    Plan(
        "terziglio",
        ("Sandro", "Paola", "Amélie"),
        "Terziglio interrotto",
        finish=False,
        hands=4,
        abandon="Sandro ha dovuto andare via: la finiamo un'altra sera.",
    ),
)

# ---------------------------------------------------------------------------------------------
# Hand generators: one per game, each following that game's rules


def active_seats(ruleset: str, n: int, dealer: int) -> list[int]:
    """The seats that hold cards in a hand dealt by ``dealer``."""
    idle = RULESETS[ruleset].sitting_out(dealer, n)
    return [seat for seat in range(n) if seat != idle]


#: The games in which everybody may pass (a passed-out hand): those whose hands have an outcome.
PASSING_GAMES = tuple(key for key, rules in RULESETS.items() if "outcome" in rules.hand_keys)


def passed_out(dealer: int) -> Document:
    return {"dealer": dealer, "outcome": "passed_out"}


CONTRACT_WEIGHTS = {"chiamo": 55, "solo": 27, "solissimo": 12, "dividete": 4, "scegliete": 2}


def terziglio_hand(rng: random.Random, n: int, options: Mapping[str, Any], dealer: int) -> Document:
    if rng.random() < 0.12:
        return passed_out(dealer)
    contract = rng.choices(list(CONTRACT_WEIGHTS), weights=list(CONTRACT_WEIGHTS.values()))[0]
    # The higher the contract, the stronger the hand that dared it, but the harder to make.
    made = rng.random() < 0.68 - 0.04 * list(CONTRACT_WEIGHTS).index(contract)
    points = rng.randint(6, 10) if made else rng.randint(2, 5)
    sweep = "none"
    luck = rng.random()
    if luck < 0.02:
        points, sweep = (11, "soloist") if made else (0, "opponents")
    elif luck < 0.06:
        points = 11 if made else 0
    document: Document = {
        "dealer": dealer,
        "outcome": "played",
        "soloist": rng.choice(active_seats("terziglio", n, dealer)),
        "contract": contract,
    }
    if sweep == "none" and rng.random() < 0.25:
        # The detailed count: aces 1, every three "thirds" 1, the last trick 1.
        last_trick = points == 11 or (points > 0 and rng.random() < 0.5)
        rest = points - last_trick
        aces = rng.randint(max(0, rest - 6), min(4, rest))
        thirds = min(20, 3 * (rest - aces) + rng.randint(0, 2))
        document["soloist_cards"] = {"aces": aces, "thirds": thirds, "last_trick": last_trick}
    else:
        document["soloist_points"] = points
    if sweep != "none":
        document["sweep"] = sweep
    return document


def calabrasella_hand(
    rng: random.Random, n: int, options: Mapping[str, Any], dealer: int
) -> Document:
    if rng.random() < 0.12:
        return passed_out(dealer)
    document: Document = {
        "dealer": dealer,
        "outcome": "played",
        "soloist": rng.choice(active_seats("calabrasella", n, dealer)),
    }
    luck = rng.random()
    if luck < 0.03:
        return document | {"soloist_points": 35, "sweep": "soloist"}
    if luck < 0.05:
        return document | {"soloist_points": 0, "sweep": "opponents"}
    points = min(34, max(4, round(rng.gauss(20, 5))))
    if rng.random() < 0.3:
        # The detailed count: aces 3, every 3, 2 and court card 1, the last trick 3. Without
        # the last trick the cards hold 32 points at most.
        last_trick = points > 32 or rng.random() < 0.55
        rest = points - 3 * last_trick
        aces = rng.randint(max(0, -(-(rest - 20) // 3)), min(4, rest // 3))
        counters = rest - 3 * aces
        document["soloist_cards"] = {"aces": aces, "counters": counters, "last_trick": last_trick}
    else:
        document["soloist_points"] = points
    return document


def turkish_hand(rng: random.Random, n: int, options: Mapping[str, Any], dealer: int) -> Document:
    packs = options["packs"]
    went_out = rng.randrange(n)
    while True:
        left = []
        for seat in range(n):
            if seat == went_out:
                continue
            court = rng.choices((0, 1, 2, 3), weights=(4, 3, 2, 1))[0]
            tens = 1 if rng.random() < 0.2 else 0
            other = rng.randint(0, 4)
            if court + tens + other == 0:
                other = 1  # nobody but the player who went out has an empty hand
            left.append({"seat": seat, "court": court, "tens": tens, "other": other})
        if all(sum(entry[key] for entry in left) <= PER_PACK[key] * packs for key in PER_PACK):
            break
    document: Document = {"dealer": dealer, "went_out": went_out}
    if rng.random() < 0.3:
        values = options["values"]
        document["penalties"] = [
            {
                "seat": entry["seat"],
                "points": values["court"] * entry["court"]
                + values["ten"] * entry["tens"]
                + values["other"] * entry["other"],
            }
            for entry in left
        ]
    else:
        document["cards_left"] = left
    return document


def briscola_points(rng: random.Random, sides: int) -> list[int]:
    """Card points per side: the total of the hand (120), never 1 or 119 (no card is worth 1)."""
    total = RULESETS["briscola"].total_points
    half = total // 2
    if sides == 2:
        luck = rng.random()
        if luck < 0.07:
            return [half, half]
        winner = total if luck < 0.09 else rng.randint(half + 1, 96)
        points = [winner, total - winner]
        rng.shuffle(points)
        return points
    while True:
        points = [rng.randint(12, 64) for _ in range(sides - 1)]
        points.append(total - sum(points))
        if points[-1] >= 0 and not {1, total - 1} & set(points):
            return points


def briscola_hand(rng: random.Random, n: int, options: Mapping[str, Any], dealer: int) -> Document:
    sides = len(RULESETS["briscola"].sides(options, n))
    return {"dealer": dealer, "points": briscola_points(rng, sides)}


def briscola_chiamata_hand(
    rng: random.Random, n: int, options: Mapping[str, Any], dealer: int
) -> Document:
    if rng.random() < 0.1:
        return passed_out(dealer)
    active = active_seats("briscola_chiamata", n, dealer)
    caller = rng.choice(active)
    alone = rng.random() < 0.1
    partner = caller if alone else rng.choice([seat for seat in active if seat != caller])
    rules = RULESETS["briscola_chiamata"]
    total, default = rules.total_points, rules.default_target
    target = default if rng.random() < 0.65 else rng.choice((65, 68, 70, 71, 75, 80, 85))
    if rng.random() < 0.6:
        points = total if rng.random() < 0.04 else rng.randint(target, min(118, target + 30))
    else:
        points = 0 if rng.random() < 0.03 else rng.randint(max(20, target - 35), target - 1)
    document: Document = {"dealer": dealer, "outcome": "played", "caller": caller}
    document["partner"] = partner
    if target != default:  # a phone leaves the default out
        document["target"] = target
    document["caller_points"] = points
    return document


HAND_MAKERS: dict[str, HandMaker] = {
    "terziglio": terziglio_hand,
    "calabrasella": calabrasella_hand,
    "turkish": turkish_hand,
    "briscola": briscola_hand,
    "briscola_chiamata": briscola_chiamata_hand,
}

# ---------------------------------------------------------------------------------------------
# Mistakes made at the table, corrected later with a reason


def soloist_typo(
    rng: random.Random, n: int, options: Mapping[str, Any], true: Document, names: list[str]
) -> tuple[Document, str] | None:
    """Terziglio and Calabrasella: the points miscounted, or the wrong soloist tapped."""
    if true.get("outcome") != "played" or true.get("sweep", "none") != "none":
        return None
    if "soloist_points" in true and rng.random() < 0.6:
        top = 11 if "contract" in true else 35
        wrong = true["soloist_points"] + rng.choice((-2, -1, 1, 2))
        if not 0 < wrong < top:
            return None
        reason = f"Punti ricontati: {true['soloist_points']}, non {wrong}."
        return true | {"soloist_points": wrong}, reason
    ruleset = "terziglio" if "contract" in true else "calabrasella"
    others = [s for s in active_seats(ruleset, n, true["dealer"]) if s != true["soloist"]]
    wrong = rng.choice(others)
    reason = f"Aveva giocato {names[true['soloist']]}, non {names[wrong]}."
    return true | {"soloist": wrong}, reason


def turkish_typo(
    rng: random.Random, n: int, options: Mapping[str, Any], true: Document, names: list[str]
) -> tuple[Document, str] | None:
    """A loser's cards miscounted."""
    form = "cards_left" if "cards_left" in true else "penalties"
    entries = [dict(entry) for entry in true[form]]
    entry = rng.choice(entries)
    if form == "cards_left":
        entry["other"] += 1
    else:
        entry["points"] += options["values"]["other"]
    reason = f"Ricontate le carte di {names[entry['seat']]}: ne aveva una di meno."
    return true | {form: entries}, reason


def briscola_typo(
    rng: random.Random, n: int, options: Mapping[str, Any], true: Document, names: list[str]
) -> tuple[Document, str] | None:
    """The card points of two sides swapped."""
    points = list(true["points"])
    first, second = rng.sample(range(len(points)), 2)
    if points[first] == points[second]:
        return None
    points[first], points[second] = points[second], points[first]
    return true | {"points": points}, "Punti scambiati: li avevo segnati al contrario."


def briscola_chiamata_typo(
    rng: random.Random, n: int, options: Mapping[str, Any], true: Document, names: list[str]
) -> tuple[Document, str] | None:
    """The wrong partner, or the caller's side's points miscounted."""
    if true.get("outcome") != "played":
        return None
    caller, partner = true["caller"], true["partner"]
    if partner != caller and rng.random() < 0.5:
        others = [
            s
            for s in active_seats("briscola_chiamata", n, true["dealer"])
            if s not in (caller, partner)
        ]
        wrong = rng.choice(others)
        reason = f"Il compagno chiamato era {names[partner]}, non {names[wrong]}."
        return true | {"partner": wrong}, reason
    wrong = true["caller_points"] + rng.choice((-4, -2, 2, 4))
    if not 2 <= wrong <= 118:
        return None
    reason = f"Punti ricontati: {true['caller_points']}, non {wrong}."
    return true | {"caller_points": wrong}, reason


TYPO_MAKERS: dict[str, TypoMaker] = {
    "terziglio": soloist_typo,
    "calabrasella": soloist_typo,
    "turkish": turkish_typo,
    "briscola": briscola_typo,
    "briscola_chiamata": briscola_chiamata_typo,
}

# ---------------------------------------------------------------------------------------------
# Whole games


def deal_game(
    ruleset: str, options: Mapping[str, Any], n: int, rng: random.Random, plan: Plan
) -> list[Document]:
    """Hand documents for ``plan``: until the game is over (in ``plan.min_hands`` hands or
    more), or ``plan.hands`` hands that leave it in progress. Checked through the rules engine
    as they are made."""
    for _ in range(100):
        documents, game = deal_once(ruleset, options, n, rng, plan)
        if game.finished != plan.finish:
            continue
        if plan.finish and not plan.min_hands <= len(documents) <= plan.max_hands:
            continue
        if not plan.finish and len(documents) != plan.hands:
            continue
        has_passed_out = any(d.get("outcome") == "passed_out" for d in documents)
        if plan.finish and ruleset in PASSING_GAMES and not has_passed_out:
            continue  # a whole game of these shows at least one passed-out hand
        return documents
    raise AssertionError(f"the demo game {plan.title!r} did not end as planned")


def deal_once(
    ruleset: str, options: Mapping[str, Any], n: int, rng: random.Random, plan: Plan
) -> tuple[list[Document], engine.ScoredGame]:
    rules, make = RULESETS[ruleset], HAND_MAKERS[ruleset]
    game = engine.start(rules, options, n)
    documents: list[Document] = []
    dealer = rng.randrange(n)  # anyone may deal the first hand
    limit = plan.max_hands + 1 if plan.finish else plan.hands
    while len(documents) < limit and not game.finished:
        document = make(rng, n, options, dealer)
        after = engine.play(game, document)
        if after.finished and not plan.finish:
            for _ in range(50):  # this game is still going on: deal a hand that does not end it
                document = make(rng, n, options, dealer)
                after = engine.play(game, document)
                if not after.finished:
                    break
            else:
                break
        game = after
        documents.append(document)
        dealer = (dealer + 1) % n
    return documents, game


def plan_typo(
    ruleset: str,
    options: Mapping[str, Any],
    n: int,
    documents: list[Document],
    names: list[str],
    rng: random.Random,
) -> tuple[int, Document, str]:
    """A hand to enter wrong (its index, the wrong document, the reason of its correction),
    such that the game with the wrong hand still replays up to the last hand."""
    rules, make = RULESETS[ruleset], TYPO_MAKERS[ruleset]
    candidates = list(range(len(documents)))
    rng.shuffle(candidates)
    for index in candidates:
        typo = make(rng, n, options, documents[index], names)
        if typo is None:
            continue
        entered = [*documents[:index], typo[0], *documents[index + 1 :]]
        try:
            engine.replay(rules, options, n, entered)
        except RuleViolation:
            continue
        return index, *typo
    raise AssertionError(f"no hand of the demo game {ruleset} can be entered wrong")


def build_game(
    club: Club, by: Actor, players: Mapping[str, Any], plan: Plan, rng: random.Random
) -> Game:
    """Start the game of ``plan`` and enter its hands, the mistaken one and its correction."""
    game = services.start_game(
        club=club,
        ruleset=plan.ruleset,
        players=[players[name] for name in plan.players],
        options=dict(plan.options),
        title=plan.title,
        by=by,
    )
    documents = deal_game(plan.ruleset, game.options, game.n, rng, plan)
    entered = list(documents)
    fix_after = fix = None
    if plan.corrected:
        index, typo, reason = plan_typo(
            plan.ruleset, game.options, game.n, documents, list(plan.players), rng
        )
        entered[index] = typo
        # Someone notices a couple of hands later (or at the end of the game).
        fix_after = min(index + 1 + rng.randint(0, 2), len(entered))
        fix = (index + 1, documents[index], reason)
    for number, document in enumerate(entered, start=1):
        services.record_hand(game=game, document=document, by=by)
        if number == fix_after and fix is not None:
            hand, document, reason = fix
            services.correct_hand(game=game, number=hand, document=document, by=by, reason=reason)
    if plan.abandon:
        services.abandon_game(game=game, by=by, reason=plan.abandon)
    return game


# ---------------------------------------------------------------------------------------------
# The club


def summary(club: Club) -> str:
    """One line: the club, its players, its games by status, hands and corrections."""
    statuses = Counter(club.games.values_list("status", flat=True))
    hands = Hand.objects.filter(game__club=club)
    games = ", ".join(f"{statuses.get(status, 0)} {label}" for status, label in GameStatus.choices)
    return (
        f"{club.name} ({club.slug}): {club.players.count()} players; games: {games}; "
        f"{hands.count()} hands, {hands.filter(version__gt=1).count()} corrected."
    )


def load(user) -> tuple[Club, bool]:
    """The demo club owned by ``user``; built the first time, left alone afterwards.
    Returns the club and whether it was created now."""
    club = Club.objects.filter(slug=CLUB_SLUG).first()
    if club is not None:
        return club, False
    rng = random.Random(SEED)
    by = Actor.for_user(user)
    with transaction.atomic():
        club = services.create_club(
            name=CLUB_NAME, slug=CLUB_SLUG, owner=user, language="it", results_public=True
        )
        players = {
            name: services.add_player(club=club, display_name=name, by=by) for name in PLAYER_NAMES
        }
        for plan in PLANS:
            build_game(club, by, players, plan, rng)
    return club, True
