"""Who can still win, on a 40-entry league with 3 nights left: the time of
``tournaments.standings.outlook.outlook`` (pure: no database).

    .venv/bin/python bench/outlook.py [--entries 40] [--played 9] [--left 3] [--seed 1]

Three leagues of ``--entries`` entries with ``--played`` nights played at random and ``--left``
nights left:

* club nights: nights not drawn, tables of 3 or 4, fair placement points, best 6 nights count;
* a rotation league whose next night is drawn (tables of 4) and the others not, placement
  points;
* games of two (win 1, draw 1/2), every night left drawn (the classic elimination question).

and three circuits of as many persons (``tournaments.standings.circuit_outlook``) with
``--played`` final competitions and ``--left`` left, points by the field rule, best 6:

* every field closed (the competitions left drawn, each with three quarters of the persons);
* the last one still open to entries without limit (no registration);
* a last competition of 5 entries, closed: every completion played out (exact).

Prints, for each, the time (best of ``--runs``), how many entries can still win, have clinched
or cannot, and how many answers are exact. Exits 1 when one takes 2 s or more.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from circuits.standings.circuit_outlook import Upcoming, circuit_outlook
from circuits.standings.circuits import Event, Finish
from tournaments.standings.outlook import Night, outlook, rows_for

LIMIT = 2.0


def _played(rng, entries, rows, sizes, nights):
    """Random past nights: everyone at a random table and place, a tenth absent."""
    played = {e: [] for e in entries}
    for _ in range(nights):
        present = [e for e in entries if rng.random() > 0.1]
        rng.shuffle(present)
        size = sizes[0]
        for at in range(0, len(present) - size + 1, size):
            for place, e in enumerate(present[at : at + size], start=1):
                played[e].append(rows[size][(place, 1)])
    return played


def _drawn(rng, entries, size):
    people = list(entries)
    rng.shuffle(people)
    return tuple(tuple(people[at : at + size]) for at in range(0, len(people) - size + 1, size))


def leagues(entries: int, played: int, left: int, seed: int):
    rng = random.Random(seed)
    everyone = list(range(1, entries + 1))
    fair = rows_for("fair_placement", (3, 4))
    yield (
        "club nights, not drawn, best 6",
        _played(rng, everyone, fair, (4,), played),
        [Night(g, entrants=tuple(everyone), sizes=(3, 4)) for g in range(left)],
        fair,
        6,
    )
    placement = rows_for("placement", (4,))
    nights = [Night(0, tables=_drawn(rng, everyone, 4))]
    nights += [Night(g, entrants=tuple(everyone), sizes=(4,)) for g in range(1, left)]
    yield (
        "rotation, next night drawn",
        _played(rng, everyone, placement, (4,), played),
        nights,
        placement,
        None,
    )
    won = rows_for("matches_won", (2,))
    yield (
        "games of two, all drawn",
        _played(rng, everyone, won, (2,), played),
        [Night(g, tables=_drawn(rng, everyone, 2)) for g in range(left)],
        won,
        None,
    )


def circuits(persons: int, played: int, left: int, seed: int):
    """(name, events, upcoming) of three circuits (see the module docstring)."""
    rng = random.Random(seed)
    everyone = list(range(1, persons + 1))

    def field(key: int, final: bool) -> Event:
        came = rng.sample(everyone, k=max(2, persons * 3 // 4))
        return Event(key, final, tuple(Finish((p,), i) for i, p in enumerate(came, start=1)))

    events = [field(key, True) for key in range(played)]

    def entries() -> tuple[tuple[int, ...], ...]:
        return tuple((p,) for p in rng.sample(everyone, k=max(2, persons * 3 // 4)))

    closed = [Upcoming(played + i, entries()) for i in range(left)]
    open_last = [*closed[:-1], Upcoming(played + left - 1, entries(), room=None)]
    yield "circuit, every field closed", events, closed
    yield "circuit, the last one open to entries", events, open_last
    last = Upcoming(played, tuple((p,) for p in rng.sample(everyone, k=5)))
    yield "circuit, a last competition of 5 (played out)", events, [last]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=40)
    parser.add_argument("--played", type=int, default=9)
    parser.add_argument("--left", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    slowest = 0.0
    for name, played, nights, rows, best_of in leagues(
        args.entries, args.played, args.left, args.seed
    ):
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            got = outlook(played, nights, rows=rows, best_of=best_of)
            times.append(time.perf_counter() - start)
        best = min(times)
        slowest = max(slowest, best)
        statuses = Counter(o.status for o in got.values())
        exact = sum(o.exact for o in got.values())
        ranks = sum(o.ranks_exact for o in got.values())
        print(
            f"{name}: {best:.3f} s; {dict(statuses)}; status exact {exact}/{len(got)}, "
            f"ranks exact {ranks}/{len(got)}"
        )
    for name, events, upcoming in circuits(args.entries, args.played, args.left, args.seed):
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            got = circuit_outlook(events, upcoming, person_of={}, best_of=6)
            times.append(time.perf_counter() - start)
        best = min(times)
        slowest = max(slowest, best)
        statuses = Counter(o.status for o in got.values())
        exact = sum(o.exact for o in got.values())
        ranks = sum(o.ranks_exact for o in got.values())
        print(
            f"{name}: {best:.3f} s; {dict(statuses)}; status exact {exact}/{len(got)}, "
            f"ranks exact {ranks}/{len(got)}"
        )
    print(f"slowest: {slowest:.3f} s (limit {LIMIT} s)")
    return 1 if slowest >= LIMIT else 0


if __name__ == "__main__":
    sys.exit(main())
