"""Briscola, with the *famiglia Prini* variant.

Rules in brief (``docs/rules/briscola.md``): 2 to 5 seats, everybody plays every hand. Each
hand shares out 120 card points (ace 11, three 10, king 4, knight 3, jack 2). The sides are the
seats (``singles``) or, with 4 seats, two fixed pairs facing each other (``pairs``: seats 0+2 and
1+3). With two sides, 61 or more wins the hand and 60–60 is drawn; with 3 to 5 sides the highest
score wins alone (``individual_win_rule: highest``) or only a side over 60 wins (``over_60``).
Every seat of the winning side gets +1; the first side to win ``hands_to_win`` hands wins the
match. Card points per side are summed as a secondary figure that breaks no tie. *Famiglia Prini*
only changes the play at the table, so it is validated and scored like classic Briscola.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import (
    FREE_DEALER,
    ChoiceOption,
    GameState,
    Hand,
    HandContext,
    IntOption,
    Placing,
    Problems,
    Reader,
    Ruleset,
    SummaryPart,
    is_int,
    join,
    places,
    ranking_of,
)
from .shapes import IntList, Seat, Shape, field_of

TOTAL_POINTS = 120
#: A side wins a hand of two sides (and, under ``over_60``, of more) with 61 of the 120.
WINNING_POINTS = TOTAL_POINTS // 2 + 1
IMPOSSIBLE_POINTS = (1, TOTAL_POINTS - 1)


class Briscola(Ruleset):
    key = "briscola"
    name = "Briscola"
    min_seats = 2
    max_seats = 5
    ideal_seats = 2
    totals_are_hands_won = True
    hand_shapes = (
        Shape(
            "Played",
            (
                Seat("dealer", "The seat that dealt this hand."),
                IntList(
                    "points",
                    "The card points of each side (each seat, or each pair), in side order; "
                    "they sum to 120.",
                    lo=0,
                    hi=TOTAL_POINTS,
                    min_items=2,
                    max_items=5,
                ),
            ),
        ),
    )
    total_points = TOTAL_POINTS
    options = (
        ChoiceOption("format", None, nullable=True, choices=("singles", "pairs")),
        IntOption("hands_to_win", 2, lo=1, hi=10),
        ChoiceOption("individual_win_rule", "highest", choices=("highest", "over_60")),
        ChoiceOption("variant", "classic", choices=("classic", "famiglia_prini")),
        FREE_DEALER,
    )

    def finish_options(self, options: dict[str, Any], n: int, problems: Problems) -> None:
        if options["format"] is None:
            options["format"] = "pairs" if n == 4 else "singles"
        elif options["format"] == "pairs" and n != 4:
            problems.add("options.format", "inconsistent", reason="pairs_need_four", value=n)

    def sides(self, options: Mapping[str, Any], n: int) -> tuple[tuple[int, ...], ...]:
        if options["format"] == "pairs":
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(n))

    def card_points_start(self, options: Mapping[str, Any], n: int) -> tuple[int, ...]:
        return (0,) * len(self.sides(options, n))

    def read_hand(self, doc: Reader, ctx: HandContext) -> Hand | None:
        doc.only(self.hand_keys)
        dealer = self.read_dealer(doc, ctx)
        sides = self.sides(ctx.options, ctx.n)
        points = self.read_points(doc, len(sides))
        if doc.problems:
            return None
        assert dealer is not None and points is not None
        winner = self.winner(points, ctx.options)
        deltas = [0] * ctx.n
        if winner is not None:
            for seat in sides[winner]:
                deltas[seat] = 1
        return Hand(dict(doc.obj), dealer, tuple(deltas), side_points=tuple(points))

    def read_points(self, doc: Reader, n_sides: int) -> list[int] | None:
        points = doc.read_list("points")
        if points is None:
            return None
        if len(points) != n_sides:
            doc.problems.add("points", "length", expected=n_sides, value=len(points))
            return None
        declared = field_of(self.hand_shapes, "points")
        assert isinstance(declared, IntList)
        before = len(doc.problems.items)
        for index, value in enumerate(points):
            path = join("points", index)
            if not is_int(value):
                doc.problems.add(path, "type", expected="integer")
            elif not declared.lo <= value <= declared.hi:
                doc.problems.add(path, "range", min=declared.lo, max=declared.hi, value=value)
            elif value in IMPOSSIBLE_POINTS:
                doc.problems.add(path, "impossible", value=value)
        if len(doc.problems.items) > before:
            return None
        if sum(points) != TOTAL_POINTS:
            doc.problems.add("points", "sum", total=TOTAL_POINTS, value=sum(points))
            return None
        return points

    def winner(self, points: list[int], options: Mapping[str, Any]) -> int | None:
        """The side that wins the hand, or None for a drawn hand."""
        best = max(points)
        if len(points) == 2 or options["individual_win_rule"] == "over_60":
            return points.index(best) if best >= WINNING_POINTS else None
        return points.index(best) if points.count(best) == 1 else None

    def summarise(self, document: Mapping[str, Any]) -> tuple[SummaryPart, ...]:
        return (SummaryPart("side_points", {"points": tuple(document["points"])}),)

    def is_finished(self, state: GameState) -> bool:
        return max(state.totals) >= state.options["hands_to_win"]

    def ranking(self, state: GameState) -> tuple[Placing, ...]:
        """Places per side by hands won; every seat gets its side's place."""
        sides = self.sides(state.options, state.n)
        side_places = places([state.totals[side[0]] for side in sides])
        place_of_seat = [0] * state.n
        for side, place in zip(sides, side_places, strict=True):
            for seat in side:
                place_of_seat[seat] = place
        return ranking_of(place_of_seat)


RULES = Briscola()
