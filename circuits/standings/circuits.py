"""A circuit's standings: a season of competitions, each awarding points by final placement, and
a ranking of each person's best results. Pure Python, values in and frozen values out
(``docs/circuits.md`` states the rules with an example).

Vocabulary
----------
event
    One competition of the circuit (:class:`Event`), identified by an ``int``, with the finishes
    of its final standings. Only a ``final`` event counts; a live one is listed as provisional.
finish
    One entry's place in an event (:class:`Finish`): its players (one, or the two of a Briscola
    pair) and its rank, shared ranks written competition style (1, 2, 2, 4); ``None`` when the
    competition itself left the entry unranked (below its own minimum attendance).
person
    A circuit entrant: the players of one account, or players linked by a circuit organizer,
    whatever their clubs (``persons``). Identified by the smallest player id among them.

Points by placement (``placement_points``)
------------------------------------------
The field size ``n`` is the number of ranked finishes of the event (entries, so a pair counts
once). With an organizer's ``table`` (points for places 1, 2, 3...; non-increasing, never
negative) place ``p`` earns ``table[p - 1]``, and 0 beyond its end. Without a table the default
is the **field rule**: one point for every entry finished ahead of, plus one for taking part,
``n - p + 1``: the winner of 40 entries earns 40, the winner of 8 earns 8, last place 1.
Entries sharing a rank share equally the points of the places they cover (two tied 2nd of 8:
(7 + 6) / 2 = 13/2 each). A pair's two players each earn the pair's points.

Standings (``circuit_standings``)
---------------------------------
A person's total is the sum of their best ``best_of`` final results (all of them when None);
whoever played fewer than ``min_events`` final events is listed, after the others, unranked.
Equal totals share a rank. A person met twice in one event (two linked players) keeps the better
result.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

ZERO = Fraction(0)


@dataclass(frozen=True, slots=True)
class Finish:
    players: tuple[int, ...]
    rank: int | None


@dataclass(frozen=True, slots=True)
class Event:
    key: int
    final: bool
    finishes: tuple[Finish, ...]


@dataclass(frozen=True, slots=True)
class EventResult:
    """One person's result in one event: rank, field size, points, and whether it counts."""

    event: int
    rank: int
    entrants: int
    points: Fraction
    counted: bool
    provisional: bool


@dataclass(frozen=True, slots=True)
class Row:
    person: int
    rank: int | None
    ranked: bool
    points: Fraction
    events: int
    results: tuple[EventResult, ...]


class Problem(ValueError):
    """A setting the standings cannot use, naming its field (``points_table``, ``best_of``)."""

    def __init__(self, field: str, code: str):
        self.field, self.code = field, code
        super().__init__(f"{field}: {code}")


def check_table(table: Sequence[int] | None) -> None:
    """Refuse a points table that is empty, has a negative number or ever increases."""
    if table is None:
        return
    if not table:
        raise Problem("points_table", "required")
    if any(points < 0 for points in table):
        raise Problem("points_table", "negative")
    if any(later > earlier for earlier, later in pairwise(table)):
        raise Problem("points_table", "increasing")


def place_points(place: int, entrants: int, table: Sequence[int] | None) -> Fraction:
    """The points of one place (1-based) among ``entrants``: the table's, or the field rule's."""
    if table is None:
        return Fraction(max(entrants - place + 1, 0))
    return Fraction(table[place - 1]) if place <= len(table) else ZERO


def placement_points(
    rank: int, shared: int, entrants: int, table: Sequence[int] | None = None
) -> Fraction:
    """Points of a rank shared by ``shared`` entries: the mean of the places they cover."""
    covered = [place_points(p, entrants, table) for p in range(rank, rank + shared)]
    return sum(covered, ZERO) / shared


def persons(
    accounts: Mapping[int, int | None], links: Iterable[tuple[int, int]] = ()
) -> dict[int, int]:
    """Each player's person: players of one account and linked players are one (the smallest
    player id of them names the person). ``accounts`` maps every player to its user (or None)."""
    parent = {player: player for player in accounts}

    def root(player: int) -> int:
        while parent[player] != player:
            parent[player] = parent[parent[player]]
            player = parent[player]
        return player

    def join(a: int, b: int) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    first_of_user: dict[int, int] = {}
    for player, user in sorted(accounts.items()):
        if user is not None:
            join(player, first_of_user.setdefault(user, player))
    for a, b in links:
        if a in parent and b in parent:
            join(a, b)
    return {player: root(player) for player in accounts}


def event_points(
    event: Event, person_of: Mapping[int, int], table: Sequence[int] | None
) -> dict[int, tuple[int, int, Fraction]]:
    """Each person's (rank, field size, points) in one event; the better of two if met twice."""
    ranked = [f for f in event.finishes if f.rank is not None]
    entrants = len(ranked)
    shared = defaultdict(int)
    for finish in ranked:
        shared[finish.rank] += 1
    best: dict[int, tuple[int, int, Fraction]] = {}
    for finish in ranked:
        points = placement_points(finish.rank, shared[finish.rank], entrants, table)
        for player in finish.players:
            person = person_of.get(player, player)
            if person not in best or points > best[person][2]:
                best[person] = (finish.rank, entrants, points)
    return best


def circuit_standings(
    events: Sequence[Event],
    *,
    person_of: Mapping[int, int],
    table: Sequence[int] | None = None,
    best_of: int | None = None,
    min_events: int = 0,
) -> list[Row]:
    """Every person with a result, ranked: ranked ones by total (shared on equal totals), then
    the unranked (too few final events); within a total, by person id."""
    check_table(table)
    if best_of is not None and best_of < 1:
        raise Problem("best_of", "range")
    results: dict[int, list[tuple[Event, int, int, Fraction]]] = defaultdict(list)
    for event in sorted(events, key=lambda e: e.key):
        for person, (rank, entrants, points) in event_points(event, person_of, table).items():
            results[person].append((event, rank, entrants, points))
    rows = [_row(person, got, best_of, min_events) for person, got in results.items()]
    rows.sort(key=lambda r: (not r.ranked, -r.points, r.person))
    ranked_rows, previous, rank = [], None, 0
    for index, row in enumerate(rows):
        if row.ranked and row.points != previous:
            rank, previous = index + 1, row.points
        ranked_rows.append(_with_rank(row, rank if row.ranked else None))
    return ranked_rows


def _row(person: int, got: list, best_of: int | None, min_events: int) -> Row:
    final = [item for item in got if item[0].final]
    # Best first; on equal points the earlier event counts (a stable, stated choice).
    best = sorted(final, key=lambda item: (-item[3], item[0].key))
    counted = {item[0].key for item in (best if best_of is None else best[:best_of])}
    return Row(
        person=person,
        rank=None,
        ranked=len(final) >= min_events,
        points=sum((item[3] for item in final if item[0].key in counted), ZERO),
        events=len(final),
        results=tuple(
            EventResult(
                event=event.key,
                rank=rank,
                entrants=entrants,
                points=points,
                counted=event.key in counted,
                provisional=not event.final,
            )
            for event, rank, entrants, points in got
        ),
    )


def _with_rank(row: Row, rank: int | None) -> Row:
    return Row(row.person, rank, row.ranked, row.points, row.events, row.results)
