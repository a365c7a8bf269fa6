"""The competitions' invariants over the games they play: a closed round holds only finished
games (or forfeited tables), and a final competition only closed rounds. Kept by the writes
(``close_round`` locks and re-checks its games; ``keep_closed_rounds_finished`` refuses a hand
write that would take a game of a closed round back to unfinished) and checked by
``manage.py check_games`` and the nightly task, through scoring's extension points
(``scoring.extensions``: ``UNFINISHING_GUARDS``, ``GAME_CHECKS``; registered in
``TournamentsConfig.ready``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from scoring.models import Game, GameStatus
from scoring.services import Conflict
from tournaments.models import CompetitionEvent, Round, RoundStatus, Table


def keep_closed_rounds_finished(game: Game) -> None:
    """Refuse a write that would take ``game`` (finished, locked by the write) back to unfinished
    or abandon it while its table's round is closed (409: the round's results are settled).

    A read, not a lock: the game's lock is the last one taken (docs/architecture.md, "Locks"),
    and ``close_round`` locks the round's games before it looks at them, so either the round was
    closed before this write took the game's lock (read here, committed) or closing it waits for
    this write and then sees the game unfinished."""
    table = (
        Table.objects.filter(game_id=game.pk, forfeited=False, round__status=RoundStatus.CLOSED)
        .select_related("round__competition")
        .first()
    )
    if table is not None:
        raise Conflict(
            "game",
            "not_allowed",
            reason="round_closed_unfinished",
            round=table.round.number,
            competition=table.round.competition.name,
        )


@dataclass(frozen=True)
class Breach:
    """A competition's invariant that its stored rows break."""

    competition: int
    what: str

    def __str__(self) -> str:
        return f"competition {self.competition}: {self.what}"


def check_competitions(
    club: str | None = None, *, since: datetime | None = None, games: list[int] | None = None
) -> Iterator[Breach]:
    """Every closed round with a game not finished at a table not forfeited, and every final
    competition with a round not closed (of the club of slug ``club``, or every club). Given
    ``since`` and ``games`` (the games changed since then), only the tables of those games and
    the competitions with an event since then (every write of a competition, its rounds and
    tables leaves one): the nightly task's share."""
    tables = (
        Table.objects.filter(round__status=RoundStatus.CLOSED, forfeited=False)
        .filter(round__deleted_at__isnull=True)
        .exclude(game__status=GameStatus.FINISHED)
        .select_related("round", "game")
        .order_by("round__competition_id", "round__number", "number")
    )
    rounds = (
        Round.objects.filter(competition__finalized_at__isnull=False)
        .exclude(status=RoundStatus.CLOSED)
        .order_by("competition_id", "number")
    )
    if club is not None:
        tables = tables.filter(round__competition__club__slug=club)
        rounds = rounds.filter(competition__club__slug=club)
    if since is not None:
        tables = tables.filter(game_id__in=games or [])
        changed = CompetitionEvent.objects.filter(at__gte=since).values("competition_id")
        rounds = rounds.filter(competition_id__in=changed)
    for table in tables:
        status = table.game.status if table.game is not None else "no game"
        yield Breach(
            table.round.competition_id,
            f"round {table.round.number} is closed but the game of table {table.number} "
            f"(game {table.game_id}) is {status}",
        )
    for round_ in rounds:
        yield Breach(
            round_.competition_id,
            f"the competition is final but round {round_.number} is {round_.status}",
        )
