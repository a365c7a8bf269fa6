"""Team standings: the table of a competition between teams, with the tie-breaks of Italian
team play (``docs/team-standings.md`` works an example through).

A team match (``MatchRecord``) is played at one or more boards; a board (``BoardScore``) is one
game at one table, and records the games (Briscola's *partite*) each side won there and the card
points each side made. ``match_outcome`` turns the boards into the match's result, measured by
the competition's ``result_by``:

``boards``
    the boards won (a board is won by the side that won more games at it; equal is a drawn board);
``games``
    the games won, summed over the boards;
``card_points``
    the card points, summed over the boards.

The side with the higher measure wins the match, equal measures draw it, and the match gives
its teams the competition's ``MatchPoints`` (win, draw, loss).

``compute`` orders the teams by their match points, then by the tie-breaks in ``tie_breaks``
(``TEAM_TIE_BREAKS``, in the order given; each one only separates teams still tied on everything
before it):

``head_to_head``
    for two teams tied: the match points each earned in the matches between the two.
``avulsa``
    for three teams or more tied: the *classifica avulsa*, a mini-table of the match points each
    earned in the matches among the tied teams only. When it splits the group, every sub-group of
    two or more still tied is recomputed among its own members (a mini-table of the matches among
    them alone), again and again until nothing splits, as the Italian football rules do.
``boards_won``, ``games_won``
    the boards and games won over all the team's matches.
``card_points_difference``
    card points made minus card points conceded, over all the team's matches.
``lots``
    a drawing of lots: every team's lot is a number derived from the competition's ``seed`` and
    the team's ticket (SHA-256; ``tickets``, by default its id), so the same seed always draws
    the same order; the higher lot ranks higher. The selector gives each team the order it was
    added in as its ticket, which a club's export and import keep (database ids change).

Teams tied on everything listed share a rank (``1, 2, 2, 4``). Every row says which tie-break
placed it (``decided_by``, None when match points alone did) and carries the values of every
tie-break applied to it; the standings keep the mini-tables of the *classifica avulsa*
(``MiniTable``) so that a page can show them.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby

RESULT_BY = ("boards", "games", "card_points")
TEAM_TIE_BREAKS = (
    "head_to_head",
    "avulsa",
    "boards_won",
    "games_won",
    "card_points_difference",
    "lots",
)
DEFAULT_TEAM_TIE_BREAKS = TEAM_TIE_BREAKS
TIE_BREAK_LABELS = {
    "head_to_head": "Head to head",
    "avulsa": "Classifica avulsa",
    "boards_won": "Boards won",
    "games_won": "Games won",
    "card_points_difference": "Card points difference",
    "lots": "Drawing of lots",
}

HOME, AWAY = "home", "away"


@dataclass(frozen=True, slots=True)
class MatchPoints:
    """The match points of a won, a drawn and a lost match."""

    win: int = 1
    draw: int = 0
    loss: int = 0

    def __post_init__(self) -> None:
        if not self.win >= self.draw >= self.loss:
            raise ValueError("a win must be worth at least a draw, and a draw at least a loss")


@dataclass(frozen=True, slots=True)
class BoardScore:
    """One board of a match: the games each side won there, and their card points."""

    home_games: int
    away_games: int
    home_card_points: int = 0
    away_card_points: int = 0

    def __post_init__(self) -> None:
        if min(self.home_games, self.away_games, self.home_card_points, self.away_card_points) < 0:
            raise ValueError("a board's games and card points cannot be negative")

    @property
    def winner(self) -> str | None:
        """``home``, ``away`` or None for a drawn board."""
        if self.home_games == self.away_games:
            return None
        return HOME if self.home_games > self.away_games else AWAY


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A played team match: its id, its two teams and its boards."""

    match: int
    home: int
    away: int
    boards: tuple[BoardScore, ...]

    def __post_init__(self) -> None:
        if self.home == self.away:
            raise ValueError(f"match {self.match}: a team cannot play itself")
        if not self.boards:
            raise ValueError(f"match {self.match}: a match has at least one board")


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A match's result, derived from its boards."""

    home_boards: int
    away_boards: int
    home_games: int
    away_games: int
    home_card_points: int
    away_card_points: int
    home_score: int
    away_score: int
    winner: str | None
    home_points: int
    away_points: int


