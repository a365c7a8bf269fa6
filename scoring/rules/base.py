"""The contract every game's rules follow, and the vocabulary they share.

Pure Python: nothing here (or anywhere under ``scoring.rules``) imports Django, touches a database
or does I/O. Values in, frozen values out, deterministic.

Vocabulary (see ``docs/rules/README.md``):

* **seat** — an integer ``0 … n-1``; seats are numbered in the order the deal passes.
* **hand** — one deal of the cards, numbered from 1. Its **document** is the JSON object the
  scorer sends; it is validated, normalised and stored, and is the source of truth.
* **deltas** — one integer per seat: the change of score caused by one hand. **totals** are their
  running sums.
* **side** — the players who win or lose a hand together.
* **sitting out** — a seat that gets no cards in a hand (the dealer at some tables).
* **options** — a game's house rules, resolved once at creation and never changed.

A problem the player can fix (a wrong key, a number out of range, a dealer out of turn) raises
:class:`RuleViolation`, carrying one :class:`Problem` per error with a ``field`` path and a
``code``. The human message is *not* made here: ``params`` hold the values a message needs and the
edge (``scoring.messages``) turns code + params into translated text. Anything else that goes
wrong is a bug and should crash loudly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .options import (  # noqa: F401  (the contract's vocabulary: game modules import it from here)
    FREE_DEALER,
    BoolOption,
    ChoiceOption,
    IntMapOption,
    IntOption,
    Option,
)
from .reading import Problem, Problems, Reader, RuleViolation, is_int, join  # noqa: F401
from .shapes import Shape, keys_of

#: The key a client may add to a hand document to say which game it is for (the API's
#: discriminator): checked against the game's ruleset, never stored.
RULESET_KEY = "ruleset"

# ---------------------------------------------------------------------------------------------
# Values passed between the engine and a ruleset


def dealer_after(dealer: int, n: int) -> int:
    """The seat that deals after ``dealer``: the deal passes in seat order (rule V2)."""
    return (dealer + 1) % n


@dataclass(frozen=True)
class HandContext:
    """What a hand is validated against: the table, the house rules and what came before."""

    n: int
    options: Mapping[str, Any]
    number: int
    previous_dealer: int | None
    finished: bool

    @property
    def expected_dealer(self) -> int | None:
        """The seat that must deal, or None when any seat may (hand 1, or ``free_dealer``)."""
        if self.previous_dealer is None or self.options["free_dealer"]:
            return None
        return dealer_after(self.previous_dealer, self.n)


@dataclass(frozen=True)
class Hand:
    """A validated hand: its normalised document and what scoring it gave."""

    document: Mapping[str, Any]
    dealer: int
    deltas: tuple[int, ...]
    side_points: tuple[int, ...] | None = None


@dataclass(frozen=True)
class GameState:
    """A game after some hands: enough to validate the next one and to rank the seats."""

    n: int
    options: Mapping[str, Any]
    hands_played: int
    totals: tuple[int, ...]
    last_dealer: int | None
    card_points: tuple[int, ...] | None = None

    def after(self, hand: Hand) -> GameState:
        totals = tuple(t + d for t, d in zip(self.totals, hand.deltas, strict=True))
        card_points = self.card_points
        if card_points is not None and hand.side_points is not None:
            card_points = tuple(c + p for c, p in zip(card_points, hand.side_points, strict=True))
        return GameState(
            self.n, self.options, self.hands_played + 1, totals, hand.dealer, card_points
        )


@dataclass(frozen=True)
class SummaryPart:
    """One piece of a hand's summary: what it says (``code``), the values it shows (``params``)
    and the seats it names (``seats``: seat numbers, which the edge replaces by the players'
    names). The words are made at the edge (``scoring.presenters``), like a Problem's message."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    seats: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Placing:
    seat: int
    place: int

    def as_dict(self) -> dict[str, int]:
        return {"seat": self.seat, "place": self.place}


def places(scores: Sequence[int], *, lowest_wins: bool = False) -> tuple[int, ...]:
    """Competition ranking: 1 + the number of strictly better scores (1, 2, 2, 4)."""
    # The first index of a score in the best-first order counts the scores better than it.
    ordered = sorted(scores, reverse=not lowest_wins)
    return tuple(ordered.index(score) + 1 for score in scores)


def ranking_of(place_of_seat: Sequence[int]) -> tuple[Placing, ...]:
    """Placings sorted by place, then seat."""
    return tuple(
        sorted(
            (Placing(s, p) for s, p in enumerate(place_of_seat)), key=lambda x: (x.place, x.seat)
        )
    )


