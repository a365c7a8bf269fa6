"""Resolvable designs from the literature: every pair of players meets exactly once.

Each function returns a design as :mod:`.designs` does: rounds over the points ``0 … v-1``, a
round a list of tables (lists of points), all tables of one size. Sources:

* :func:`kirkman_3q` — a Kirkman triple system KTS(3q) for the prime powers ``q = 1 (mod 6)``:
  21, 39, 57, 75, 93 players at tables of 3. D. K. Ray-Chaudhuri and R. M. Wilson, "Solution of
  Kirkman's schoolgirl problem", Proc. Symp. Pure Math. 19 (1971), Theorem 5; D. R. Stinson, "A
  survey of Kirkman triple systems and related designs", Discrete Math. 92 (1991), Construction 1.2.
* :func:`rbibd_3q_plus_1` — a resolvable (3q + 1, 4, 1) design for the prime powers ``q = 1
  (mod 4)``: 16, 28, 40, 52, 76, 88 players at tables of 4. T. Beth, D. Jungnickel, H. Lenz,
  *Design Theory* (2nd ed., 1999), Vol. 1, Example VII.7.5(a) (a 1-rotational construction over
  GF(q)); also Handbook of Combinatorial Designs (2nd ed., 2007), §II.7.
* :func:`kirkman_doubling` — a KTS(2u + 1) from a pairwise balanced design on ``u`` points with
  blocks of 4 and 7: every point ``x`` is doubled (``x``, ``x'``), a point ``∞`` added, and on
  each block a KTS(9) or KTS(15) is pasted whose i-th round holds ``{b_i, b_i', ∞}``; round ``x``
  gathers the rest of those rounds. Beth, Jungnickel, Lenz, *Design Theory*, Lemma IX.6.4. With
  the lines of the affine plane AG(2, 4) (u = 16) it gives KTS(33), which no other construction
  here reaches.
"""

from __future__ import annotations

from .fields import field

Tables = list[list[int]]
Design = list[Tables]


def kirkman_3q(q: int) -> Design:
    """KTS(3q), ``q = 6t + 1`` a prime power: ``(3q - 1) / 2`` rounds over GF(q) x {0, 1, 2}.

    Point ``(x, j)`` is ``j*q + x``; ``w`` is a primitive element. The base round holds
    ``{(0,0), (0,1), (0,2)}``, the triples ``w^i·{1, w^2t, w^4t}`` in each copy (``i < t``) and the
    transversal triples ``A_i = {(w^i, 0), (w^(i+2t), 1), (w^(i+4t), 2)}`` for ``i`` in ``[t, 2t)
    ∪ [3t, 4t) ∪ [5t, 6t)``; it is translated by every element of GF(q) (``q`` rounds). Each of
    the other ``A_i`` is translated to a round of its own (``(q - 1) / 2`` rounds).
    """
    gf = field(q)
    t = (q - 1) // 6
    w = gf.powers

    def a_(i: int) -> list[tuple[int, int]]:
        return [(w[i % (q - 1)], 0), (w[(i + 2 * t) % (q - 1)], 1), (w[(i + 4 * t) % (q - 1)], 2)]

    base = [[(0, 0), (0, 1), (0, 2)]]
    base += [[(w[i], j), (w[i + 2 * t], j), (w[i + 4 * t], j)] for j in range(3) for i in range(t)]
    base += [a_(i) for start in (t, 3 * t, 5 * t) for i in range(start, start + t)]

    def moved(table: list[tuple[int, int]], g: int) -> list[int]:
        return [j * q + gf.add[x][g] for x, j in table]

    design = [[moved(table, g) for table in base] for g in range(q)]
    for start in (0, 2 * t, 4 * t):
        for i in range(start, start + t):
            design.append([moved(a_(i), g) for g in range(q)])
    return design


def rbibd_3q_plus_1(q: int) -> Design:
    """A resolvable (3q + 1, 4, 1) design, ``q = 4n + 1`` a prime power: ``q`` rounds.

    Points: GF(q) x {0, 1, 2} (``(x, j)`` is ``j*q + x``) and ``∞ = 3q``. With ``w`` primitive and
    ``e = w^n`` (so ``e² = -1``) the base round is ``{∞, (0,0), (0,1), (0,2)}`` and the tables
    ``{(w^i, j), (-w^i, j), (e·w^i, j+1), (-e·w^i, j+1)}`` for ``i < n``, ``j`` in Z_3; round ``g``
    adds ``g`` to every point but ``∞``.
    """
    gf = field(q)
    n = (q - 1) // 4
    w = gf.powers
    e = w[n]
    base: list[list[tuple[int, int]]] = [[(0, 0), (0, 1), (0, 2)]]
    for i in range(n):
        for j in range(3):
            x, y = w[i], gf.mul[e][w[i]]
            base.append([(x, j), (gf.neg[x], j), (y, (j + 1) % 3), (gf.neg[y], (j + 1) % 3)])
    design = []
    for g in range(q):
        tables = [[j * q + gf.add[x][g] for x, j in table] for table in base]
        tables[0].append(3 * q)
        design.append(tables)
    return design


def _pastable(kts: Design) -> Design:
    """A KTS(2s + 1) relabelled so that its ``s`` rounds hold ``{2i, 2i + 1, 2s}`` in round i,
    with those triples removed (what is pasted on a block of ``s`` points)."""
    v = sum(map(len, kts[0]))
    infinity = v - 1
    label = {infinity: infinity}
    for i, tables in enumerate(kts):
        a, b = _through(tables, v)
        label[a], label[b] = 2 * i, 2 * i + 1
    pasted = []
    for tables in kts:
        pasted.append(sorted(sorted(label[x] for x in t) for t in tables if infinity not in t))
    return pasted


def _through(tables: Tables, v: int) -> tuple[int, int]:
    """The two points sharing the last point's table in this round."""
    a, b = (x for x in next(t for t in tables if v - 1 in t) if x != v - 1)
    return a, b


def kirkman_doubling(blocks: list[list[int]], u: int, small: dict[int, Design]) -> Design:
    """KTS(2u + 1) from the ``blocks`` of a pairwise balanced design on ``u`` points, pasting
    ``small[len(block)]`` (a KTS(2·len + 1)) on each block. Point ``x`` becomes ``2x`` and
    ``2x + 1``, ``∞`` is ``2u``; round ``x`` holds ``{2x, 2x + 1, ∞}``."""
    pasted = {size: _pastable(kts) for size, kts in small.items()}
    rounds: Design = [[[2 * x, 2 * x + 1, 2 * u]] for x in range(u)]
    for block in blocks:
        for i, tables in enumerate(pasted[len(block)]):
            for table in tables:
                rounds[block[i]].append([2 * block[y // 2] + y % 2 for y in table])
    return rounds