def match_outcome(record: MatchRecord, *, result_by: str, points: MatchPoints) -> MatchOutcome:
    """The result of ``record``, measured by ``result_by``, and the match points it gives."""
    if result_by not in RESULT_BY:
        raise ValueError(f"unknown match result {result_by!r}; known: {', '.join(RESULT_BY)}")
    boards = record.boards
    figures = {
        "boards": (
            sum(b.winner == HOME for b in boards),
            sum(b.winner == AWAY for b in boards),
        ),
        "games": (sum(b.home_games for b in boards), sum(b.away_games for b in boards)),
        "card_points": (
            sum(b.home_card_points for b in boards),
            sum(b.away_card_points for b in boards),
        ),
    }
    home_score, away_score = figures[result_by]
    if home_score == away_score:
        winner, home_points, away_points = None, points.draw, points.draw
    elif home_score > away_score:
        winner, home_points, away_points = HOME, points.win, points.loss
    else:
        winner, home_points, away_points = AWAY, points.loss, points.win
    return MatchOutcome(
        *figures["boards"],
        *figures["games"],
        *figures["card_points"],
        home_score,
        away_score,
        winner,
        home_points,
        away_points,
    )


@dataclass(frozen=True, slots=True)
class MiniTable:
    """One mini-table of the *classifica avulsa*: the ``teams`` tied when it was drawn up, the
    match points each earned among them (``points``, best first), and ``level``: 1 for the
    first mini-table of a group, 2 for a sub-group recomputed among itself, and so on."""

    teams: tuple[int, ...]
    points: tuple[tuple[int, int], ...]
    matches: int
    level: int


@dataclass(frozen=True, slots=True)
class TeamRow:
    """One team's line of the standings."""

    team: int
    rank: int
    match_points: int
    played: int
    won: int
    drawn: int
    lost: int
    boards_won: int
    boards_lost: int
    games_won: int
    games_lost: int
    card_points_for: int
    card_points_against: int
    #: The tie-break that placed the team among those tied with it on match points (None when
    #: match points alone placed it, or when nothing separated it: see ``shared``).
    decided_by: str | None
    #: True when the team shares its rank with another.
    shared: bool
    values: dict[str, int] = field(hash=False)

    @property
    def card_points_difference(self) -> int:
        return self.card_points_for - self.card_points_against


@dataclass(frozen=True, slots=True)
class TeamStandings:
    rows: tuple[TeamRow, ...]
    tie_breaks: tuple[str, ...]
    mini_tables: tuple[MiniTable, ...]
    seed: str

    def row(self, team: int) -> TeamRow:
        for row in self.rows:
            if row.team == team:
                return row
        raise KeyError(team)


class _Figures:
    __slots__ = (
        "boards_lost",
        "boards_won",
        "card_against",
        "card_for",
        "drawn",
        "games_lost",
        "games_won",
        "lost",
        "points",
        "won",
    )

    def __init__(self) -> None:
        self.points = self.won = self.drawn = self.lost = 0
        self.boards_won = self.boards_lost = self.games_won = self.games_lost = 0
        self.card_for = self.card_against = 0

    def add(self, outcome: MatchOutcome, side: str) -> None:
        home = side == HOME
        self.points += outcome.home_points if home else outcome.away_points
        if outcome.winner is None:
            self.drawn += 1
        elif outcome.winner == side:
            self.won += 1
        else:
            self.lost += 1
        mine, theirs = (HOME, AWAY) if home else (AWAY, HOME)
        self.boards_won += getattr(outcome, f"{mine}_boards")
        self.boards_lost += getattr(outcome, f"{theirs}_boards")
        self.games_won += getattr(outcome, f"{mine}_games")
        self.games_lost += getattr(outcome, f"{theirs}_games")
        self.card_for += getattr(outcome, f"{mine}_card_points")
        self.card_against += getattr(outcome, f"{theirs}_card_points")


