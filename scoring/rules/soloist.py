"""What Terziglio and Calabrasella share: one soloist against two opponents.

Both games are played by three active players; at a table of four the dealer gets no cards.
The soloist, who won the bidding, settles separately with each opponent (and with the idle dealer
when ``sitting_out_dealer_pays``), so every hand sums to 0. A hand is either passed out (nobody
bid: only ``dealer`` and ``outcome``) or played; the soloist's card points are entered directly
(``soloist_points``) or counted from the cards (``soloist_cards``), and ``sweep`` says which side,
if any, took every trick.

The two games differ in the card values, the contracts and the payment, which each module adds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from .base import Hand, HandContext, Reader, Ruleset, SummaryPart, fill_defaults
from .shapes import Choice, Counts, Field, Int, Seat, Shape, field_of

PLAYED, PASSED_OUT = "played", "passed_out"
OUTCOMES = (PLAYED, PASSED_OUT)
SWEEPS = ("none", "soloist", "opponents")


class SoloistGame(Ruleset):
    min_seats = 3
    max_seats = 4
    ideal_seats = 3
    zero_sum = True
    dealer_sits_out_with = frozenset({4})
    active_seat_keys = ("soloist",)

    #: Keys of a played hand besides dealer/outcome, in the order docs/rules lists them (made
    #: from the shapes).
    played_keys: ClassVar[tuple[str, ...]]
    #: The contracts the soloist may name, where the game has several.
    contracts: ClassVar[tuple[str, ...]] = ()
    #: Card points of one hand (``total_points``), the most one side can take.
    total_points: ClassVar[int]
    #: The detailed count: key -> (lo, hi) besides the boolean ``last_trick``.
    card_counts: ClassVar[Mapping[str, tuple[int, int]]]
    #: What the counted cards are worth: key -> (times, per), i.e. ``count * times // per``
    #: points, for every key of ``card_counts`` and for ``last_trick`` (counted as 1 or 0).
    card_values: ClassVar[Mapping[str, tuple[int, int]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        cls.hand_shapes = cls.shapes()
        super().__init_subclass__(**kwargs)
        cls.played_keys = cls.hand_keys[2:]

    @classmethod
    def shapes(cls) -> tuple[Shape, ...]:
        """Passed out, or played with the soloist's points entered or his cards counted."""
        dealer = Seat("dealer", "The seat that dealt this hand.")
        soloist = Seat("soloist", "The seat that won the bidding and played alone.")
        contract: tuple[Field, ...] = ()
        if cls.contracts:
            contract = (Choice("contract", "The soloist's contract.", choices=cls.contracts),)
        sweep = Choice("sweep", "The side that took every trick, if any.", choices=SWEEPS)
        points = Int("soloist_points", "The soloist's card points.", lo=0, hi=cls.total_points)
        cards = Counts(
            "soloist_cards",
            "The soloist's counting cards and whether he took the last trick.",
            counts=cls.card_counts,
        )
        played = Choice("outcome", "The hand was played.", choices=(PLAYED,))
        optional = frozenset({"sweep"})
        return (
            Shape("Points", (dealer, played, soloist, *contract, points, sweep), optional),
            Shape("Cards", (dealer, played, soloist, *contract, cards, sweep), optional),
            Shape("PassedOut", (dealer, Choice("outcome", "Nobody bid.", choices=(PASSED_OUT,)))),
        )

    def points_of_cards(self, counts: Mapping[str, int], last_trick: bool) -> int:
        counted = {**counts, "last_trick": int(last_trick)}
        return sum(counted[key] * times // per for key, (times, per) in self.card_values.items())

    def facts(self, options: Mapping[str, Any], n: int) -> dict[str, Any]:
        """Also what the counted cards are worth, for the live count of the soloist's points."""
        values = {key: list(value) for key, value in self.card_values.items()}
        return super().facts(options, n) | {"card_values": values}

    def summarise(self, document: Mapping[str, Any]) -> tuple[SummaryPart, ...]:
        if document["outcome"] == PASSED_OUT:
            return (SummaryPart("passed_out"),)
        parts = [SummaryPart("soloist", seats={"seat": document["soloist"]})]
        if "contract" in document:
            parts.append(SummaryPart("contract", {"contract": document["contract"]}))
        if "soloist_cards" in document:
            parts.append(
                SummaryPart("cards_counted", {"cards": tuple(document["soloist_cards"].items())})
            )
        else:
            parts.append(SummaryPart("points", {"points": document["soloist_points"]}))
        if document["sweep"] != "none":
            parts.append(SummaryPart(f"sweep_{document['sweep']}"))
        return tuple(parts)

    def read_contract(self, doc: Reader) -> Any:
        """The contract of a played hand, for games that have several (None otherwise)."""
        return None

    def payment(
        self, options: Mapping[str, Any], contract: Any, points: int, sweep: str
    ) -> int:  # pragma: no cover
        """What each payer pays the soloist (negative: receives from him)."""
        raise NotImplementedError

    def read_hand(self, doc: Reader, ctx: HandContext) -> Hand | None:
        doc.only(self.hand_keys)
        dealer = self.read_dealer(doc, ctx)
        outcome = doc.read_choice("outcome", OUTCOMES)
        if outcome == PASSED_OUT:
            doc.not_allowed(self.played_keys, reason="passed_out")
            if doc.problems or dealer is None:
                return None
            return Hand(dict(doc.obj), dealer, (0,) * ctx.n)
        if outcome is None:
            return None

        soloist = self.read_active_seat(doc, "soloist", ctx, dealer)
        contract = self.read_contract(doc)
        points, took_all, took_none = self.read_points(doc)
        sweeps = field_of(self.hand_shapes, "sweep")
        assert isinstance(sweeps, Choice)
        sweep = doc.read_choice("sweep", sweeps.choices, required=False) or "none"
        if points is not None and (
            (sweep == "soloist" and not took_all) or (sweep == "opponents" and not took_none)
        ):
            doc.problems.add("sweep", "inconsistent", reason=f"sweep_{sweep}")
        if doc.problems:
            return None
        assert dealer is not None and soloist is not None and points is not None
        unit = self.payment(ctx.options, contract, points, sweep)
        payers = [
            seat
            for seat in range(ctx.n)
            if seat != soloist
            and (seat != self.sitting_out(dealer, ctx.n) or ctx.options["sitting_out_dealer_pays"])
        ]
        deltas = [0] * ctx.n
        for seat in payers:
            deltas[seat] = -unit
        deltas[soloist] = unit * len(payers)
        document = fill_defaults(doc.obj, {"sweep": "none"})
        return Hand(document, dealer, tuple(deltas))

    def read_points(self, doc: Reader) -> tuple[int | None, bool, bool]:
        """The soloist's card points, and whether he took every counting card and the last
        trick (``took_all``) or none of them (``took_none``), which a sweep requires."""
        form = doc.exactly_one("soloist_points", "soloist_cards")
        if form == "soloist_points":
            declared = field_of(self.hand_shapes, "soloist_points")
            assert isinstance(declared, Int)
            points = doc.read_int("soloist_points", declared.lo, declared.hi)
            return points, points == self.total_points, points == 0
        cards = doc.read_object("soloist_cards") if form else None
        if cards is None:
            return None, False, False
        declared = field_of(self.hand_shapes, "soloist_cards")
        assert isinstance(declared, Counts)
        cards.only(declared.keys)
        counts = {key: cards.read_int(key, lo, hi) for key, (lo, hi) in declared.counts.items()}
        last_trick = cards.read_bool(declared.flag)
        if last_trick is None or None in counts.values():
            return None, False, False
        took_all = last_trick and all(counts[k] == hi for k, (_, hi) in self.card_counts.items())
        took_none = not last_trick and not any(counts.values())
        return self.points_of_cards(counts, last_trick), took_all, took_none
