"""What the demo club holds: its name, its players, and the plan of every demo game (who plays,
the house rules, how it ends, whether a hand is entered wrong and corrected)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

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
