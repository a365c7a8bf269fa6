"""The core of ``manage.py schedule``: a schedule for players 0 … N-1 as plain data, and as text.

:func:`build` returns ``{"rounds": [[[seat-ordered players of a table], …], …], "byes": [[…], …],
"metrics": {"repeated_pairs": …, "max_meetings": …, …}}``; :func:`render` prints it for people.
"""

from __future__ import annotations

from typing import Any

from .base import Round, Schedule, measure, pair_counts
from .rotation import rotation
from .round_robin import round_robin
from .swiss import swiss_round

FORMATS = ("rotation", "swiss", "round_robin")


def _check(players: int, table_size: int, rounds: int, fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if table_size < 2:
        raise ValueError(f"a table needs at least 2 seats, not {table_size}")
    if players < table_size:
        raise ValueError(f"{players} players cannot fill a table of {table_size}")
    if rounds < 1:
        raise ValueError(f"there must be at least one round, not {rounds}")
    if fmt == "round_robin" and table_size != 2:
        raise ValueError("a round robin is played at tables of 2: use --table-size 2")


def _swiss(players: int, table_size: int, rounds: int, seed: int) -> list[Round]:
    """Successive Swiss rounds with everyone on equal points: they only avoid repeats."""
    played: list[Round] = []
    byes: dict[int, int] = {}
    for number in range(rounds):
        next_round = swiss_round(
            [(p, 0) for p in range(players)],
            sizes={table_size},
            ideal=table_size,
            history=pair_counts(played),
            seed=seed + number,
            byes=byes,
        )
        for p in next_round.byes:
            byes[p] = byes.get(p, 0) + 1
        played.append(next_round)
    return played


def build(
    players: int, table_size: int, rounds: int, fmt: str = "rotation", seed: int = 0
) -> dict[str, Any]:
    """A schedule of ``rounds`` rounds for players ``0 … players-1`` at tables of
    ``table_size``, by ``fmt`` (rotation, swiss or round_robin), as JSON-ready data."""
    _check(players, table_size, rounds, fmt)
    everyone = range(players)
    if fmt == "rotation":
        schedule = rotation(
            everyone, sizes={table_size}, ideal=table_size, rounds=rounds, seed=seed
        )
    elif fmt == "round_robin":
        full = round_robin(everyone, double=True)
        picked = [full.rounds[r % len(full.rounds)] for r in range(rounds)]
        schedule = Schedule(tuple(picked), measure(picked, everyone), tuple(everyone), full.method)
    else:
        picked = _swiss(players, table_size, rounds, seed)
        schedule = Schedule(tuple(picked), measure(picked, everyone), tuple(everyone), "swiss")
    m = schedule.metrics
    return {
        "rounds": [[list(table) for table in r.tables] for r in schedule.rounds],
        "byes": [list(r.byes) for r in schedule.rounds],
        "metrics": {
            "repeated_pairs": m.repeated_pairs,
            "max_meetings": m.max_meetings,
            "lower_bound": m.lower_bound,
            "perfect": m.perfect,
            "byes_per_player": list(m.byes_per_player),
            "first_dealer": list(m.first_dealer),
            "seconds": round(m.seconds, 4),
            "method": schedule.method,
        },
    }


def render(data: dict[str, Any]) -> str:
    """The schedule as text: a line per round, then the quality figures."""
    lines = []
    width = len(str(len(data["rounds"])))
    for number, (tables, byes) in enumerate(zip(data["rounds"], data["byes"], strict=True), 1):
        line = f"Round {number:>{width}}: " + " ".join(
            "[" + " ".join(map(str, table)) + "]" for table in tables
        )
        if byes:
            line += "  byes: " + " ".join(map(str, byes))
        lines.append(line)
    m = data["metrics"]
    rounds = len(data["rounds"])
    lines += [
        "",
        f"Repeated pairs: {m['repeated_pairs']}  (most meetings of one pair: {m['max_meetings']})",
        "Byes per player: {}-{}  First dealer per player: {}-{}".format(
            *m["byes_per_player"], *m["first_dealer"]
        ),
        f"Rounds possible without any repeat (lower bound): {m['lower_bound']}",
    ]
    if m["perfect"]:
        lines.append(f"All {rounds} rounds are repeat-free.")
    elif rounds > m["lower_bound"]:
        lines.append(f"{rounds} rounds asked: some repeats cannot be avoided.")
    else:
        lines.append("A repeat-free schedule may exist, but none was found.")
    lines.append(f"Found by: {m['method']} in {m['seconds']:.3f} s")
    return "\n".join(lines)
