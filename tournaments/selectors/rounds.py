"""A competition's rounds as the pages show them: their tables, seats and byes, who checked in,
who a drawn round leaves out and the tables a late entrant may still join, the round being
played, and what the public round page's ETag is made of."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, IntegerField, Max, OuterRef, Prefetch, Subquery, Sum
from django.db.models.functions import Cast, Coalesce

from scoring.etags import Tag, round_tag
from scoring.models import GameStatus, Seat, TableLink
from tournaments.models import (
    Bye,
    CheckIn,
    Competition,
    CompetitionEvent,
    Entry,
    Round,
    RoundStatus,
    StandingsSnapshot,
    Table,
    TableSeat,
)
from tournaments.selectors.entries import entries_of


def round_validator(round_id: int) -> Tag:
    """The round's ETag (``scoring.etags``): its row, and the last of the competition's events
    that changed it (every write of a round records one). One query."""
    version = CompetitionEvent.objects.filter(round_id=round_id).aggregate(last=Max("pk"))["last"]
    return round_tag(round_id, version or 0)


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
    who entered between a draw and its publication; not an entry replaced as absent in the
    published round. Empty before a draw, and for a knockout
    (who plays a later round is decided by the bracket, not by being active)."""
    if round_.competition.bracket_round(round_.number) or not round_.tables.exists():
        return []
    placed = set(TableSeat.objects.filter(table__round=round_).values_list("entry_id", flat=True))
    placed |= set(Bye.objects.filter(round=round_).values_list("entry_id", flat=True))
    placed |= _replaced_as_absent(round_)
    present = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
    return [
        e
        for e in entries_of(round_.competition, active_only=True)
        if e.pk not in placed and (not present or e.pk in present)
    ]


def _replaced_as_absent(round_: Round) -> set[int]:
    """The entries replaced as absent since the round was (last) published
    (``services.replace_entry``): not left out by mistake."""
    if round_.status == RoundStatus.DRAFT or round_.published_at is None:
        return set()
    events = CompetitionEvent.objects.filter(
        round=round_, action="replace_entry", at__gte=round_.published_at
    )
    return {data["absent"] for data in events.values_list("data", flat=True)}


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


#: The events of a published round's changes; their ``tables`` are the cards to print again.
CHANGE_ACTIONS = ("swap_published", "replace_entry", "redraw_tables", "move_entry")


def tables_to_reprint(round_: Round) -> list[int]:
    """The tables of a published round whose cards changed since it was (last) published
    (``services.changes``): one query."""
    if round_.status != RoundStatus.PUBLISHED or round_.published_at is None:
        return []
    events = CompetitionEvent.objects.filter(
        round=round_, action__in=CHANGE_ACTIONS, at__gte=round_.published_at
    )
    return sorted({n for data in events.values_list("data", flat=True) for n in data["tables"]})


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


def round_tables(round_: Round) -> tuple[list[Table], list[Entry]]:
    """A round's tables (seats, game and the game's seats loaded) in number order, and the
    entries with a bye: what every page showing a round reads."""
    tables = list(
        round_.tables.select_related("game")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=TableSeat.objects.select_related(
                    "entry__player", "entry__partner"
                ).order_by("position"),
            ),
            Prefetch(
                "game__seats", queryset=Seat.objects.select_related("player").order_by("index")
            ),
        )
        .order_by("number")
    )
    byes = [
        b.entry
        for b in Bye.objects.filter(round=round_).select_related("entry__player", "entry__partner")
    ]
    return tables, byes


def round_table(round_: Round, number: int) -> Table | None:
    """Table ``number`` of the round, its game and its seats (in dealing order, with their
    entries) loaded."""
    seats = TableSeat.objects.select_related("entry__player", "entry__partner").order_by("position")
    return (
        round_.tables.select_related("game")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .filter(number=number)
        .first()
    )


def round_with_tables(competition: Competition, number: int) -> Round | None:
    """Round ``number`` with its tables, their games and seats, and its byes loaded."""
    return (
        Round.objects.filter(competition=competition, number=number)
        .prefetch_related(
            "tables__game",
            "tables__seats__entry__player",
            "tables__seats__entry__partner",
            "byes__entry__player",
            "byes__entry__partner",
        )
        .first()
    )


