"""Who wins which prize: the prize list of a competition applied to its final standings.

Pure code: plain values in (``Placed`` rows in standings order, ``PrizeSpec`` rows), frozen
``Award`` rows out. Money is integer cents; nothing is rounded but the one division of a split.

Vocabulary
----------
position
    An entry's place in a list, 1 being the best: in the overall list, the standings' order; in a
    category's list, the order of the entries having that attribute (so "best woman" is
    position 1 of the women's list, whatever her overall rank).
tied
    Entries next to each other that the club's rule cannot separate. Under ``split`` they are the
    entries equal on ``level``; under ``tie_break`` the entries whose standings ``rank`` is
    equal, i.e. still tied after every tie-break.
level
    What an equal split compares (``placed_from``): the points in a table ranked by points; the
    rank when the competition's final ranking is a bracket's (a knockout, or the knockout after
    a Swiss cut), whose places owe nothing to the points: the final's loser is 2nd even when a
    semi-final loser has as many points.

The rules
---------
* Each position's prize goes to the entry at that position.
* Tied entries occupying positions p..q pool the money prizes of those positions and share
  them equally, in cents: the odd cents left by the division go one each to the tied entries in
  standings order (the better tie-break first). An object prize among those positions goes to
  the entry at its position in standings order, and that entry takes no share of the pooled
  money; the others share it.
* ``both`` False (the default): an entry holding several prizes keeps the better one: the more
  money (its share of a split); equal money (two objects, say), the overall prize, then the
  category listed first. It leaves the other lists, whose prizes pass down to the next entries.
  Conflicts are settled from the best-ranked entry down, each time on the lists as they are
  then, so an entry decides knowing every prize above it.
* ``both`` True: each list is awarded on its own.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby

OVERALL = "overall"
SPLIT = "split"
TIE_BREAK = "tie_break"


@dataclass(frozen=True, slots=True)
class Placed:
    """An entry of the standings, in standings order: its rank, what an equal split compares
    (``level``: its points), and the categories it belongs to (``overall`` is implied)."""

    entry: int
    rank: int
    level: Hashable
    categories: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class PrizeSpec:
    """The prize for ``rank`` of ``category``: money (``amount_cents``) or an ``object``."""

    category: str
    rank: int
    amount_cents: int | None = None
    object: str = ""


@dataclass(frozen=True, slots=True)
class Award:
    """A prize won: ``category``, the positions it covers (``first``..``last``: several when tied
    entries shared pooled money), the entry, its money in cents (its share) or its object."""

    category: str
    first: int
    last: int
    entry: int
    amount_cents: int
    object: str = ""

    @property
    def shared(self) -> bool:
        return self.last > self.first


def placed_from(
    rows: Iterable[Mapping], *, by_rank: bool, categories: Mapping[int, frozenset[str]]
) -> list[Placed]:
    """The ranked rows of a standings table (``entry``, ``rank``, ``points``, ``ranked``, in the
    order the table shows them) as the allocation reads them: unranked entries left out, the
    ``level`` of a split their rank when ``by_rank`` (a bracket ranks the table), else their
    points."""
    return [
        Placed(
            entry=row["entry"],
            rank=row["rank"],
            level=row["rank"] if by_rank else row["points"],
            categories=categories.get(row["entry"], frozenset()),
        )
        for row in rows
        if row["ranked"] and row["rank"] is not None
    ]


def allocate(
    placed: Sequence[Placed], prizes: Iterable[PrizeSpec], *, ties: str, both: bool
) -> tuple[Award, ...]:
    """The awards of ``prizes`` over ``placed`` (standings order), overall first, then each
    category in the order its first prize is listed; within a list by position."""
    if ties not in (SPLIT, TIE_BREAK):
        raise ValueError(f"unknown rule for ties: {ties!r}")
    slots: dict[str, dict[int, PrizeSpec]] = {OVERALL: {}}
    for prize in prizes:
        slots.setdefault(prize.category, {})[prize.rank] = prize
    order = list(slots)
    removed: dict[str, set[int]] = {category: set() for category in order}
    while True:
        lists = {
            category: _awards_of(
                [
                    p
                    for p in placed
                    if (category == OVERALL or category in p.categories)
                    and p.entry not in removed[category]
                ],
                slots[category],
                category,
                ties,
            )
            for category in order
        }
        if both:
            break
        conflict = _first_conflict(placed, lists, order)
        if conflict is None:
            break
        entry, held = conflict
        keep = max(held, key=lambda a: (a.amount_cents, -order.index(a.category)))
        for award in held:
            if award is not keep:
                removed[award.category].add(entry)
    return tuple(award for category in order for award in lists[category])


def _first_conflict(
    placed: Sequence[Placed], lists: dict[str, list[Award]], order: list[str]
) -> tuple[int, list[Award]] | None:
    """The best-ranked entry holding more than one award, with its awards (None: no one)."""
    held: dict[int, list[Award]] = {}
    for category in order:
        for award in lists[category]:
            held.setdefault(award.entry, []).append(award)
    for p in placed:
        if len(held.get(p.entry, ())) > 1:
            return p.entry, held[p.entry]
    return None


def _awards_of(
    ranking: list[Placed], slots: dict[int, PrizeSpec], category: str, ties: str
) -> list[Award]:
    """One list's awards: ``slots`` by position over ``ranking``, tied entries sharing."""
    awards: list[Award] = []
    position = 1
    key = (lambda p: p.level) if ties == SPLIT else (lambda p: p.rank)
    for _key, members in groupby(ranking, key=key):
        group = list(members)
        first, last = position, position + len(group) - 1
        position = last + 1
        pool = 0
        sharing: list[Placed] = []
        for offset, p in enumerate(group):
            prize = slots.get(first + offset)
            if prize is not None and prize.amount_cents is None:
                awards.append(
                    Award(category, first + offset, first + offset, p.entry, 0, prize.object)
                )
            else:
                sharing.append(p)
            if prize is not None and prize.amount_cents is not None:
                pool += prize.amount_cents
        if pool == 0:
            continue
        if len(sharing) == 1:
            awards.append(Award(category, first, last, sharing[0].entry, pool))
            continue
        share, odd = divmod(pool, len(sharing))
        for index, p in enumerate(sharing):
            awards.append(Award(category, first, last, p.entry, share + (1 if index < odd else 0)))
    awards.sort(key=lambda a: a.first)
    return awards
