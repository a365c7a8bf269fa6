"""Briscola chiamata: five-player Briscola with a called partner.

Rules in brief (``docs/rules/briscola_chiamata.md``): 5 or 6 seats, five play each hand (with 6
the dealer sits out). The highest bidder, the **caller**, names a card; its holder is his secret
**partner** (the caller himself when he called his own card: he then plays alone). The caller's
side needs ``target`` card points (61, or the number the bidding reached) of the 120. Units: caller
±2, partner ±1, each defender ∓1; alone ±``alone_caller_units`` (4) against four defenders;
multiplied by ``cappotto_multiplier`` when the caller's side ends with 120 or 0 points and, with
``bid_level_multiplier``, by the bid level of ``target``. The game lasts ``deals`` hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import (
    FREE_DEALER,
    BoolOption,
    GameState,
    Hand,
    HandContext,
    IntOption,
    Problems,
    Reader,
    Ruleset,
    SummaryPart,
    fill_defaults,
)
from .shapes import Choice, Int, Seat, Shape, field_of

PLAYED, PASSED_OUT = "played", "passed_out"
DEFAULT_TARGET = 61
TOTAL_POINTS = 120


def bid_level(target: int) -> int:
    """×1 for 61–70, ×2 for 71–80, … ×5 for 101–120."""
    return min(5, (target - 61) // 10 + 1)


class BriscolaChiamata(Ruleset):
    key = "briscola_chiamata"
    name = "Briscola chiamata"
    min_seats = 5
    max_seats = 6
    ideal_seats = 5
    zero_sum = True
    dealer_sits_out_with = frozenset({6})
    hand_shapes = (
        Shape(
            "Played",
            (
                Seat("dealer", "The seat that dealt this hand."),
                Choice("outcome", "The hand was played.", choices=(PLAYED,)),
                Seat("caller", "The seat that won the bidding and called a card."),
                Seat("partner", "The holder of the called card (the caller, when alone)."),
                Int(
                    "target",
                    "The card points the caller's side needed (61 unless the bidding raised it).",
                    lo=DEFAULT_TARGET,
                    hi=TOTAL_POINTS,
                ),
                Int(
                    "caller_points", "The card points of the caller's side.", lo=0, hi=TOTAL_POINTS
                ),
            ),
            optional=frozenset({"target"}),
        ),
        Shape(
            "PassedOut",
            (
                Seat("dealer", "The seat that dealt this hand."),
                Choice("outcome", "Nobody bid, or the hand was thrown in.", choices=(PASSED_OUT,)),
            ),
        ),
    )
    active_seat_keys = ("caller", "partner")
    total_points = TOTAL_POINTS
    default_target = DEFAULT_TARGET
    options = (
        IntOption("deals", None, nullable=True, lo=1, hi=200),
        IntOption("alone_caller_units", 4, lo=1, hi=100),
        IntOption("cappotto_multiplier", 2, lo=1, hi=10),
        BoolOption("bid_level_multiplier", False),
        BoolOption("sixty_is_draw", False),
        FREE_DEALER,
    )

    def finish_options(self, options: dict[str, Any], n: int, problems: Problems) -> None:
        if options["deals"] is None:
            options["deals"] = 2 * n

    def read_hand(self, doc: Reader, ctx: HandContext) -> Hand | None:
        doc.only(self.hand_keys)
        dealer = self.read_dealer(doc, ctx)
        outcome = doc.read_choice("outcome", (PLAYED, PASSED_OUT))
        if outcome == PASSED_OUT:
            doc.not_allowed(self.hand_keys[2:], reason="passed_out")
            if doc.problems or dealer is None:
                return None
            return Hand(dict(doc.obj), dealer, (0,) * ctx.n)
        if outcome is None:
            return None
        caller = self.read_active_seat(doc, "caller", ctx, dealer)
        partner = self.read_active_seat(doc, "partner", ctx, dealer)
        declared = {key: field_of(self.hand_shapes, key) for key in ("target", "caller_points")}
        bounds = {key: (f.lo, f.hi) for key, f in declared.items() if isinstance(f, Int)}
        target = doc.read_int("target", *bounds["target"], required=False) or DEFAULT_TARGET
        points = doc.read_int("caller_points", *bounds["caller_points"])
        if points in (1, TOTAL_POINTS - 1):
            doc.problems.add("caller_points", "impossible", value=points)
        if doc.problems:
            return None
        assert (
            dealer is not None and caller is not None and partner is not None and points is not None
        )
        document = fill_defaults(doc.obj, {"target": DEFAULT_TARGET})
        return Hand(document, dealer, self.deltas(ctx, dealer, caller, partner, target, points))

    def deltas(
        self, ctx: HandContext, dealer: int, caller: int, partner: int, target: int, points: int
    ) -> tuple[int, ...]:
        options = ctx.options
        if options["sixty_is_draw"] and target == DEFAULT_TARGET and points == 60:
            return (0,) * ctx.n
        sign = 1 if points >= target else -1
        unit = sign
        if points in (0, TOTAL_POINTS):
            unit *= options["cappotto_multiplier"]
        if options["bid_level_multiplier"]:
            unit *= bid_level(target)
        idle = self.sitting_out(dealer, ctx.n)
        deltas = [0 if seat == idle else -unit for seat in range(ctx.n)]
        if partner != caller:
            deltas[caller] = 2 * unit
            deltas[partner] = unit
        else:
            deltas[caller] = options["alone_caller_units"] * unit
        return tuple(deltas)

    def summarise(self, document: Mapping[str, Any]) -> tuple[SummaryPart, ...]:
        if document["outcome"] == PASSED_OUT:
            return (SummaryPart("passed_or_thrown_in"),)
        caller, partner = document["caller"], document["partner"]
        side = (
            SummaryPart("caller_alone", seats={"caller": caller})
            if caller == partner
            else SummaryPart("caller_and_partner", seats={"caller": caller, "partner": partner})
        )
        points = {"points": document["caller_points"], "target": document["target"]}
        return side, SummaryPart("points_of_target", points)

    def is_finished(self, state: GameState) -> bool:
        return state.hands_played >= state.options["deals"]


RULES = BriscolaChiamata()
