"""Reads of games and their hands: plain dicts and rows for pages, the API and exports.

A hand has one shape wherever it is shown, :func:`hand_data` (number, document, deltas, running
totals, version and validator, card points): the game page's history, the game resource and the hand resource
of the API all use it. Each selector states how many queries it makes; tests pin them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from scoring.etags import game_tag, hand_tag
from scoring.labels import game_name
from scoring.models import (
    NOT_ACCEPTED,
    Acceptance,
    AuditEvent,
    Game,
    GameStatus,
    Hand,
    Seat,
    TableLink,
)
from scoring.rules import RULESETS, ScoredGame


def seats_of(game: Game) -> list[Seat]:
    """Seats in order with their players (one query)."""
    return list(game.seats.select_related("player").order_by("index"))


def player_names(game: Game) -> list[str]:
    return [seat.player.display_name for seat in seats_of(game)]


def hands_of(game: Game) -> list[Hand]:
    return list(game.hands.order_by("number"))


@dataclass(frozen=True)
class HistoryRow:
    hand: Hand
    totals: tuple[int, ...]
    dealer: int
    sitting_out: int | None


def history(game: Game, hands: list[Hand] | None = None) -> list[HistoryRow]:
    """Every hand with the running totals after it (one query unless ``hands`` is given)."""
    hands = hands_of(game) if hands is None else hands
    rows = []
    totals = [0] * game.n
    rules = game.rules
    for hand in hands:
        totals = [t + d for t, d in zip(totals, hand.deltas, strict=True)]
        dealer = hand.document["dealer"]
        rows.append(HistoryRow(hand, tuple(totals), dealer, rules.sitting_out(dealer, game.n)))
    return rows


@dataclass(frozen=True)
class Standing:
    """What counts of a game whose hands must be accepted: the totals of the accepted hands,
    what the hands still waiting (or rejected) would add, and their numbers."""

    accepted: tuple[int, ...]
    pending: tuple[int, ...]
    waiting: tuple[int, ...]


def standing(game: Game, hands: Sequence[Hand]) -> Standing:
    """The accepted totals and the pending part of ``game``'s totals (no query)."""
    pending = [0] * game.n
    waiting = []
    for hand in hands:
        if hand.acceptance in NOT_ACCEPTED:
            waiting.append(hand.number)
            pending = [p + d for p, d in zip(pending, hand.deltas, strict=True)]
    accepted = tuple(t - p for t, p in zip(game.totals, pending, strict=True))
    return Standing(accepted, tuple(pending), tuple(waiting))


def ranking(game: Game) -> list[dict[str, int]] | None:
    if not game.hand_count:
        return None
    return [p.as_dict() for p in game.rules.ranking(game.state())]


def game_status(game: Game, scored: ScoredGame | None = None) -> dict[str, Any]:
    """The game's figures after a change (no query). ``scored``: the engine's game just played
    into ``game`` (its cache refreshed from it), whose ranking and next dealer are the game's own
    as long as both say the same status (an abandoned game's are None): the engine is then not
    asked again, as each of the game's properties would."""
    if scored is not None and scored.status == game.status and scored.hands:
        placings = [p.as_dict() for p in scored.ranking]
        dealer = scored.next_dealer
        sitting_out = None if dealer is None else scored.ruleset.sitting_out(dealer, scored.n)
    else:
        placings, dealer = ranking(game), game.next_dealer
        sitting_out = None if dealer is None else game.rules.sitting_out(dealer, game.n)
    return {
        "id": game.pk,
        "status": game.status,
        "hand_count": game.hand_count,
        "totals": list(game.totals),
        "card_points": game.card_points,
        "ranking": placings,
        "next_dealer": dealer,
        "sitting_out_next": sitting_out,
        "version": game.version,
        "etag": str(game_tag(game)),
        "locked": game.locked_at is not None,
    }


def hand_data(hand: Hand, totals: Sequence[int]) -> dict[str, Any]:
    """One hand, the one shape: number, serial (its identity in the game), document, deltas,
    the running ``totals`` after it, version, and its card points per side where the game sums
    them (no query)."""
    data = {
        "number": hand.number,
        "serial": hand.serial,
        "document": hand.document,
        "deltas": hand.deltas,
        "totals": list(totals),
        "version": hand.version,
        "etag": str(hand_tag(hand)),
        "acceptance": hand.acceptance,
    }
    if hand.acceptance == Acceptance.REJECTED:
        data["reject_reason"] = hand.reject_reason
    if hand.side_points is not None:
        data["card_points"] = hand.side_points
    return data


