"""Designs found once by a search and kept as data: ``data/designs.json``.

Each entry says how it was found (``found``) and is either

* a **cyclic base round** (``structure``: ``m``, ``r``, ``f``, ``groups`` of :mod:`.cyclic`, and
  ``base``, its tables over the points ``0 … f-1`` fixed, then ``f + a·m + x``): turned ``m``
  times it gives ``m`` rounds (nearly Kirkman triple systems NKTS(v), ``v = 2m + 2``: two fixed
  points and two rows of Z_m; found by the depth-first search of :mod:`.cyclic` run with a large
  budget); with ``short`` pairs ``(a, b)`` (three rows, no fixed point) each adds the round
  ``{(x, 0), (x + a, 1), (x + b, 2)}`` for every ``x`` of Z_m: the structure of the Kirkman triple
  systems of D. K. Ray-Chaudhuri and R. M. Wilson (1971; :func:`.resolvable.kirkman_3q`), here
  over Z_23, where their field construction does not apply, for KTS(69): the base round and the
  11 short rounds were found together by a SAT model in which every orbit of pairs is used
  exactly once; or
* **1-rotational base blocks** (``group``: see :func:`.rotational.group`, ``stabilizer``: the
  generators of ``H``, ``blocks``): developed by :func:`.rotational.develop` into a resolvable
  design with every pair once (found by :func:`.rotational.search`), or
* whole **rounds** (``rounds``), as the SAT search of :mod:`.sat` returned them.

:func:`stored` yields the designs for ``v`` points at tables of ``k``; a test checks every entry.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from .cyclic import Structure, develop
from .rotational import develop as develop_rotational

Tables = list[list[int]]
Design = list[Tables]
DATA = Path(__file__).resolve().parent / "data" / "designs.json"


@cache
def entries() -> tuple[dict[str, Any], ...]:
    """Every stored entry, as read from the data file."""
    return tuple(json.loads(DATA.read_text())["designs"])


def design_of(entry: dict[str, Any]) -> Design:
    """The rounds of one stored entry."""
    if "rounds" in entry:
        return [[list(t) for t in tables] for tables in entry["rounds"]]
    if "blocks" in entry:
        return develop_rotational(entry["group"], entry["stabilizer"], entry["blocks"])
    s = Structure(**entry["structure"])
    rounds = [tables for tables, _ in develop(s, entry["base"], 0, s.m)]
    for a, b in entry.get("short", []):
        rounds.append([[x, s.m + (x + a) % s.m, 2 * s.m + (x + b) % s.m] for x in range(s.m)])
    return rounds


def stored(v: int, k: int) -> Iterator[tuple[str, Design]]:
    """The stored designs on ``v`` points at tables of ``k``, named by how they were found."""
    for entry in entries():
        if entry["v"] == v and entry["k"] == k:
            yield entry["name"], design_of(entry)
