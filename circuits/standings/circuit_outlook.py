"""Who can still win a circuit: for a circuit with competitions still to finish, each person's
outlook (``circuit_outlook``), in the words of ``outlook`` (clinched, can still win, cannot
win; best and worst final rank), over every completion of the competitions left. Pure Python,
the standings' own rules (``circuits``: placement points, best-N, minimum attendance).

Definitions (docs/outlook.md, "Circuits")
-----------------------------------------
competition left (:class:`Upcoming`)
    A competition of the circuit not final yet: its ``entries`` (the players of each) play it
    to the end and are all ranked; ``room`` more entries may still join it (0: its field is
    closed, a round drawn; None: no limit known). A known person not entered may join while
    there is room, and so may people the circuit has not met yet (newcomers).
completion
    One way the competitions left can end: every entry's final place, shared places included
    (equal results share the points of the places they cover), with whoever joined.
final points, rank, can still win, clinched, cannot win
    As in ``outlook``: the circuit's standings at the end of a completion; a person's best rank
    counts only the ranked persons with strictly more points, the worst every ranked person
    with at least as many; clinched means alone on top in every completion (newcomers
    included: nobody who could still join can reach the points either).

Method and exactness
--------------------
Bounds first, from each person alone: the least a person can end with (its results so far,
last place in every competition it is entered in) and the most (first place wherever it is
entered or may join, in the largest field the competition allows). Somebody ranked whatever
happens whose least is above a person's most makes that person's "cannot win" exact; a person
ranked whatever happens whose least is above everyone's most (and any newcomer's) has clinched.
Then, when every field is closed and the completions are few enough (``budget``), all of
them are played out: every answer is exact. Otherwise a witness is searched for the persons
still undecided: first place alone in every competition it can play, the others placed so
that those with the most room below its total take the better places; found, "can still win"
is exact. Not found, the answer stays "can still win", flagged not exact (``reason``:
``budget``, or ``open`` when fields are not closed), as are the ranks, which are then the
bounds: never "cannot" for a person who could win, never "clinched" for one who could lose.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from math import ceil, lcm, prod

from circuits.standings.circuits import ZERO, Event, Finish, check_table, event_points, place_points
from tournaments.standings.outlook import (
    BUDGET,
    CAN_WIN,
    CANNOT_WIN,
    CLINCHED,
    Outlook,
    best_n,
    orders,
)

#: Why an answer is a bound: fields not closed yet (people may still join).
OPEN = "open"
#: Completions played out at most, by default.
BUDGET_COMPLETIONS = 2_000


@dataclass(frozen=True, slots=True)
class Upcoming:
    """A competition of the circuit still to finish: the players of each entry, and how many
    entries may still join (0: closed; None: no limit known)."""

    key: int
    entries: tuple[tuple[int, ...], ...]
    room: int | None = 0


@cache
def fubini(n: int) -> int:
    """The number of orders of ``n`` entries, shared places included."""
    if n == 0:
        return 1
    total, binomial = 0, 1
    for k in range(1, n + 1):
        binomial = binomial * (n - k + 1) // k
        total += binomial * fubini(n - k)
    return total


class _Circuit:
    """The question as lookups: each person's results, what each competition left offers.
    Private to ``circuit_outlook``."""

    def __init__(self, events, upcoming, person_of, table, best_of, min_events):
        check_table(table)
        # the standings list only persons with a result: one at least, to be ranked
        self.table, self.best_of, self.min_events = table, best_of, max(min_events, 1)
        self.person_of = dict(person_of)
        self.upcoming = list(upcoming)
        self.results: dict[int, list[Fraction]] = defaultdict(list)
        for event in events:
            if event.final:
                for person, (_r, _n, points) in event_points(event, person_of, table).items():
                    self.results[person].append(points)
        self.listed: list[set[int]] = [
            {self.person(p) for entry in u.entries for p in entry} for u in self.upcoming
        ]
        known = set(self.results) | {p for persons in self.listed for p in persons}
        known |= {self.person(p) for p in person_of}
        self.persons = sorted(known)
        self.player = {}  # a person's player, to enter it where it joins
        for player in sorted(person_of, reverse=True):
            self.player[person_of[player]] = player
        for person in self.persons:
            self.player.setdefault(person, person)
        # Completions compare totals as integers (Fractions compare slowly): every total is a
        # whole number of 1/scale, a shared place dividing by at most the largest field.
        fields = [len(e.finishes) for e in events] + [len(u.entries) for u in self.upcoming]
        self.scale = lcm(*range(1, max(fields, default=1) + 1))
        self.standing = {
            p: (self.scaled(self.total(p, ())), len(self.results[p]) >= self.min_events)
            for p in self.persons
        }
        self.crowd = self._crowd()

    def scaled(self, value: Fraction) -> int:
        value *= self.scale
        assert value.denominator == 1, value
        return value.numerator

    def person(self, player: int) -> int:
        return self.person_of.get(player, player)

    def can_play(self, person: int, index: int) -> bool:
        return person in self.listed[index] or self.upcoming[index].room != 0

    def largest(self, index: int) -> int | None:
        """The largest field competition ``index`` may have (None: no limit)."""
        u = self.upcoming[index]
        return None if u.room is None else len(u.entries) + u.room

    def top(self, index: int) -> Fraction | None:
        """First place's points in competition ``index`` at its largest (None: no limit)."""
        n = self.largest(index)
        if self.table is not None:
            return Fraction(self.table[0])
        return None if n is None else Fraction(n)

    def bottom(self, index: int) -> Fraction:
        """The least an entered person earns there: last place alone at its largest field."""
        n = self.largest(index)
        if n is None:  # any number may finish below
            return Fraction(1) if self.table is None else ZERO
        return place_points(n, n, self.table)

    def total(self, person: int, new: Iterable[Fraction]) -> Fraction:
        return best_n([*self.results[person], *new], self.best_of)

    def low(self, person: int) -> Fraction:
        return self.total(
            person, [self.bottom(i) for i, on in enumerate(self.listed) if person in on]
        )

    def high(self, person: int) -> Fraction | None:
        tops = [self.top(i) for i in range(len(self.upcoming)) if self.can_play(person, i)]
        if any(t is None for t in tops):
            return None
        return self.total(person, tops)

    def surely_ranked(self, person: int) -> bool:
        entered = sum(person in on for on in self.listed)
        return len(self.results[person]) + entered >= self.min_events

    def maybe_ranked(self, person: int) -> bool:
        playable = sum(self.can_play(person, i) for i in range(len(self.upcoming)))
        return len(self.results[person]) + playable >= self.min_events

    def newcomers(self) -> int | None:
        """How many newcomers may still join, all competitions together (None: no limit)."""
        rooms = [u.room for u in self.upcoming]
        return None if None in rooms else sum(rooms)

    def newcomer_high(self) -> Fraction | None:
        """The most a newcomer can end with (None: no limit), or -1 when none can be ranked."""
        rooms = [i for i, u in enumerate(self.upcoming) if u.room != 0]
        if len(rooms) < self.min_events:
            return Fraction(-1)
        tops = [self.top(i) for i in rooms]
        if any(t is None for t in tops):
            return None
        return best_n(tops, self.best_of)

    # -- completions ------------------------------------------------------------------------

    def finals(self, finishes: Sequence[Sequence[tuple[tuple[int, ...], int]]]):
        """Every person's (final points, ranked) after the competitions left end with
        ``finishes`` (per competition: each entry's players and rank)."""
        new: dict[int, list[Fraction]] = defaultdict(list)
        for index, got in enumerate(finishes):
            event = Event(
                key=index,
                final=True,
                finishes=tuple(Finish(players=players, rank=rank) for players, rank in got),
            )
            for person, (_r, _n, points) in event_points(event, self.person_of, self.table).items():
                new[person].append(points)
        finals = dict(self.standing)  # those without a new result keep what they hold
        for p, got in new.items():
            finals[p] = (
                self.scaled(self.total(p, got)),
                len(self.results[p]) + len(got) >= self.min_events,
            )
        return finals

    def closed(self) -> bool:
        return all(u.room == 0 for u in self.upcoming)

    def completions(self) -> int:
        return prod(fubini(len(u.entries)) for u in self.upcoming)

    def every_completion(self):
        """Each completion's finishes (only for closed fields)."""
        options = [
            [
                [(entry, rank) for entry, (rank, _shared) in zip(u.entries, order, strict=True)]
                for order in orders(len(u.entries))
            ]
            for u in self.upcoming
        ]
        return product(*options)

    def win_witness(self, x: int) -> bool:
        """A completion with ``x`` ranked and nobody ranked above it: ``x`` first alone wherever
        it can play, the others placed by their room below ``x``'s total."""
        # a crowd of newcomers changes the points only under the field rule, in an open field
        crowds = (False, True) if self.table is None and not self.closed() else (False,)
        return any(
            self._try_win(x, reverse, crowd) for reverse in (False, True) for crowd in crowds
        )

    def _try_win(self, x: int, reverse: bool, crowd: bool) -> bool:
        fields = []
        for u in self.upcoming:
            entries = list(u.entries)
            mine = [e for e in entries if any(self.person(p) == x for p in e)][:1]
            joined = not mine and u.room != 0
            if joined:
                mine = [(self.player[x],)]
            others = [e for e in entries if e not in mine]
            extra = 0
            if crowd and u.room != 0 and self.table is None:
                # newcomers at the bottom: a bigger field widens the winner's lead
                extra = self.crowd if u.room is None else u.room - joined
            fields.append((mine, others, extra))
        # x's total, and what the others hold before the competitions left
        running = {p: list(self.results[p]) for p in self.persons}
        finishes: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in fields]
        x_new = []
        for mine, others, extra in fields:
            if mine:
                x_new.append(place_points(1, len(mine) + len(others) + extra, self.table))
        target = self.total(x, x_new)
        order = range(len(fields) - 1, -1, -1) if reverse else range(len(fields))
        newcomer = -1
        for index in order:
            mine, others, extra = fields[index]
            n = len(mine) + len(others) + extra
            got = [(entry, 1) for entry in mine]
            # newcomers right below x: they hold nothing else, the others fall below them
            for place in range(1 + len(mine), 1 + len(mine) + extra):
                got.append(((newcomer,), place))
                newcomer -= 1
            start = 1 + len(mine) + extra

            def room(entry):
                return min(
                    target - best_n(running.get(self.person(p), []), self.best_of) for p in entry
                )

            for place, entry in enumerate(sorted(others, key=room, reverse=True), start=start):
                got.append((entry, place))
                for p in entry:
                    running.setdefault(self.person(p), []).append(
                        place_points(place, n, self.table)
                    )
            finishes[index] = got
        finals = self.finals(finishes)
        points, ranked = finals[x]
        return ranked and all(not r or v <= points for p, (v, r) in finals.items())

    def _crowd(self) -> int:
        """A field large enough that its winner's points outweigh every other total: the others
        in it, and in any other such field, finish below the newcomers."""
        most = max((self.total(p, ()) for p in self.persons), default=ZERO)
        entries = sum(len(u.entries) for u in self.upcoming)
        return ceil(most) + entries + 2