def hand_payload(hand: Hand, game: Game, scored: ScoredGame | None = None) -> dict[str, Any]:
    """The answer for one hand (the API, the stored first answer of an idempotent entry): the
    hand's data, and the game's status and figures. ``scored`` gives the totals when the hand
    was just played; otherwise one query sums the deltas up to it."""
    if scored is not None:
        totals = list(scored.hands[-1].totals)
    else:
        totals = [0] * game.n
        for row in game.hands.filter(number__lte=hand.number).values_list("deltas", flat=True):
            totals = [t + d for t, d in zip(totals, row, strict=True)]
    return hand_data(hand, totals) | {"status": game.status, "game": game_status(game, scored)}


def export_game(
    game: Game, players: list[str] | None = None, documents: list[Any] | None = None
) -> dict[str, Any]:
    """The game document: ruleset, resolved options, players in seat order, hand documents; then
    what an import keeps of the game's life: its title and status, and why it was abandoned."""
    document = {
        "ruleset": game.ruleset,
        "options": game.options,
        "players": player_names(game) if players is None else players,
        "hands": [h.document for h in hands_of(game)] if documents is None else documents,
        "title": game.title,
        "status": game.status,
    }
    if game.status == GameStatus.ABANDONED:
        document["abandon_reason"] = game.abandon_reason
    return document


def game_detail(game: Game) -> dict[str, Any]:
    """The scored game (the shape of ``manage.py score --json``) plus id, club and version.
    Two queries: seats with players, hands."""
    seats = seats_of(game)
    rows = history(game)
    data = {
        "id": game.pk,
        "club": game.club.slug,
        "title": game.title,
        "version": game.version,
        "etag": str(game_tag(game)),
        "seating": game.seating,
        "locked": game.locked_at is not None,
        "lock_reason": game.lock_reason or None,
        "ruleset": game.ruleset,
        "options": game.options,
        "players": [s.player.display_name for s in seats],
        "seats": [
            {"seat": s.index, "player": s.player_id, "name": s.player.display_name, "side": s.side}
            for s in seats
        ],
        "hands": [hand_data(r.hand, r.totals) for r in rows],
        "totals": list(game.totals),
        "hands_need_acceptance": game.hands_need_acceptance,
        "status": game.status,
        "ranking": ranking(game),
        "next_dealer": game.next_dealer,
        "created_at": game.created_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }
    if game.hands_need_acceptance:
        counted = standing(game, [r.hand for r in rows])
        data["accepted_totals"] = list(counted.accepted)
        data["pending_totals"] = list(counted.pending)
        data["pending_hands"] = list(counted.waiting)
    if game.card_points is not None:
        data["card_points"] = game.card_points
    if game.status == GameStatus.ABANDONED:
        data["abandon_reason"] = game.abandon_reason
    return data


def audit_of_hand(game: Game, hand: Hand) -> list[AuditEvent]:
    """The hand's own trail, oldest first: the events of its serial, whatever numbers it had.
    One query."""
    return list(
        AuditEvent.objects.filter(game=game, hand_serial=hand.serial)
        .select_related("actor")
        .order_by("at", "id")
    )


def audit_of_game(game: Game) -> QuerySet[AuditEvent]:
    """The game's audit events, oldest first (the API pages them on ``at``, then ``id``)."""
    return AuditEvent.objects.filter(game=game).select_related("actor").order_by("at", "id")


def rulesets_description() -> list[dict[str, Any]]:
    """Every ruleset with its seat counts, options and presets (the API and the help page)."""
    return [
        {
            "key": rules.key,
            "name": game_name(rules.key),
            "min_players": rules.min_seats,
            "max_players": rules.max_seats,
            "ideal_players": rules.ideal_seats,
            "lowest_total_wins": rules.lowest_wins,
            "zero_sum": rules.zero_sum,
            "options": rules.describe_options(),
            "presets": {name: dict(values) for name, values in rules.presets.items()},
            "hand_schema": rules.hand_schema(tagged=True),
            "options_schema": rules.options_schema(),
        }
        for rules in RULESETS.values()
    ]


def hand_of(game: Game, number: int) -> Hand | None:
    return Hand.objects.filter(game=game, number=number).first()


def hand_id(game: Game, number: int) -> int | None:
    return Hand.objects.filter(game=game, number=number).values_list("pk", flat=True).first()


def first_dealer(game: Game) -> int | None:
    """Who dealt the game's first hand, as its document says (None before any hand)."""
    first = game.hands.order_by("number").values_list("document__dealer", flat=True).first()
    return first if isinstance(first, int) else None


def table_link(game: Game) -> TableLink:
    """The game's table link (every game has one from its start: ``services.start_game``)."""
    return TableLink.objects.get(game=game)


def table_link_token(game: Game) -> str | None:
    return TableLink.objects.filter(game=game).values_list("token", flat=True).first()
