"""Values shared by every scheduler: rounds, schedules, their quality figures, and edits.

A :class:`Round` is a tuple of tables plus the players on a bye; a table is a tuple of player ids in
seat (dealing) order, seat 0 deals first. A :class:`Schedule` is rounds plus the :class:`Metrics`
measured on them. :func:`measure` computes the metrics of any rounds, :func:`pair_counts` turns
rounds into the pair meeting counts that ``history`` arguments take, and :func:`swap` edits a draft.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

Pair = tuple[int, int]


@dataclass(frozen=True)
class Partition:
    """How a round seats ``players``: table sizes (largest first) and the number of byes."""

    sizes: tuple[int, ...]
    byes: int

    @property
    def players(self) -> int:
        return sum(self.sizes) + self.byes


@dataclass(frozen=True)
class Round:
    """One round: tables (player ids in seat order, seat 0 deals first) and the players on a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone in the round: the seated players table by table, then the byes."""
        return tuple(p for table in self.tables for p in table) + self.byes


@dataclass(frozen=True)
class Metrics:
    """Quality figures of a schedule.

    * ``repeated_pairs`` — meetings beyond a pair's first: the sum over pairs of
      ``max(0, meetings - 1)``; with a history, every meeting of a pair that already met counts.
    * ``max_meetings`` — the most times two players share a table (history included), 0 if none.
    * ``byes_per_player``, ``first_dealer``, ``sit_outs`` — (fewest, most) over the players of the
      rounds not seated, the times at seat 0, the times at seat 0 of a table where the dealer sits
      out (see :func:`measure`).
    * ``lower_bound`` — the most rounds that can be played without any repeat for this number of
      players and these table sizes (:func:`repeat_free_rounds`); ``perfect`` — no repeat at all.
    * ``seconds`` — time spent building the schedule (0 when only measured).
    """

    repeated_pairs: int
    max_meetings: int
    byes_per_player: tuple[int, int]
    first_dealer: tuple[int, int]
    sit_outs: tuple[int, int]
    lower_bound: int
    perfect: bool
    seconds: float = 0.0


@dataclass(frozen=True)
class Schedule:
    """Rounds for ``players`` with their metrics; ``method`` names how they were found."""

    rounds: tuple[Round, ...]
    metrics: Metrics
    players: tuple[int, ...]
    method: str = ""


def pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


def as_round(value: Round | Sequence[Sequence[int]]) -> Round:
    """A :class:`Round` as is, or a plain sequence of tables made into one (no byes)."""
    if isinstance(value, Round):
        return value
    return Round(tuple(tuple(table) for table in value))


def pair_counts(rounds: Iterable[Round | Sequence[Sequence[int]]]) -> dict[Pair, int]:
    """How many times each pair of players shared a table: ``{(low id, high id): meetings}``.

    This is the ``history`` the schedulers take to avoid pairs that met at earlier events.
    """
    counts: Counter[Pair] = Counter()
    for value in rounds:
        for table in as_round(value).tables:
            counts.update(pair(a, b) for a, b in combinations(table, 2))
    return dict(counts)


def normalise_history(history: Mapping[Any, int] | None) -> dict[Pair, int]:
    """``history`` with every key made a ``(low, high)`` pair; keys may be tuples or frozensets."""
    result: dict[Pair, int] = {}
    for key, count in (history or {}).items():
        a, b = tuple(key)
        if a != b and count > 0:
            result[pair(a, b)] = result.get(pair(a, b), 0) + count
    return result


def repeat_free_rounds(partition: Partition) -> int:
    """The most rounds that could be played without two players meeting twice.

    With ``N`` players at tables of ``k`` this is ``(N - 1) // (k - 1)``: everyone meets ``k - 1``
    new players a round. In general the largest ``R`` such that the ``R`` rounds' pairs fit in
    ``N (N - 1) / 2`` and the player with the fewest byes, seated at least ``R - R b // N`` times,
    meets at least ``k_min - 1`` new players each time. And a table with more seats than the
    previous round had tables needs players who were on a bye there, one per extra seat: when the
    byes are too few, only one round can be repeat-free (8 players at 2 tables of 4; 20 at 4
    tables of 5; 10 at 2 tables of 4 with 2 byes).
    """
    n, sizes, byes = partition.players, partition.sizes, partition.byes
    if not sizes:
        return 0
    if sum(max(0, s - len(sizes)) for s in sizes) > byes:
        return 1
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    all_pairs = n * (n - 1) // 2
    smallest = min(sizes)
    rounds = 1
    while (rounds + 1) * per_round <= all_pairs and (smallest - 1) * (
        rounds + 1 - (rounds + 1) * byes // n
    ) <= n - 1:
        rounds += 1
    return rounds


def _spread(counts: Mapping[int, int], players: Sequence[int]) -> tuple[int, int]:
    if not players:
        return (0, 0)
    values = [counts.get(p, 0) for p in players]
    return (min(values), max(values))


def measure(
    rounds: Iterable[Round | Sequence[Sequence[int]]],
    players: Iterable[int] | None = None,
    history: Mapping[Any, int] | None = None,
    sitting_out: int = 0,
) -> Metrics:
    """The :class:`Metrics` of any rounds.

    ``players`` are the players the bye and dealer figures are taken over (default: everyone in
    the rounds); a player missing from a round (not yet arrived) counts as on a bye in it.
    ``history`` holds pair meeting counts from earlier events. ``sitting_out`` is the table size
    from which the dealer sits out (``4`` for Terziglio, ``6`` for Briscola chiamata; ``False`` or
    0: never, ``True``: at every table). The lower bound is taken for the first round's table sizes.
    """
    rounds = [as_round(r) for r in rounds]
    if players is None:
        players = sorted({p for r in rounds for p in r.players})
    players = list(players)
    before = normalise_history(history)
    counts = pair_counts(rounds)
    repeated = 0
    most = 0
    for key, met in counts.items():
        earlier = before.get(key, 0)
        repeated += met if earlier else met - 1
        most = max(most, earlier + met)
    byes: Counter[int] = Counter()
    dealers: Counter[int] = Counter()
    sat_out: Counter[int] = Counter()
    for r in rounds:
        seated = {p for table in r.tables for p in table}
        byes.update(p for p in players if p not in seated)
        for table in r.tables:
            dealers[table[0]] += 1
            if sitting_out and len(table) >= sitting_out:
                sat_out[table[0]] += 1
    bound = 0
    if rounds:
        sizes = tuple(sorted((len(t) for t in rounds[0].tables), reverse=True))
        bound = repeat_free_rounds(Partition(sizes, max(0, len(players) - sum(sizes))))
    return Metrics(
        repeated_pairs=repeated,
        max_meetings=most,
        byes_per_player=_spread(byes, players),
        first_dealer=_spread(dealers, players),
        sit_outs=_spread(sat_out, players) if sitting_out else (0, 0),
        lower_bound=bound,
        perfect=repeated == 0,
    )


def _swap_in_round(round_: Round, a: int, b: int) -> Round:
    def place(player: int) -> tuple[int, int]:
        for t, table in enumerate(round_.tables):
            if player in table:
                return t, table.index(player)
        if player in round_.byes:
            return -1, round_.byes.index(player)
        raise ValueError(f"player {player} is not in this round")

    spots = {a: place(a), b: place(b)}
    tables = [list(table) for table in round_.tables]
    byes = list(round_.byes)
    for player, other in ((a, b), (b, a)):
        t, seat = spots[other]
        (byes if t < 0 else tables[t])[seat] = player
    return Round(tuple(tuple(table) for table in tables), tuple(byes))


def swap(
    target: Schedule | Round,
    a: int,
    b: int,
    *,
    round_index: int = -1,
    history: Mapping[Any, int] | None = None,
    sitting_out: int = 0,
) -> Schedule | Round:
    """Swap players ``a`` and ``b`` in one round (seats, tables, or a seat and a bye).

    On a :class:`Round` this returns the edited round. On a :class:`Schedule` it edits round
    ``round_index`` (the last one by default) and returns a schedule with the metrics measured
    again; pass the ``history`` and ``sitting_out`` the schedule was built with.
    """
    if isinstance(target, Round):
        return _swap_in_round(target, a, b)
    rounds = list(target.rounds)
    rounds[round_index] = _swap_in_round(rounds[round_index], a, b)
    metrics = measure(rounds, target.players, history, sitting_out)
    return replace(
        target, rounds=tuple(rounds), metrics=replace(metrics, seconds=target.metrics.seconds)
    )
