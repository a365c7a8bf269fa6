"""Turkish: a French shedding game scored in penalty points; the lowest total wins.

Rules in brief (``docs/rules/turkish.md``): 3 to 8 seats, everybody plays every deal, with one
stripped tarot pack of 56 cards (two packs from 6 seats on). The deal stops when one player has
got rid of all his cards (``went_out``); every other player scores a penalty for the cards he still
holds: court cards 10, tens 20, any other card 5 (option ``values``). The scorer enters either the
cards left per player (``cards_left``) or the penalty already added up (``penalties``). The game
lasts ``deals`` deals (2 × seats).
"""

from __future__ import annotations

from collections.abc import Mapping
from math import gcd
from typing import Any

from .base import (
    FREE_DEALER,
    GameState,
    Hand,
    HandContext,
    IntMapOption,
    IntOption,
    Problems,
    Reader,
    Ruleset,
    SummaryPart,
    join,
)
from .shapes import Entries, Seat, Shape, field_of

CATEGORIES = ("court", "tens", "other")
#: Cards of each category in one pack, and the option value that prices it.
PER_PACK = {"court": 16, "tens": 4, "other": 36}
VALUE_KEY = {"court": "court", "tens": "ten", "other": "other"}
CARDS_PER_PACK = 56
#: The most packs (option ``packs``) and the highest penalty of one card (option ``values``).
MAX_PACKS, MAX_VALUE = 2, 1000


class Turkish(Ruleset):
    key = "turkish"
    name = "Turkish"
    min_seats = 3
    max_seats = 8
    ideal_seats = 4
    lowest_wins = True
    hand_shapes = (
        Shape(
            "CardsLeft",
            (
                Seat("dealer", "The seat that dealt this hand."),
                Seat("went_out", "The seat that got rid of all its cards."),
                Entries(
                    "cards_left",
                    "Every other seat once: the cards it still holds, by category.",
                    counts={key: (0, PER_PACK[key] * MAX_PACKS) for key in CATEGORIES},
                ),
            ),
        ),
        Shape(
            "Penalties",
            (
                Seat("dealer", "The seat that dealt this hand."),
                Seat("went_out", "The seat that got rid of all its cards."),
                Entries(
                    "penalties",
                    "Every other seat once: its penalty points, already added up.",
                    counts={"points": (1, MAX_PACKS * CARDS_PER_PACK * MAX_VALUE)},
                ),
            ),
        ),
    )
    options = (
        IntOption("deals", None, nullable=True, lo=1, hi=200),
        IntMapOption(
            "values",
            {"court": 10, "ten": 20, "other": 5},
            keys=("court", "ten", "other"),
            lo=1,
            hi=MAX_VALUE,
        ),
        IntOption("packs", None, nullable=True, lo=1, hi=MAX_PACKS),
        FREE_DEALER,
    )

    def finish_options(self, options: dict[str, Any], n: int, problems: Problems) -> None:
        if options["deals"] is None:
            options["deals"] = 2 * n
        if options["packs"] is None:
            options["packs"] = 1 if n <= 5 else 2

    def read_hand(self, doc: Reader, ctx: HandContext) -> Hand | None:
        doc.only(self.hand_keys)
        dealer = self.read_dealer(doc, ctx)
        went_out = doc.read_seat("went_out", ctx.n)
        form = doc.exactly_one("cards_left", "penalties")
        entries = doc.read_list(form) if form else None
        if entries is None or went_out is None:
            return None
        packs = ctx.options["packs"]
        values = ctx.options["values"]
        readers = self.read_entries(doc, form, entries, ctx.n, went_out)
        if form == "cards_left":
            penalties = self.read_cards_left(doc, readers, packs, ctx.n, values)
        else:
            penalties = self.read_penalties(doc, readers, packs, values)
        if doc.problems:
            return None
        assert dealer is not None
        deltas = [0] * ctx.n
        for seat, points in penalties.items():
            deltas[seat] = points
        return Hand(dict(doc.obj), dealer, tuple(deltas))

    def read_entries(
        self, doc: Reader, form: str, entries: list[Any], n: int, went_out: int
    ) -> dict[int, Reader]:
        """One reader per valid entry, by seat (docs/rules/turkish.md §5 V5, V6)."""
        declared = field_of(self.hand_shapes, form)
        assert isinstance(declared, Entries)
        keys = declared.keys
        by_seat: dict[int, Reader] = {}
        for index, entry in enumerate(entries):
            reader = Reader.of(entry, doc.problems, join(form, index))
            if reader is None:
                continue
            reader.only(keys)
            seat = reader.read_seat("seat", n)
            if seat is None:
                continue
            if seat == went_out:
                doc.problems.add(reader.at("seat"), "not_allowed", reason="went_out", value=seat)
            elif seat in by_seat:
                doc.problems.add(reader.at("seat"), "duplicate_seat", value=seat)
            else:
                by_seat[seat] = reader
        missing = [seat for seat in range(n) if seat != went_out and seat not in by_seat]
        if missing:
            doc.problems.add(form, "missing_seat", seats=tuple(missing))
        return by_seat

    def read_cards_left(
        self, doc: Reader, readers: dict[int, Reader], packs: int, n: int, values: dict[str, int]
    ) -> dict[int, int]:
        penalties: dict[int, int] = {}
        totals = dict.fromkeys(CATEGORIES, 0)
        for seat, reader in readers.items():
            counts = {key: reader.read_int(key, 0, PER_PACK[key] * packs) for key in CATEGORIES}
            if None in counts.values():
                continue
            if not any(counts.values()):
                doc.problems.add(reader.path, "no_cards")
            for key, count in counts.items():
                totals[key] += count
            penalties[seat] = sum(values[VALUE_KEY[key]] * count for key, count in counts.items())
        in_play = n * (CARDS_PER_PACK * packs // n)
        if (
            any(totals[key] > PER_PACK[key] * packs for key in CATEGORIES)
            or sum(totals.values()) > in_play
        ):
            doc.problems.add("cards_left", "exceeds_pack", packs=packs)
        return penalties

    def read_penalties(
        self, doc: Reader, readers: dict[int, Reader], packs: int, values: dict[str, int]
    ) -> dict[int, int]:
        whole = packs * sum(values[VALUE_KEY[key]] * PER_PACK[key] for key in CATEGORIES)
        step = gcd(*values.values())
        penalties: dict[int, int] = {}
        for seat, reader in readers.items():
            points = reader.read_int("points", min(values.values()), whole)
            if points is None:
                continue
            if points % step:
                doc.problems.add(reader.at("points"), "not_multiple", divisor=step, value=points)
                continue
            penalties[seat] = points
        if sum(penalties.values()) > whole:
            doc.problems.add("penalties", "exceeds_pack", packs=packs, max=whole)
        return penalties

    def facts(self, options: Mapping[str, Any], n: int) -> dict[str, Any]:
        """Also the penalty of one card left, per category (the keys of ``cards_left``)."""
        values = options["values"]
        penalty = {key: values[VALUE_KEY[key]] for key in CATEGORIES}
        return super().facts(options, n) | {"penalty_per_card": penalty}

    def summarise(self, document: Mapping[str, Any]) -> tuple[SummaryPart, ...]:
        return (SummaryPart("went_out", seats={"seat": document["went_out"]}),)

    def is_finished(self, state: GameState) -> bool:
        return state.hands_played >= state.options["deals"]


RULES = Turkish()