def lot(seed: str, team: int) -> int:
    """The team's lot in the drawing of lots seeded by ``seed`` (reproducible)."""
    digest = hashlib.sha256(f"{seed}:{team}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class _Ranking:
    """Orders tied groups (private to ``compute``)."""

    def __init__(
        self,
        played: Sequence[tuple[MatchRecord, MatchOutcome]],
        figures: Mapping[int, _Figures],
        seed: str,
        tickets: Mapping[int, int],
    ) -> None:
        self.played = played
        self.figures = figures
        self.seed = seed
        self.tickets = tickets
        self.values: dict[int, dict[str, int]] = {team: {} for team in figures}
        self.decided_by: dict[int, str] = {}
        self.mini_tables: list[MiniTable] = []

    def among(self, teams: Iterable[int]) -> tuple[dict[int, int], int]:
        """Match points earned in the matches among ``teams`` only, and how many matches."""
        members = set(teams)
        points = dict.fromkeys(members, 0)
        count = 0
        for record, outcome in self.played:
            if record.home in members and record.away in members:
                points[record.home] += outcome.home_points
                points[record.away] += outcome.away_points
                count += 1
        return points, count

    def split(self, group: list[int], key: str, value: Mapping[int, int]) -> list[list[int]]:
        for team in group:
            self.values[team][key] = value[team]
        ordered = sorted(group, key=lambda t: (-value[t], t))
        parts = [list(g) for _, g in groupby(ordered, key=value.__getitem__)]
        if len(parts) > 1:
            for team in group:
                self.decided_by[team] = key
        return parts

    def avulsa(self, group: list[int], level: int) -> list[list[int]]:
        points, count = self.among(group)
        ordered = sorted(group, key=lambda t: (-points[t], t))
        self.mini_tables.append(
            MiniTable(tuple(ordered), tuple((t, points[t]) for t in ordered), count, level)
        )
        parts = self.split(group, "avulsa", points)
        if len(parts) == 1:
            return parts
        refined: list[list[int]] = []
        for part in parts:
            refined.extend(self.avulsa(part, level + 1) if len(part) > 1 else [part])
        return refined

    def apply(self, key: str, group: list[int]) -> list[list[int]]:
        if key == "avulsa":
            return self.avulsa(group, 1) if len(group) > 2 else [group]
        if key == "head_to_head":
            if len(group) != 2:
                return [group]
            return self.split(group, key, self.among(group)[0])
        value = {
            "boards_won": lambda f, t: f.boards_won,
            "games_won": lambda f, t: f.games_won,
            "card_points_difference": lambda f, t: f.card_for - f.card_against,
            "lots": lambda f, t: lot(self.seed, self.tickets.get(t, t)),
        }[key]
        return self.split(group, key, {t: value(self.figures[t], t) for t in group})


def compute(
    matches: Iterable[MatchRecord],
    *,
    teams: Iterable[int] = (),
    result_by: str = "boards",
    points: MatchPoints = MatchPoints(),
    tie_breaks: Sequence[str] = DEFAULT_TEAM_TIE_BREAKS,
    seed: str = "",
    tickets: Mapping[int, int] | None = None,
) -> TeamStandings:
    """The team standings from the played ``matches`` (see the module docstring).

    ``teams`` adds teams that have played no match yet; ``tickets`` gives the drawing of lots
    each team's number (its id when not given). Raises ``ValueError`` for an unknown or
    repeated tie-break, an unknown ``result_by``, or a match id given twice.
    """
    tie_breaks = tuple(tie_breaks)
    for key in tie_breaks:
        if key not in TEAM_TIE_BREAKS:
            raise ValueError(f"unknown tie-break {key!r}; known: {', '.join(TEAM_TIE_BREAKS)}")
    if len(set(tie_breaks)) != len(tie_breaks):
        raise ValueError("a tie-break is listed more than once")
    figures: dict[int, _Figures] = defaultdict(_Figures)
    for team in teams:
        figures[team]
    played: list[tuple[MatchRecord, MatchOutcome]] = []
    seen: set[int] = set()
    for record in matches:
        if record.match in seen:
            raise ValueError(f"match {record.match} is given twice")
        seen.add(record.match)
        outcome = match_outcome(record, result_by=result_by, points=points)
        figures[record.home].add(outcome, HOME)
        figures[record.away].add(outcome, AWAY)
        played.append((record, outcome))

    ranking = _Ranking(played, figures, seed, tickets or {})
    ordered = sorted(figures, key=lambda t: (-figures[t].points, t))
    groups = [list(g) for _, g in groupby(ordered, key=lambda t: figures[t].points)]
    for key in tie_breaks:
        refined: list[list[int]] = []
        for group in groups:
            refined.extend(ranking.apply(key, group) if len(group) > 1 else [group])
        groups = refined

    rows: list[TeamRow] = []
    rank = 1
    for group in groups:
        for team in group:
            f = figures[team]
            rows.append(
                TeamRow(
                    team=team,
                    rank=rank,
                    match_points=f.points,
                    played=f.won + f.drawn + f.lost,
                    won=f.won,
                    drawn=f.drawn,
                    lost=f.lost,
                    boards_won=f.boards_won,
                    boards_lost=f.boards_lost,
                    games_won=f.games_won,
                    games_lost=f.games_lost,
                    card_points_for=f.card_for,
                    card_points_against=f.card_against,
                    decided_by=None if len(group) > 1 else ranking.decided_by.get(team),
                    shared=len(group) > 1,
                    values=ranking.values[team],
                )
            )
        rank += len(group)
    return TeamStandings(tuple(rows), tie_breaks, tuple(ranking.mini_tables), seed)
