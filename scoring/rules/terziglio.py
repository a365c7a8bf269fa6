"""Terziglio (Calabresella): three-handed Tressette, one soloist against two.

Rules in brief (``docs/rules/terziglio.md``): 3 or 4 seats, three play each hand; with 4 the
dealer sits out. The winner of the bidding, the **soloist**, names a contract — chiamo, solo,
solissimo, solissimo dividete, solissimo scegliete — and makes it with 6 or more of the 11 card
points (aces 1, every three "thirds" 1, last trick 1). Each payer (the two opponents, plus the idle
dealer when ``sitting_out_dealer_pays``) pays the soloist the contract's stake, or receives it when
he fails. The stake is multiplied when one side holds all 11 points (×3) or took every trick
(×2 × ×3 = ×6 when ``stack_multipliers``). The first seat to reach ``target_score`` (21) alone
wins; ``max_hands`` caps the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import (
    FREE_DEALER,
    BoolOption,
    ChoiceOption,
    GameState,
    IntMapOption,
    IntOption,
    Reader,
)
from .soloist import SoloistGame

CONTRACTS = ("chiamo", "solo", "solissimo", "dividete", "scegliete")
STANDARD_VALUES = {"chiamo": 1, "solo": 2, "solissimo": 4, "dividete": 8, "scegliete": 16}
#: The card points of a hand: 4 aces, 20 thirds counted by three, 1 for the last trick.
TOTAL_POINTS = 11
#: The soloist makes the contract with 6 of the 11 (11 is odd: a hand is never drawn).
WINNING_POINTS = TOTAL_POINTS // 2 + 1


class Terziglio(SoloistGame):
    key = "terziglio"
    name = "Terziglio"
    total_points = TOTAL_POINTS
    card_counts = {"aces": (0, 4), "thirds": (0, 20)}
    card_values = {"aces": (1, 1), "thirds": (1, 3), "last_trick": (1, 1)}
    contracts = CONTRACTS
    options = (
        IntOption("target_score", 21, lo=1, hi=1000),
        IntMapOption("contract_values", dict(STANDARD_VALUES), keys=CONTRACTS, lo=1, hi=1000),
        IntOption("all_points_multiplier", 3, lo=1, hi=10),
        IntOption("all_tricks_multiplier", 2, lo=1, hi=10),
        BoolOption("stack_multipliers", True),
        BoolOption("sitting_out_dealer_pays", False),
        ChoiceOption("tie_at_target", "play_on", choices=("play_on", "shared")),
        IntOption("max_hands", None, nullable=True, lo=1, hi=1000),
        FREE_DEALER,
    )
    presets = {
        "standard": {
            "contract_values": dict(STANDARD_VALUES),
            "all_points_multiplier": 3,
            "all_tricks_multiplier": 2,
        },
        "traditional": {
            "contract_values": {
                "chiamo": 1,
                "solo": 2,
                "solissimo": 3,
                "dividete": 6,
                "scegliete": 12,
            },
            "all_points_multiplier": 2,
            "all_tricks_multiplier": 1,
        },
    }

    def read_contract(self, doc: Reader) -> Any:
        return doc.read_choice("contract", CONTRACTS)

    def payment(self, options: Mapping[str, Any], contract: Any, points: int, sweep: str) -> int:
        if sweep != "none":
            tricks, all_points = options["all_tricks_multiplier"], options["all_points_multiplier"]
            multiplier = (
                tricks * all_points if options["stack_multipliers"] else max(tricks, all_points)
            )
        elif points in (0, self.total_points):
            multiplier = options["all_points_multiplier"]
        else:
            multiplier = 1
        stake = options["contract_values"][contract] * multiplier
        return stake if points >= WINNING_POINTS else -stake

    def is_finished(self, state: GameState) -> bool:
        options = state.options
        top = max(state.totals)
        if top >= options["target_score"] and (
            state.totals.count(top) == 1 or options["tie_at_target"] == "shared"
        ):
            return True
        return options["max_hands"] is not None and state.hands_played >= options["max_hands"]


RULES = Terziglio()
