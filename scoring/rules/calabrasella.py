"""Calabrasella: the American offshoot of Terziglio.

Rules in brief (``docs/rules/calabrasella.md``): 3 or 4 seats, three play each hand; with 4 the
dealer sits out. The bidding is only "play" or "pass"; the player who plays, the **soloist**, takes
on the other two. Card points: aces 3, every 3, 2 and court card ("counter") 1, last trick 3; 35
per hand. Each payer (the two opponents, plus the idle dealer when ``sitting_out_dealer_pays``)
pays the soloist the difference ``2p − 35`` between the sides (p = the soloist's points), or
``sweep_payment`` when one side took every trick. The game lasts ``deals`` hands (3 × seats).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import FREE_DEALER, BoolOption, GameState, IntOption, Problems
from .soloist import SoloistGame

#: The card points of a hand: 4 aces of 3, 20 counters of 1, and 3 for the last trick.
TOTAL_POINTS = 35
#: The soloist wins a hand with 18 of the 35 (the difference ``2p − 35`` is then positive).
WINNING_POINTS = TOTAL_POINTS // 2 + 1


class Calabrasella(SoloistGame):
    key = "calabrasella"
    name = "Calabrasella"
    total_points = TOTAL_POINTS
    card_counts = {"aces": (0, 4), "counters": (0, 20)}
    card_values = {"aces": (3, 1), "counters": (1, 1), "last_trick": (3, 1)}
    options = (
        IntOption("deals", None, nullable=True, lo=1, hi=200),
        IntOption("sweep_payment", 70, lo=1, hi=1000),
        BoolOption("sitting_out_dealer_pays", False),
        FREE_DEALER,
    )

    def finish_options(self, options: dict[str, Any], n: int, problems: Problems) -> None:
        if options["deals"] is None:
            options["deals"] = 3 * n

    def payment(self, options: Mapping[str, Any], contract: Any, points: int, sweep: str) -> int:
        if sweep == "soloist":
            return options["sweep_payment"]
        if sweep == "opponents":
            return -options["sweep_payment"]
        return 2 * points - TOTAL_POINTS

    def is_finished(self, state: GameState) -> bool:
        return state.hands_played >= state.options["deals"]


RULES = Calabrasella()
