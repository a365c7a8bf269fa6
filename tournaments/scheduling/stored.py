"""Designs found once by a search and kept as data: ``data/designs.json``.

Each entry says how it was found (``found``) and is either

* a **cyclic base round** (``structure``: ``m``, ``r``, ``f``, ``groups`` of :mod:`.cyclic`, and
  ``base``, its tables over the points ``0 … f-1`` fixed, then ``f + a·m + x``): turned ``m``
  times it gives ``m`` rounds (nearly Kirkman triple systems NKTS(v), ``v = 2m + 2``: two fixed
  points and two rows of Z_m; found by the depth-first search of :mod:`.cyclic` run with a large
  budget), or
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
    return [tables for tables, _ in develop(s, entry["base"], 0, s.m)]


def stored(v: int, k: int) -> Iterator[tuple[str, Design]]:
    """The stored designs on ``v`` points at tables of ``k``, named by how they were found."""
    for entry in entries():
        if entry["v"] == v and entry["k"] == k:
            yield entry["name"], design_of(entry)
