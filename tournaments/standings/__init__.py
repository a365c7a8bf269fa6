"""Standings of a league or tournament, recomputed from plain game results.

Nothing here is stored or edited by hand: the standings table of a competition is computed
afresh from the records of its games every time it is shown, so a corrected hand anywhere flows
through to the totals, the tie-breaks and the ranks. The package is pure Python (standard library
only), takes frozen dataclasses in and gives frozen dataclasses out, and is deterministic: the
same records give the same table whatever their order. Its modules: ``records`` (what goes in
and comes out), ``schemes`` (points), ``tie_breaks`` and ``ranking`` (``compute``); every name
below is importable from here.

Vocabulary
----------
entrant
    A competitor of the competition, identified by an ``int``: a player, or a fixed pair in
    Briscola for pairs (then a table has two competitors although four people sit at it).
game
    One game played at one table, identified by an ``int``. Pass *all* the results of every game
    you pass at all: shared places and implied opponents are worked out from them.
group
    The round (tournament) or club night (league) a game belongs to; any hashable value. Groups
    are the unit of attendance (``min_groups``) and of best-N-of-M (``best_of``).
place
    An entrant's 1-based place at its table, 1 being the best. Equal results share a place, in
    competition style: ``1, 2, 2, 4``. A place shared by *k* entrants covers *k* places.
score
    The game's own total for the entrant, in the ruleset's own units. In Turkish the lowest
    total wins (penalty points): such results carry ``lowest_wins=True``.
result
    One entrant's outcome in one game (:class:`Result`).
adjustment
    Points an organizer gives or takes directly (a forfeit, a penalty, a correction), added on
    top of the scheme's points (:class:`Adjustment`). An adjustment is never dropped by
    ``best_of`` and counts neither as a game played nor as attendance.

All points are :class:`fractions.Fraction` so that shared places split points exactly and no
rounding error accumulates; formatting them is the caller's business.

Points schemes (``SCHEMES``)
----------------------------
``placement``
    Points by place, per table size. Defaults: 2 competitors 2/0 (so a draw, both placed 1st,
    gives 1 each); 3 seats 4/2/0; 4 seats 3/2/1/0; 5 seats 4/3/2/1/0; 6 seats 5/4/3/2/1/0. The
    organizer may override the points of any table size (``placement_points={3: (4, 2, 0)}``);
    sizes not overridden keep the defaults. Entrants sharing a place share equally the points of
    the places they cover: two tied 2nd at a table of four get (2 + 1) / 2 = 3/2 each.
``fair_placement``
    Placement points that weigh every table size alike: the share of the other competitors at
    the table one finished ahead of, out of 100. First place is worth 100 and last 0 at every
    size (4 seats: 100, 66 2/3, 33 1/3, 0; 3 seats: 100, 50, 0), so a win at a table of four is
    worth what it is worth at a table of three. Shared places share as under ``placement``;
    ``placement_points`` overrides do not apply.
``game_score``
    The sum of the games' own totals. A ``lowest_wins`` (Turkish) total counts negatively, so
    that in the standings a higher number is always better. Mixing rulesets in one league under
    this scheme adds up unlike units; prefer ``placement`` for mixed leagues.
``matches_won``
    1 point per game won alone (place 1, not shared), 1/2 per shared first place (a draw,
    however many share it), 0 otherwise.

Ranking and tie-breaks (``TIE_BREAKS``)
---------------------------------------
Entrants are ordered by their points (the scheme's points over the counted groups, plus
adjustments), then by the tie-breaks the organizer lists, in the organizer's order; each
tie-break only separates entrants still tied on everything before it. For every tie-break a
higher value is better.

``points``
    The points themselves (named so an order or a display may include them explicitly).
``game_score``
    The sum of the games' own totals, Turkish totals inverted (as for the ``game_score`` scheme).
``wins``
    The number of first places, shared ones included.
``head_to_head``
    Computed within each group of entrants still tied when it is applied, and only there: the
    scheme's points each of them earned in the games where they sat with at least one other
    member of that tied group. An entrant alone in its group at that point shows 0.
``opponents_strength``
    Buchholz style, fair across table sizes: for each game, the mean of the final points of the
    opponents at that table (their sum divided by their number), summed over the games played
    (an opponent met three times counts in three games). A seat at a table of 7 thus weighs as
    much as a seat at a table of 3: one game, one term. At two-sided tables it is the classic
    Buchholz, the sum of the opponents' points. Opponents outside the standings count 0.
``hands_won``, ``card_points``
    Briscola: the sums of hands won and of card points (results without them count 0).
``games_played``
    The number of games played; more games rank higher.

The statistics behind the tie-breaks cover every game played; ``best_of`` only selects the
groups whose points make up the primary points.

Entrants tied on points and on every listed tie-break share a rank, and the following rank is
skipped (competition ranking ``1, 2, 2, 4``). Within a shared rank, rows are listed by entrant
id, for a stable display; the rank stays shared.

League options
--------------
``best_of=N``
    Count only each entrant's best N groups, by the entrant's points in the group; between
    groups with equal points the earlier one (in the groups' natural order, or by ``repr`` when
    groups cannot be compared) counts. ``Row.counted_groups`` lists the groups that counted.
``min_groups=M``
    An entrant must have played in at least M groups to be ranked. The others are listed after
    the ranked ones, in the same order of merit, with ``rank=None`` and ``ranked=False``.
"""

from .ranking import compute
from .records import Adjustment, Result, Row, Standings
from .schemes import DEFAULT_PLACEMENT_POINTS, DEFAULT_SCHEME, FAIR_FIRST, SCHEMES, Scheme, fair_row
from .tie_breaks import DEFAULT_TIE_BREAKS, GAME_UNIT_TIE_BREAKS, TIE_BREAKS, Tally, TieBreak

__all__ = [
    "DEFAULT_PLACEMENT_POINTS",
    "DEFAULT_SCHEME",
    "DEFAULT_TIE_BREAKS",
    "FAIR_FIRST",
    "GAME_UNIT_TIE_BREAKS",
    "SCHEMES",
    "TIE_BREAKS",
    "Adjustment",
    "Result",
    "Row",
    "Scheme",
    "Standings",
    "Tally",
    "TieBreak",
    "compute",
    "fair_row",
]
