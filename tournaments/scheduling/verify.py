"""The last check of a drawn schedule before it is saved: a schedule that fails it is a bug.

:func:`problems` lists what is wrong with a :class:`~.base.Schedule`, :func:`verify_schedule`
raises :class:`ScheduleError` with that list. Checked, for every round after the ``played`` ones
(rounds already played may hold players who dropped out or miss late arrivals):

* everyone of ``schedule.players`` is seated exactly once or on a bye, and nobody else is there;
* every table has one of the allowed ``sizes``;
* the metrics the schedule claims (repeated pairs, most meetings, bye and dealer spreads, lower
  bound, perfect) are those measured again on its rounds, with the same ``history``;
* byes are fair: nobody gets a bye while a seated player has had fewer (byes of earlier events,
  ``byes``, and absences from played rounds count).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Any

from .base import Schedule, measure


class ScheduleError(ValueError):
    """A drawn schedule breaks a rule it must keep (a bug in a scheduler, never a user error)."""


def problems(
    schedule: Schedule,
    *,
    sizes: Collection[int],
    played: int = 0,
    history: Mapping[Any, int] | None = None,
    byes: Mapping[int, int] | None = None,
    sitting_out: int = 0,
) -> list[str]:
    """What is wrong with ``schedule``, one sentence each (empty when it is sound)."""
    found: list[str] = []
    everyone = Counter(schedule.players)
    allowed = set(sizes)
    had = Counter({p: (byes or {}).get(p, 0) for p in schedule.players})
    for number, round_ in enumerate(schedule.rounds, start=1):
        present = Counter(round_.players)
        if number <= played:
            had.update(p for p in schedule.players if p not in present)
            continue
        if present != everyone:
            twice = sorted(p for p, c in present.items() if c > 1)
            missing = sorted(set(everyone) - set(present))
            strangers = sorted(set(present) - set(everyone))
            found.append(
                f"round {number}: seated twice {twice}, missing {missing}, unknown {strangers}"
            )
        odd = sorted({len(t) for t in round_.tables} - allowed)
        if odd:
            found.append(f"round {number}: tables of {odd} seats, allowed {sorted(allowed)}")
        seated = [p for table in round_.tables for p in table]
        if round_.byes and seated:
            most = max(had[p] for p in round_.byes)
            fewest = min(had[p] for p in seated)
            if most > fewest:
                found.append(
                    f"round {number}: a player with {most} byes sits out while one with "
                    f"{fewest} plays"
                )
        had.update(round_.byes)
    measured = measure(schedule.rounds, schedule.players, history, sitting_out)
    claimed = replace(schedule.metrics, seconds=0.0)
    if claimed != measured:
        found.append(f"metrics claimed {claimed}, measured {measured}")
    return found


def verify_schedule(
    schedule: Schedule,
    *,
    sizes: Collection[int],
    played: int = 0,
    history: Mapping[Any, int] | None = None,
    byes: Mapping[int, int] | None = None,
    sitting_out: int = 0,
) -> Schedule:
    """``schedule`` itself if it passes every check of :func:`problems`; else
    :class:`ScheduleError` naming each problem."""
    found = problems(
        schedule, sizes=sizes, played=played, history=history, byes=byes, sitting_out=sitting_out
    )
    if found:
        raise ScheduleError("; ".join(found))
    return schedule