def circuit_outlook(
    events: Sequence[Event],
    upcoming: Sequence[Upcoming],
    *,
    person_of: Mapping[int, int],
    table: Sequence[int] | None = None,
    best_of: int | None = None,
    min_events: int = 0,
    budget: int = BUDGET_COMPLETIONS,
) -> dict[int, Outlook]:
    """The outlook of every person known to the circuit (in its final ``events``, entered in a
    competition left, or in ``person_of``) over the competitions left (``upcoming``), with the
    standings' ``table``, ``best_of`` and ``min_events``. ``budget``: the completions that may
    be played out (all of them, or none and bounds instead). Empty when nothing is left to play."""
    if not upcoming:
        return {}
    circuit = _Circuit(events, upcoming, person_of, table, best_of, min_events)
    if circuit.closed() and circuit.completions() <= budget:
        return _exhaustive(circuit)
    return _bounded(circuit)


def _exhaustive(circuit: _Circuit) -> dict[int, Outlook]:
    """Every completion played out: every answer exact."""
    best: dict[int, int] = {}
    worst: dict[int, int] = {}
    always = set(circuit.persons)  # ranked in every completion
    alone = set(circuit.persons)  # alone on top in every completion
    for finishes in circuit.every_completion():
        finals = circuit.finals(finishes)
        values = sorted(v for v, r in finals.values() if r)
        for person in circuit.persons:
            points, is_ranked = finals[person]
            if not is_ranked:
                always.discard(person)
                alone.discard(person)
                continue
            above = len(values) - bisect_right(values, points)
            level = len(values) - bisect_left(values, points) - 1  # not counting itself
            best[person] = min(best.get(person, above + 1), above + 1)
            worst[person] = max(worst.get(person, level + 1), level + 1)
            if level:
                alone.discard(person)
    result = {}
    for person in circuit.persons:
        if person not in best:
            result[person] = Outlook(person, CANNOT_WIN, None, None, exact=True, ranks_exact=True)
            continue
        if person in alone and person in always:
            status = CLINCHED
        elif best[person] == 1:
            status = CAN_WIN
        else:
            status = CANNOT_WIN
        result[person] = Outlook(
            person, status, best[person], worst[person], exact=True, ranks_exact=True
        )
    return result