# ---------------------------------------------------------------------------------------------
# The contract


class Ruleset:
    """One game's rules. Subclasses set the class attributes and implement ``read_hand`` and
    ``is_finished``; everything else has a default that fits most games."""

    key: ClassVar[str]
    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    #: Table size a club would choose first (scheduling prefers it).
    ideal_seats: ClassVar[int]
    #: True where the lowest total wins (Turkish penalty points).
    lowest_wins: ClassVar[bool] = False
    #: True where every hand sums to 0 under the default options.
    zero_sum: ClassVar[bool] = False
    #: True where a seat's total counts the hands its side won (Briscola), not points: a short
    #: match, whose standings read the totals as hands won.
    totals_are_hands_won: ClassVar[bool] = False
    #: Seat counts at which the dealer gets no cards.
    dealer_sits_out_with: ClassVar[frozenset[int]] = frozenset()
    options: ClassVar[tuple[Option, ...]]
    presets: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    #: The alternative shapes of a hand document (``scoring.rules.shapes``): the one
    #: declaration the reader, the forms' facts and the API's JSON Schema are made from.
    hand_shapes: ClassVar[tuple[Shape, ...]]
    #: The keys a hand document may hold, ``dealer`` first, in the order the shapes declare
    #: them (made from ``hand_shapes``).
    hand_keys: ClassVar[tuple[str, ...]]
    #: Keys of the seats that must hold cards in a hand (a soloist, a caller, a partner).
    active_seat_keys: ClassVar[tuple[str, ...]] = ()
    #: Card points shared out in one hand, where a hand is scored on card points.
    total_points: ClassVar[int | None] = None
    #: Card points the declaring side needs unless the bidding raised them.
    default_target: ClassVar[int | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "hand_shapes" in cls.__dict__:
            cls.hand_keys = keys_of(cls.hand_shapes)

    # -- JSON Schema --------------------------------------------------------------------------

    def hand_schemas(self, *, tagged: bool) -> dict[str, dict[str, Any]]:
        """One JSON Schema per shape of the hand document, by shape name. ``tagged``: the
        document must name its ruleset (``"ruleset": "<key>"``), as a request does."""
        schemas = {}
        for shape in self.hand_shapes:
            schema = shape.schema(self.max_seats)
            if tagged:
                tag = {"type": "string", "enum": [self.key], "description": "The game's ruleset."}
                schema["properties"] = {RULESET_KEY: tag, **schema["properties"]}
                schema["required"] = [RULESET_KEY, *schema["required"]]
            schemas[shape.name] = schema
        return schemas

    def hand_schema(self, *, tagged: bool = False) -> dict[str, Any]:
        """The hand document as one JSON Schema: ``oneOf`` its shapes where it has several."""
        shapes = list(self.hand_schemas(tagged=tagged).values())
        return shapes[0] if len(shapes) == 1 else {"oneOf": shapes}

    def options_schema(self) -> dict[str, Any]:
        """The ``options`` object of a new game as a JSON Schema (every key optional)."""
        properties = {option.key: option.schema() for option in self.options}
        if self.presets:
            properties["preset"] = {"type": "string", "enum": list(self.presets)}
        return {"type": "object", "properties": properties, "additionalProperties": False}

    # -- options ------------------------------------------------------------------------------

    def resolve_options(self, given: Any, n: int) -> dict[str, Any]:
        """Defaults, preset, given values, automatic values, cross-checks (docs/rules/README.md §2).
        Raises RuleViolation listing every problem; returns every key with a concrete value."""
        problems = Problems()
        if not is_int(n) or not self.min_seats <= n <= self.max_seats:
            problems.add("players", "range", min=self.min_seats, max=self.max_seats, value=n)
        if given is None:
            given = {}
        if not isinstance(given, Mapping):
            problems.add("options", "type", expected="object")
            raise RuleViolation(problems.items)
        resolved = {option.key: option.default for option in self.options}
        specs = {option.key: option for option in self.options}
        given = dict(given)
        if "preset" in given and self.presets:
            preset = given.pop("preset")
            if not isinstance(preset, str) or preset not in self.presets:
                problems.add("options.preset", "choice", choices=tuple(self.presets), value=preset)
            else:
                resolved.update(self.presets[preset])
        for key, value in given.items():
            path = join("options", str(key))
            if key not in specs:
                problems.add(path, "unknown_key")
                continue
            checked = specs[key].check(value, path, problems)
            if checked is not None or value is None:
                resolved[key] = checked
        if problems:
            raise RuleViolation(problems.items)
        self.finish_options(resolved, n, problems)
        problems.raise_if_any()
        return resolved

    def finish_options(self, options: dict[str, Any], n: int, problems: Problems) -> None:
        """Replace automatic values for ``n`` seats and cross-check options (steps 5 and 6)."""

    def describe_options(self) -> list[dict[str, Any]]:
        return [{"key": option.key} | option.describe() for option in self.options]

    # -- seats and sides ----------------------------------------------------------------------

    def sitting_out(self, dealer: int, n: int) -> int | None:
        """The seat that gets no cards in a hand dealt by ``dealer``, if any."""
        return dealer if n in self.dealer_sits_out_with else None

    def sides(self, options: Mapping[str, Any], n: int) -> tuple[tuple[int, ...], ...] | None:
        """Fixed sides for the whole game (Briscola), or None where sides change every hand."""
        return None

    def card_points_start(self, options: Mapping[str, Any], n: int) -> tuple[int, ...] | None:
        """Zeros per side where the game sums card points as a secondary figure (Briscola)."""
        return None

    # -- facts for the edge -------------------------------------------------------------------

    def facts(self, options: Mapping[str, Any], n: int) -> dict[str, Any]:
        """What a page needs to know about a hand at a table of ``n`` seats, as JSON-ready data.
        Forms, templates and scripts read these and never re-derive them."""
        sides = self.sides(options, n)
        return {
            "ruleset": self.key,
            "seats": n,
            "dealer_sits_out": n in self.dealer_sits_out_with,
            "dealer_after": [dealer_after(seat, n) for seat in range(n)],
            "hand_keys": list(self.hand_keys),
            "active_seat_keys": list(self.active_seat_keys),
            "total_points": self.total_points,
            "default_target": self.default_target,
            "sides": None if sides is None else [list(side) for side in sides],
        }

    def summarise(self, document: Mapping[str, Any]) -> tuple[SummaryPart, ...]:  # pragma: no cover
        """A stored (valid, normalised) hand document in brief, as parts the edge puts in
        words and joins (e.g. soloist, contract, points)."""
        raise NotImplementedError

    # -- hands --------------------------------------------------------------------------------

    def parse_hand(self, document: Any, ctx: HandContext) -> Hand:
        """Validate ``document`` in its context and score it. Raises RuleViolation."""
        problems = Problems()
        if isinstance(document, Mapping) and RULESET_KEY in document:
            document = dict(document)
            tag = document.pop(RULESET_KEY)
            if tag != self.key:
                problems.add(RULESET_KEY, "choice", choices=(self.key,), value=tag)
        reader = Reader.of(document, problems, "")
        hand = None
        if reader is not None:
            hand = self.read_hand(reader, ctx)
        if ctx.finished:
            problems.add("game", "game_finished")
        problems.raise_if_any()
        assert hand is not None
        return hand

    def read_hand(self, doc: Reader, ctx: HandContext) -> Hand | None:  # pragma: no cover
        """Read and score one hand, recording problems on ``doc.problems``; return None (or
        anything) when a problem was recorded."""
        raise NotImplementedError

    def read_dealer(self, doc: Reader, ctx: HandContext) -> int | None:
        """Rule V2 of every game: ``dealer`` is a seat and, unless free, the expected one."""
        dealer = doc.read_seat("dealer", ctx.n)
        expected = ctx.expected_dealer
        if dealer is not None and expected is not None and dealer != expected:
            doc.problems.add("dealer", "wrong_dealer", expected=expected, value=dealer)
            return None
        return dealer

    def read_active_seat(
        self, doc: Reader, key: str, ctx: HandContext, dealer: int | None
    ) -> int | None:
        """A seat that must hold cards this hand (soloist, caller, partner)."""
        seat = doc.read_seat(key, ctx.n)
        if seat is not None and dealer is not None and seat == self.sitting_out(dealer, ctx.n):
            doc.problems.add(doc.at(key), "sitting_out", value=seat)
            return None
        return seat

    # -- the end ------------------------------------------------------------------------------

    def is_finished(self, state: GameState) -> bool:  # pragma: no cover
        raise NotImplementedError

    def ranking(self, state: GameState) -> tuple[Placing, ...]:
        """Places of the seats by their totals; equal totals share a place."""
        return ranking_of(places(state.totals, lowest_wins=self.lowest_wins))


def fill_defaults(document: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The submitted document with omitted optional keys set to their defaults."""
    result = dict(document)
    for key, value in defaults.items():
        result.setdefault(key, value)
    return result
