"""A competition's rounds as the pages show them: their tables, seats and byes, who a drawn round
leaves out, and the tables a late entrant may still join."""

from __future__ import annotations

from django.db.models import Prefetch

from scoring.models import GameStatus
from tournaments.models import (
    Bye,
    CheckIn,
    Competition,
    Entry,
    Round,
    RoundStatus,
    Table,
    TableSeat,
)
from tournaments.selectors.entries import entries_of


def rounds_of(competition: Competition) -> list[Round]:
    return list(
        competition.rounds.prefetch_related(
            Prefetch("tables", queryset=Table.objects.select_related("game").order_by("number")),
            Prefetch(
                "tables__seats",
                queryset=TableSeat.objects.select_related(
                    "entry__player", "entry__partner"
                ).order_by("position"),
            ),
            "byes__entry__player",
        ).order_by("number")
    )


def published_rounds(competition: Competition) -> list[Round]:
    return [r for r in rounds_of(competition) if r.status != RoundStatus.DRAFT]


def unseated(round_: Round) -> list[Entry]:
    """The active entries a drawn round leaves out by mistake: those expected to play (the
    checked-in ones if anyone checked in, else every active entry) with neither a seat nor a
    bye, in seed order. A late entrant added after a round was published is one; so is anyone
    who entered between a draw and its publication. Empty before a draw, and for a knockout
    (who plays a later round is decided by the bracket, not by being active)."""
    if round_.competition.bracket_round(round_.number) or not round_.tables.exists():
        return []
    placed = set(TableSeat.objects.filter(table__round=round_).values_list("entry_id", flat=True))
    placed |= set(Bye.objects.filter(round=round_).values_list("entry_id", flat=True))
    present = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
    return [
        e
        for e in entries_of(round_.competition, active_only=True)
        if e.pk not in placed and (not present or e.pk in present)
    ]


def late_seat_refusal(round_: Round, table: Table) -> str | None:
    """Why a late entrant cannot join ``table`` of a published round (a message reason), or
    ``None``: two-sided and pair tables are full by nature; others take one more player while
    the game allows it and no hand is entered."""
    competition = round_.competition
    if competition.two_sided or competition.pairs or table.forfeited:
        return "table_full"
    if table.seats.count() + 1 not in competition.game_sizes(round_.ruleset):
        return "table_full"
    game = table.game
    if game is not None and (game.status != GameStatus.IN_PROGRESS or game.hands.exists()):
        return "table_started"
    return None


def late_seat_tables(round_: Round) -> list[Table]:
    """The tables of a published round a late entrant can still join."""
    if round_.status != RoundStatus.PUBLISHED:
        return []
    tables = round_.tables.select_related("game").order_by("number")
    return [t for t in tables if late_seat_refusal(round_, t) is None]


def where_of(competition: Competition, entry: Entry) -> dict:
    """Where ``entry`` plays: the first published round that seats it (else the first that
    gives it a bye), the next draft round, its seat there (the table's game loaded) and the
    entries at that table in seat order (``presenters.where_answer`` words it)."""
    playing = (
        competition.rounds.filter(status=RoundStatus.PUBLISHED)
        .filter(tables__seats__entry=entry)
        .order_by("number")
        .first()
    )
    if playing is None:
        playing = (
            competition.rounds.filter(status=RoundStatus.PUBLISHED, byes__entry=entry)
            .order_by("number")
            .first()
        )
    upcoming = competition.rounds.filter(status=RoundStatus.DRAFT).order_by("number").first()
    seat = None
    if playing is not None:
        seat = (
            TableSeat.objects.filter(table__round=playing, entry=entry)
            .select_related("table__game")
            .first()
        )
    table_entries = []
    if seat is not None:
        table_entries = [
            s.entry
            for s in seat.table.seats.select_related("entry__player", "entry__partner").order_by(
                "position"
            )
        ]
    return {"playing": playing, "upcoming": upcoming, "seat": seat, "table_entries": table_entries}