def _bounded(circuit: _Circuit) -> dict[int, Outlook]:
    """Bounds from each person alone, then a witness for those undecided."""
    reason = BUDGET if circuit.closed() else OPEN
    low = {p: circuit.low(p) for p in circuit.persons}
    high = {p: circuit.high(p) for p in circuit.persons}
    sure = {p for p in circuit.persons if circuit.surely_ranked(p)}
    possible = {p for p in circuit.persons if circuit.maybe_ranked(p)}
    newcomer = circuit.newcomer_high()
    result = {}
    for x in circuit.persons:
        if x not in possible:
            result[x] = Outlook(x, CANNOT_WIN, None, None, exact=True, ranks_exact=True)
            continue
        above = [y for y in sure - {x} if high[x] is not None and low[y] > high[x]]
        level = [y for y in possible - {x} if high[y] is None or high[y] >= low[x]]
        newcomer_reaches = newcomer is None or newcomer >= low[x]
        best, worst = 1 + len(above), 1 + len(level)
        if newcomer_reaches:  # newcomers too may end level or above (None: no limit)
            more = circuit.newcomers()
            worst = None if more is None else worst + more
        if above:
            status, exact = CANNOT_WIN, True
        elif not level and not newcomer_reaches and x in sure:
            status, exact = CLINCHED, True
        else:
            status, exact = CAN_WIN, circuit.win_witness(x)
        ranks_exact = status == CLINCHED
        result[x] = Outlook(
            x,
            status,
            best,
            worst,
            exact=exact,
            ranks_exact=ranks_exact,
            reason="" if exact and ranks_exact else reason,
        )
    return result