def present_at(round_: Round) -> set[int]:
    """The entries checked in for the round."""
    return set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))


def check_ins_by_round(competition: Competition) -> dict[int, list[int]]:
    """The entries checked in for each round of the competition, by round id."""
    present: dict[int, list[int]] = defaultdict(list)
    for round_id, entry_id in CheckIn.objects.filter(round__competition=competition).values_list(
        "round_id", "entry_id"
    ):
        present[round_id].append(entry_id)
    return present


def last_check_in(competition: Competition, before: int) -> tuple[int, set[int]] | None:
    """The last round before round ``before`` that took a check-in: its number and who was
    present (None when no earlier round took one)."""
    earlier = (
        CheckIn.objects.filter(round__competition=competition, round__number__lt=before)
        .order_by("-round__number")
        .values_list("round__number", flat=True)
        .first()
    )
    if earlier is None:
        return None
    present = CheckIn.objects.filter(round__competition=competition, round__number=earlier)
    return earlier, set(present.values_list("entry_id", flat=True))


def round_after(competition: Competition, number: int) -> Round | None:
    """The round that follows round ``number``."""
    return competition.rounds.filter(number__gt=number).order_by("number").first()


def last_round(competition: Competition) -> Round | None:
    return competition.rounds.order_by("-number").first()


def current_round(competition: Competition) -> Round | None:
    """The round being played (the first published one), else the last closed one."""
    rounds = list(competition.rounds.exclude(status=RoundStatus.DRAFT).order_by("number"))
    playing = [r for r in rounds if r.status == RoundStatus.PUBLISHED]
    if playing:
        return playing[0]
    return rounds[-1] if rounds else None


def rounds_with_snapshot_version(competition: Competition) -> list[Round]:
    """The rounds in order, each with ``snapshot_version`` and ``snapshot_computed_at`` (the
    standings snapshot's, None before the first one): one query."""
    snapshot = StandingsSnapshot.objects.filter(competition=OuterRef("competition"))
    return list(
        competition.rounds.order_by("number").annotate(
            snapshot_version=Subquery(snapshot.values("version")[:1]),
            snapshot_computed_at=Subquery(snapshot.values("computed_at")[:1]),
        )
    )


def _sum_of(queryset, field: str) -> Subquery:
    """SUM(field) over the rows of ``queryset`` that belong to the outer round, as a subquery
    (so that tables and byes, two lists, are summed in one statement without multiplying)."""
    return Subquery(
        queryset.filter(round=OuterRef("pk"))
        .order_by()
        .values("round")
        .annotate(total=Sum(field))
        .values("total"),
        output_field=IntegerField(),
    )


def round_fingerprint(competition: Competition, number: int) -> tuple | None:
    """What a round's page shows, in one query: the round's id, status, game, date, times, and
    sums that change with its tables (which tables, their games and the games' versions,
    forfeits) and byes. None when there is no such round."""
    return (
        Round.objects.filter(competition=competition, number=number)
        .annotate(
            tables_n=Count("tables"),
            tables_ids=Coalesce(_sum_of(Table.objects, "pk"), 0),
            games_ids=Coalesce(_sum_of(Table.objects, "game_id"), 0),
            games_versions=Coalesce(_sum_of(Table.objects, "game__version"), 0),
            forfeits=Coalesce(
                _sum_of(
                    Table.objects.annotate(forfeit_n=Cast("forfeited", IntegerField())),
                    "forfeit_n",
                ),
                0,
            ),
            byes_ids=Coalesce(_sum_of(Bye.objects, "entry_id"), 0),
        )
        .values_list(
            "pk",
            "status",
            "ruleset",
            "date",
            "start_time",
            "duration_minutes",
            "tables_n",
            "tables_ids",
            "games_ids",
            "games_versions",
            "forfeits",
            "byes_ids",
        )
        .first()
    )


def table_links(tables: list[Table]) -> dict[int, TableLink]:
    """The table links of the tables' games, by game id."""
    games = [t.game for t in tables if t.game is not None]
    return {link.game_id: link for link in TableLink.objects.filter(game__in=games)}
