"""A league night: tables for the players who checked in, drawn by rotation or by standing."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .base import Round
from .rotation import check_players, rotation
from .swiss import swiss_round

METHODS = ("rotation", "standing")


def club_night(
    present: Iterable[int],
    *,
    sizes: Iterable[int],
    ideal: int,
    method: str = "rotation",
    history: Mapping[Any, int] | None = None,
    standings: Sequence[int | Sequence[int]] | None = None,
    seed: int = 0,
    byes: Mapping[int, int] | None = None,
    sitting_out: int = 0,
) -> Round:
    """Tonight's tables for the ``present`` players.

    * ``"rotation"``: mix the players, avoiding pairs that met (``history``, pair meeting counts of
      earlier nights); byes to those who had the fewest (``byes``), then by lot.
    * ``"standing"``: strong with strong, following ``standings`` (ids or ``(id, points)``, best
      first; players present but not in the standings come last), still avoiding repeats.
    """
    present = check_players(present)
    sizes = tuple(sizes)
    if method == "rotation":
        schedule = rotation(
            present,
            sizes=sizes,
            ideal=ideal,
            rounds=1,
            seed=seed,
            history=history,
            byes=byes,
            sitting_out=sitting_out,
        )
        return schedule.rounds[0]
    if method != "standing":
        raise ValueError(f"unknown method {method!r}: use one of {', '.join(METHODS)}")
    here = set(present)
    entries = list(standings or ())
    if entries and not isinstance(entries[0], int):
        listed = [(p, pts) for p, pts in entries if p in here]
        last = min((pts for _, pts in listed), default=1) - 1
        known = {p for p, _ in listed}
        ordered: list[Any] = listed + [(p, last) for p in present if p not in known]
    else:
        ordered = [p for p in entries if p in here]
        ordered += [p for p in present if p not in set(ordered)]
    return swiss_round(ordered, sizes=sizes, ideal=ideal, history=history, seed=seed, byes=byes)
