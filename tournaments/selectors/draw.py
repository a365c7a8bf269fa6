"""What a draw reads: how many it seats, who met whom so far, every round's tables as drawn,
the entrants' ratings, whether a background draw has ended, and why the last one of a round was
refused."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from scoring.models import Rating
from scoring.rules import Problem
from tournaments.extensions import DRAW_GROUPS
from tournaments.models import (
    CheckIn,
    Competition,
    CompetitionEvent,
    Entry,
    EntryStatus,
    Round,
    RoundStatus,
    TableSeat,
)


def meetings(competition: Competition, *, before: int | None = None) -> dict[tuple[int, int], int]:
    """How often each two entries shared a table in the rounds so far (draft rounds excluded)."""
    counts: dict[tuple[int, int], int] = defaultdict(int)
    seats = TableSeat.objects.filter(table__round__competition=competition).exclude(
        table__round__status=RoundStatus.DRAFT
    )
    if before is not None:
        seats = seats.filter(table__round__number__lt=before)
    by_table: dict[int, list[int]] = defaultdict(list)
    for table_id, entry_id in seats.values_list("table_id", "entry_id"):
        by_table[table_id].append(entry_id)
    for members in by_table.values():
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                counts[(min(a, b), max(a, b))] += 1
    return dict(counts)


def drawn_tables(competition: Competition) -> dict[int, list[tuple[int, ...]]]:
    """Every round's tables as drawn (draft rounds included), by round number: each table its
    entries in seat order. Two queries' worth of plain values, for the draw's quality figures."""
    tables: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for number, table, entry in (
        TableSeat.objects.filter(table__round__competition=competition)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__number", "entry_id")
    ):
        tables[number][table].append(entry)
    return {
        number: [tuple(seats) for _n, seats in sorted(by_table.items())]
        for number, by_table in sorted(tables.items())
    }


def draw_groups(competition: Competition) -> list[tuple[str, list[int]]]:
    """The named groups of entries the draw keeps apart, from the apps (``DRAW_GROUPS``: a
    team's members at mixed tables); empty for a competition of individuals."""
    return [group for hook in DRAW_GROUPS for group in hook(competition)]


def played_before(round_: Round) -> bool:
    """Whether a round before ``round_`` of its competition was published (there are results)."""
    return (
        round_.competition.rounds.filter(number__lt=round_.number)
        .exclude(status=RoundStatus.DRAFT)
        .exists()
    )


def entry_ratings(competition: Competition, entries: list[int], ruleset: str) -> dict[int, float]:
    """The club's rating of each of ``entries`` that has one (a pair: the mean of its players'
    ratings): a player's rating in the game ``ruleset`` (the ordinal its leaderboard ranks by),
    else his club-wide rating. Two queries."""
    players = {
        pk: [p for p in pair if p is not None]
        for pk, *pair in Entry.objects.filter(competition=competition, pk__in=entries).values_list(
            "pk", "player_id", "partner_id"
        )
    }
    wanted = {p for pair in players.values() for p in pair}
    game: dict[int, float] = {}
    club: dict[int, float] = {}
    for player, kind, ordinal in Rating.objects.filter(
        club_id=competition.club_id, player_id__in=wanted
    ).values_list("player_id", "ruleset", "ordinal"):
        if kind == ruleset:
            game[player] = ordinal
        elif kind is None:
            club[player] = ordinal
    ratings = {}
    for pk, pair in players.items():
        known = [game.get(p, club.get(p)) for p in pair]
        known = [r for r in known if r is not None]
        if known:
            ratings[pk] = sum(known) / len(known)
    return ratings


def draw_refusal(round_: Round) -> dict[str, Any] | None:
    """The refused background draw of a draft round, as kept (``services.record_draw_refusal``):
    when (``at``, ISO text), who asked (``by_name``) and the ``problems``; None once a draw
    succeeded, and for a published round."""
    stored = round_.draw_problem
    if not stored or round_.status != RoundStatus.DRAFT:
        return None
    return {
        "at": stored["at"],
        "by_name": stored.get("by_name") or "",
        "problems": [
            Problem(p["field"], p["code"], p.get("params") or {})
            for p in stored.get("problems") or []
        ],
    }


def participant_count(round_: Round) -> int:
    """How many a draw of ``round_`` seats: those checked in, else every active entry."""
    present = CheckIn.objects.filter(round=round_, entry__status=EntryStatus.ACTIVE).count()
    return present or round_.competition.entries.filter(status=EntryStatus.ACTIVE).count()


def draw_ended_since(round_: Round, event_id: int) -> bool:
    """Whether a draw of ``round_`` succeeded or was refused after the event ``event_id``."""
    return CompetitionEvent.objects.filter(
        competition=round_.competition,
        round=round_,
        action__in=("generate_round", "draw_refused"),
        pk__gt=event_id,
    ).exists()
