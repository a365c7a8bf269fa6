"""Seating players at card tables: rotations, round robins, Swiss rounds, knockouts, club nights.

Pure Python (standard library only, no Django, no I/O), deterministic for a given seed.

Vocabulary
==========

* **player** — any int id (not necessarily 0 … N-1). **table** — a tuple of players in *seat
  order*: seat 0 deals first, then seat 1, … . A **round** (:class:`Round`) is tables plus the
  players on a **bye** (sitting out the whole round). A **schedule** (:class:`Schedule`) is rounds
  plus their :class:`Metrics`.
* **partition** — how a round splits the players: table sizes inside the competition's range
  (within the game's: Terziglio 3 or 4, Turkish 3 to 8 around 4, Briscola chiamata 5 or 6,
  Briscola 2 or 4), nearest the *ideal* (preferred) size: the smallest largest deviation, then
  the fewest tables off it; byes only when no mix of sizes seats everyone (:func:`table_sizes`,
  whose docstring defines "nearest"; ``NoTableFits`` when not one table fills).
* **meeting** — two players at the same table in a round; a **repeat** is a meeting of a pair
  that met before (in the schedule, in rounds already **played**, or in the **history** of earlier
  events, given as pair meeting counts, see :func:`pair_counts`).
* **lower bound** — the most rounds that can be repeat-free: ``(N - 1) // (k - 1)`` at tables of
  ``k``, and a single round when a round has fewer tables than a table has seats
  (:func:`repeat_free_rounds`).
* **sitting out** — in some games the dealer sits out at the larger tables (Terziglio at 4):
  ``sitting_out`` is the table size from which that happens, and seat 0 is then balanced for it.

Algorithms
==========

* :func:`rotation` plans all rounds up front. Perfect and tight cases come from constructions
  (:mod:`.designs`, :mod:`.cyclic`): the circle method for pairs, affine spaces AG(d, q) over the
  finite fields GF(q) (:mod:`.fields`), resolvable transversal designs from mutually orthogonal
  Latin squares, Kirkman triple systems on 2q + 1 points (Kirkman's 15 schoolgirls, 27, 39, …),
  products of designs, a stored GF(2)^5 design seating 32 players at tables of 4 for 10 rounds
  without a repeat (the social golfer problem), and cyclic base rounds found by search (resolvable
  group divisible designs such as 24 players at tables of 4 for 7 rounds, mixed sizes, byes).
  Missing players become holes in a larger design. Irregular cases (mixed sizes, byes, drops, late arrivals, played rounds,
  history) go to a tabu search after Dotú and Van Hentenryck (:mod:`.tabu`), started from the best
  construction or a greedy plan; the better result is kept. Byes rotate (nobody gets a second bye
  before everyone had one), and seat 0 is handed round so that everyone deals first about as often.
* :func:`round_robin` — Berger tables (circle method), every pair once (twice with ``double``).
* :func:`swiss_round` — players of similar standing together, avoiding repeats; byes to the
  lowest-ranked of those with the fewest byes. :func:`first_round` draws a first round with no
  standings: top half against bottom half by rating, at random where there is none.
* :func:`knockout` — a seeded bracket (1 v 16, 8 v 9, …), byes to the top seeds.
* :func:`club_night` — one night's tables, by rotation or by standing.
* :func:`measure` computes the metrics of any rounds; :func:`swap` edits a draft round;
  :func:`verify_schedule` checks a schedule before it is saved (:mod:`.verify`).
"""

from .base import (
    Metrics,
    Partition,
    Round,
    Schedule,
    measure,
    pair_counts,
    repeat_free_rounds,
    swap,
)
from .club_night import club_night
from .knockout import Bracket, Match, Slot, knockout
from .rotation import rotation
from .round_robin import round_robin
from .sizes import NoTableFits, nearness, table_sizes
from .swiss import first_round, swiss_round
from .verify import ScheduleError, verify_schedule

__all__ = [
    "Bracket",
    "Match",
    "Metrics",
    "NoTableFits",
    "Partition",
    "Round",
    "Schedule",
    "ScheduleError",
    "Slot",
    "club_night",
    "first_round",
    "knockout",
    "measure",
    "nearness",
    "pair_counts",
    "repeat_free_rounds",
    "rotation",
    "round_robin",
    "swap",
    "swiss_round",
    "table_sizes",
    "verify_schedule",
]
