"""The demo's hand generators, one per game, each following that game's rules (the dealer
rotation, who sits out, the card points that can occur), and the mistakes made at the table that
are corrected later with a reason."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from scoring.demo.plans import Document, HandMaker, TypoMaker
from scoring.rules import RULESETS
from scoring.rules.turkish import PER_PACK

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
