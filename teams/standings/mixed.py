"""The standings of teams whose members play at mixed tables (``docs/team-standings.md``,
"Teams at mixed tables"). Pure Python: ids and values in, dataclasses out.

Each member is an entrant of the competition's own standings, which give them their result
(``scores``: their total under the competition's scheme, e.g. placement points or game points,
as their own standings row shows it). A team's **total** is its members' results added up; the
higher total ranks first, or the lower one when ``lowest_wins`` (Turkish by game points, whose
lowest total wins).

Teams level on their total are then ordered by these tie-breaks, in this order (each one only
separates teams still level on everything before it):

``avulsa``
    the *classifica avulsa* of mixed tables: among the tied teams only, the duels their members
    had at the tables they shared. At every game, each two members of two different tied teams
    make a duel; the better placed scores 2 for their team, an equal place 1 each. With two
    teams it is their head to head. When it splits the group, each sub-group still tied is
    recomputed among its own members, again and again until nothing splits (as the palio's);
    teams whose members never shared a table stay tied on it.
``wins``
    the tables won by the team's members (first places, shared ones included).
``lots``
    a drawing of lots from the competition's seed and each team's ticket (``teams.lot``).

Teams level on everything share a rank (``1, 2, 2, 4``). Every row says which tie-break placed
it (``decided_by``) and carries the values of those applied to it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, groupby

from teams.standings.teams import MiniTable, lot

MIXED_TIE_BREAKS = ("avulsa", "wins", "lots")
MIXED_TIE_BREAK_LABELS = {
    "avulsa": "Classifica avulsa",
    "wins": "Tables won",
    "lots": "Drawing of lots",
}


@dataclass(frozen=True, slots=True)
class Seat:
    """One member's place at one game (1: first; equal places share the number)."""

    game: int
    entrant: int
    place: int


@dataclass(frozen=True, slots=True)
class MixedRow:
    team: int
    rank: int
    total: Fraction
    #: Each member's own result, as ``scores`` gave it, best first.
    members: tuple[tuple[int, Fraction], ...]
    games: int
    wins: int
    decided_by: str | None
    shared: bool
    values: dict[str, int] = field(hash=False)


@dataclass(frozen=True, slots=True)
class MixedStandings:
    rows: tuple[MixedRow, ...]
    mini_tables: tuple[MiniTable, ...]
    lowest_wins: bool
    seed: str

    def row(self, team: int) -> MixedRow:
        for row in self.rows:
            if row.team == team:
                return row
        raise KeyError(team)


class _Ranking:
    def __init__(self, team_of: Mapping[int, int], seats: Sequence[Seat]) -> None:
        self.team_of = team_of
        by_game: dict[int, list[Seat]] = defaultdict(list)
        for seat in seats:
            if seat.entrant in team_of:
                by_game[seat.game].append(seat)
        self.games = list(by_game.values())
        self.values: dict[int, dict[str, int]] = defaultdict(dict)
        self.decided_by: dict[int, str] = {}
        self.mini_tables: list[MiniTable] = []

    def duels(self, group: Iterable[int]) -> tuple[dict[int, int], int]:
        """The duel points of each team of ``group`` against the others, and how many duels."""
        members = set(group)
        points, count = dict.fromkeys(members, 0), 0
        for game in self.games:
            for a, b in combinations(game, 2):
                ta, tb = self.team_of[a.entrant], self.team_of[b.entrant]
                if ta == tb or ta not in members or tb not in members:
                    continue
                count += 1
                if a.place == b.place:
                    points[ta] += 1
                    points[tb] += 1
                else:
                    points[ta if a.place < b.place else tb] += 2
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
        points, count = self.duels(group)
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


def compute(
    members: Mapping[int, Sequence[int]],
    scores: Mapping[int, Fraction | int],
    seats: Sequence[Seat],
    *,
    lowest_wins: bool = False,
    seed: str = "",
    tickets: Mapping[int, int] | None = None,
) -> MixedStandings:
    """The team standings (see the module docstring). ``members``: each team's entrants;
    ``scores``: each entrant's result (missing: 0); ``seats``: every member's place at every
    game played. Raises ``ValueError`` for an entrant on two teams."""
    team_of: dict[int, int] = {}
    for team, entrants in members.items():
        for entrant in entrants:
            if entrant in team_of:
                raise ValueError(f"entrant {entrant} is on two teams")
            team_of[entrant] = team
    sign = -1 if lowest_wins else 1
    total = {
        t: sum((Fraction(scores.get(e, 0)) for e in es), Fraction(0)) for t, es in members.items()
    }
    ranking = _Ranking(team_of, seats)
    games: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = defaultdict(int)
    for seat in seats:
        if seat.entrant in team_of:
            games[team_of[seat.entrant]] += 1
            wins[team_of[seat.entrant]] += seat.place == 1
    ordered = sorted(members, key=lambda t: (-sign * total[t], t))
    groups = [list(g) for _, g in groupby(ordered, key=total.__getitem__)]
    tickets = tickets or {}
    for key in MIXED_TIE_BREAKS:
        refined: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
            elif key == "avulsa":
                refined.extend(ranking.avulsa(group, 1))
            elif key == "wins":
                refined.extend(ranking.split(group, key, wins))
            else:
                lots = {t: lot(seed, tickets.get(t, t)) for t in group}
                refined.extend(ranking.split(group, key, lots))
        groups = refined
    rows, rank = [], 1
    for group in groups:
        for team in group:
            rows.append(
                MixedRow(
                    team=team,
                    rank=rank,
                    total=total[team],
                    members=tuple(
                        sorted(
                            ((e, Fraction(scores.get(e, 0))) for e in members[team]),
                            key=lambda m: (-sign * m[1], m[0]),
                        )
                    ),
                    games=games[team],
                    wins=wins[team],
                    decided_by=None if len(group) > 1 else ranking.decided_by.get(team),
                    shared=len(group) > 1,
                    values=dict(ranking.values[team]),
                )
            )
        rank += len(group)
    return MixedStandings(tuple(rows), tuple(ranking.mini_tables), lowest_wins, seed)
