"""Scoring whole games: replaying hand documents through a ruleset.

The stored hand documents and the resolved options are the source of truth; everything else
(deltas, totals, status, ranking, the next dealer) is derived here, the same way for a hand just
typed at the table, a correction of hand 3 of 40, or a paper score sheet imported later.

* :func:`start` — an empty game after its options are resolved.
* :func:`play` — one more hand, validated in the context of the game so far.
* :func:`replay` — a whole list of documents from hand 1, stopping at the first hand that fails
  (its problems carry its number); used for corrections (docs/rules/README.md §9) and imports.
* :func:`score_document` — the game document ``{"ruleset", "options", "players", "hands"}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .base import (
    GameState,
    Hand,
    HandContext,
    Placing,
    Problems,
    Reader,
    Ruleset,
    RuleViolation,
    dealer_after,
)

IN_PROGRESS = "in_progress"
FINISHED = "finished"


@dataclass(frozen=True)
class ScoredHand:
    number: int
    document: Mapping[str, Any]
    deltas: tuple[int, ...]
    totals: tuple[int, ...]
    side_points: tuple[int, ...] | None = None

    def as_dict(self) -> dict[str, Any]:
        data = {
            "number": self.number,
            "document": dict(self.document),
            "deltas": list(self.deltas),
            "totals": list(self.totals),
        }
        if self.side_points is not None:
            data["card_points"] = list(self.side_points)
        return data


@dataclass(frozen=True)
class ScoredGame:
    """A game with every derived figure. ``ranking`` is the final result once finished and the
    current standings before (None while no hand has been played)."""

    ruleset: Ruleset
    options: Mapping[str, Any]
    n: int
    hands: tuple[ScoredHand, ...]
    state: GameState
    status: str

    @property
    def totals(self) -> tuple[int, ...]:
        return self.state.totals

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    @property
    def ranking(self) -> tuple[Placing, ...] | None:
        if not self.hands:
            return None
        return self.ruleset.ranking(self.state)

    @property
    def next_dealer(self) -> int | None:
        """The seat due to deal next; None before the first hand (anyone may) or when finished."""
        if self.finished or self.state.last_dealer is None:
            return None
        return dealer_after(self.state.last_dealer, self.n)

    @property
    def sitting_out_next(self) -> int | None:
        dealer = self.next_dealer
        return None if dealer is None else self.ruleset.sitting_out(dealer, self.n)

    def as_dict(self, players: Sequence[Any]) -> dict[str, Any]:
        """The scored form of the game document (``manage.py score --json``, the API)."""
        data = {
            "ruleset": self.ruleset.key,
            "options": dict(self.options),
            "players": list(players),
            "hands": [hand.as_dict() for hand in self.hands],
            "totals": list(self.totals),
            "status": self.status,
            "ranking": None if self.ranking is None else [p.as_dict() for p in self.ranking],
            "next_dealer": self.next_dealer,
        }
        if self.state.card_points is not None:
            data["card_points"] = list(self.state.card_points)
        return data


def start(ruleset: Ruleset, options: Mapping[str, Any], n: int) -> ScoredGame:
    """A game with no hands. ``options`` must already be resolved."""
    state = GameState(
        n=n,
        options=options,
        hands_played=0,
        totals=(0,) * n,
        last_dealer=None,
        card_points=ruleset.card_points_start(options, n),
    )
    return ScoredGame(ruleset, options, n, (), state, IN_PROGRESS)


def resume(ruleset: Ruleset, state: GameState) -> ScoredGame:
    """A game known only by its state (cached totals, last dealer, hands played), without its
    hand list: enough to validate and score the next hand without reading earlier ones."""
    status = FINISHED if ruleset.is_finished(state) else IN_PROGRESS
    return ScoredGame(ruleset, state.options, state.n, (), state, status)


def context_for(game: ScoredGame) -> HandContext:
    return HandContext(
        n=game.n,
        options=game.options,
        number=game.state.hands_played + 1,
        previous_dealer=game.state.last_dealer,
        finished=game.finished,
    )


def play(game: ScoredGame, document: Any) -> ScoredGame:
    """The game after one more hand. Raises RuleViolation (labelled with the hand's number)."""
    ctx = context_for(game)
    try:
        hand: Hand = game.ruleset.parse_hand(document, ctx)
    except RuleViolation as violation:
        raise violation.for_hand(ctx.number) from None
    state = game.state.after(hand)
    scored = ScoredHand(ctx.number, hand.document, hand.deltas, state.totals, hand.side_points)
    status = FINISHED if game.ruleset.is_finished(state) else IN_PROGRESS
    return replace(game, hands=(*game.hands, scored), state=state, status=status)


def replay(
    ruleset: Ruleset, options: Mapping[str, Any], n: int, documents: Iterable[Any]
) -> ScoredGame:
    """Score ``documents`` from hand 1. The first invalid hand stops the replay: its problems
    are raised, labelled with its number, and nothing is returned."""
    game = start(ruleset, options, n)
    for document in documents:
        game = play(game, document)
    return game


GAME_KEYS = ("ruleset", "options", "players", "hands")
#: What an export adds about the game's life; carried through an import, ignored by scoring.
GAME_RECORD_KEYS = ("title", "status", "abandon_reason")


def score_document(document: Any, registry: Mapping[str, Ruleset]) -> tuple[ScoredGame, list[Any]]:
    """Score a whole game document; returns the scored game and its players.

    Problems with the document itself, the ruleset, the players or the options are all reported
    together (without a hand number); then the hands are replayed."""
    problems = Problems()
    doc = Reader.of(document, problems, "")
    if doc is None:
        raise RuleViolation(problems.items)
    doc.only(GAME_KEYS + GAME_RECORD_KEYS)
    key = doc.read_choice("ruleset", tuple(registry))
    players = doc.read_list("players")
    if players is not None:
        for index, name in enumerate(players):
            if not (isinstance(name, str) and name.strip()) and not _is_id(name):
                problems.add(f"players[{index}]", "type", expected="player")
    hands = doc.read_list("hands", required=False)
    options: Any = doc.obj.get("options")
    if key is None or players is None:
        problems.raise_if_any()
    assert key is not None and players is not None
    ruleset = registry[key]
    try:
        resolved = ruleset.resolve_options(options, len(players))
    except RuleViolation as violation:
        problems.items.extend(violation.problems)
    problems.raise_if_any()
    return replay(ruleset, resolved, len(players), hands or ()), players


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0
