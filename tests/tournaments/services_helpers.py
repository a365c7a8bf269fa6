"""Helpers shared by the competition service tests (test_services_*.py and others): placement
points worked out from a game's totals, a round published and played, a standings row."""

from __future__ import annotations

from fractions import Fraction

from scoring.services import Actor
from tournaments import services
from tournaments.models import Round

from .helpers import play

#: Placement points by table size, as the competitions use them by default.
PLACEMENT = {2: (2, 0), 3: (4, 2, 0), 4: (3, 2, 1, 0), 5: (4, 3, 2, 1, 0)}


def placement_points(totals: list[int], sizes=PLACEMENT) -> list[Fraction]:
    """Points of each seat from a game's final totals (highest wins): places in competition
    style (1, 2, 2, 4), shared places share the points of the places they cover."""
    row = sizes[len(totals)]
    result = []
    for total in totals:
        place = 1 + sum(1 for other in totals if other > total)
        shared = totals.count(total)
        result.append(Fraction(sum(row[place - 1 : place - 1 + shared]), shared))
    return result


def publish_and_finish(round_: Round, user, hands_for_table) -> Round:
    """Publish ``round_`` and play each table's game with ``hands_for_table(table, n_seats)``."""
    services.publish_round(round_=round_, by=Actor.for_user(user))
    for table in round_.tables.select_related("game").order_by("number"):
        play(table.game, hands_for_table(table, table.game.n), user)
    return Round.objects.get(pk=round_.pk)


def row_of(data: dict, entry: int, key: str = "overall") -> dict:
    table = next(t for t in data["tables"] if t["key"] == key)
    return next(r for r in table["rows"] if r["entry"] == entry)
