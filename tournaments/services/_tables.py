"""Storing a drawn round: its tables (seats in dealing order), byes and quality figures, for the
draw and the bracket alike; the title, players and house rules of a table's game (a knockout
stage's own match length: ``stages``). Private to ``tournaments.services``; called inside the
draw's transaction, under its lock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.models import Game, Player
from scoring.validators import shorten
from tournaments import scheduling
from tournaments.models import Bye, Competition, Entry, Round, Table, TableSeat

#: The game title's column: a table's game title is made to fit it.
TITLE_MAX = Game._meta.get_field("title").max_length


def table_title(name: str, round_number: int, table_number: int) -> str:
    """The title of a table's game, "<competition> · R<round> · T<table>": the competition's
    name is cut (at a word, with "…") so that the whole fits the game's title column."""
    suffix = f" · R{round_number} · T{table_number}"
    return shorten(name, TITLE_MAX - len(suffix)) + suffix


def store_tables(
    round_: Round,
    tables: Sequence[Sequence[int]],
    byes: Sequence[int],
    metrics: dict[str, Any],
    method: str,
    seed: int,
) -> None:
    """Replace the draft ``round_``'s tables and byes by those drawn, with the draw's quality
    figures, how it was drawn and its seed."""
    Table.objects.filter(round=round_).delete()
    Bye.objects.filter(round=round_).delete()
    for number, seats in enumerate(tables, start=1):
        table = Table.objects.create(round=round_, number=number)
        TableSeat.objects.bulk_create(
            TableSeat(table=table, position=i, entry_id=e) for i, e in enumerate(seats)
        )
    Bye.objects.bulk_create(Bye(round=round_, entry_id=e) for e in byes)
    round_.metrics = metrics
    round_.method = method
    round_.seed = seed
    # A draw that succeeds ends the notice of an earlier refused one.
    round_.draw_problem = None
    round_.save(update_fields=["metrics", "method", "seed", "draw_problem"])


def table_players(competition: Competition, entries: Sequence[Entry]) -> list[Player]:
    """The players of a table whose ``entries`` are in seat order, as its game seats them
    (pairs: both first players, then their partners)."""
    if competition.pairs:
        return [entries[0].player, entries[1].player, entries[0].partner, entries[1].partner]
    return [e.player for e in entries]


def metrics_dict(metrics: scheduling.Metrics) -> dict[str, Any]:
    return {
        "repeated_pairs": metrics.repeated_pairs,
        "max_meetings": metrics.max_meetings,
        "byes_per_player": list(metrics.byes_per_player),
        "first_dealer": list(metrics.first_dealer),
        "sit_outs": list(metrics.sit_outs),
        "lower_bound": metrics.lower_bound,
        "perfect": metrics.perfect,
        "seconds": round(metrics.seconds, 3),
    }


def table_options(competition: Competition, round_: Round, table: Table) -> dict[str, Any]:
    """The house rules of ``table``'s game: the competition's for the round's game, its stage's
    match length in place of the game's own in a knockout round that has one."""
    options = dict(competition.options.get(round_.ruleset) or {})
    if not competition.bracket_round(round_.number):
        return options
    wins = competition.stage_length(round_.number)
    third = competition.stage_length(round_.number, third_place=True)
    if third != wins and _third_place_match(competition, round_, table):
        wins = third
    if wins is not None:
        options["hands_to_win"] = wins
    return options


def _third_place_match(competition: Competition, round_: Round, table: Table) -> bool:
    """Whether ``table`` plays the bracket's third-place match (kept on its first round; a
    round's ``matches`` list each table's match number)."""
    matches = (round_.metrics or {}).get("matches") or []
    if not 0 < table.number <= len(matches):
        return False
    first = (
        competition.rounds.filter(number__gte=competition.knockout_from, bracket__isnull=False)
        .order_by("number")
        .values_list("bracket", flat=True)
        .first()
    )
    third = (first or {}).get("third_place") or {}
    return third.get("number") == matches[table.number - 1]
