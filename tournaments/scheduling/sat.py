"""The complete search behind the constructions: repeat-free rounds by a SAT solver.

For ``n = g·k`` players at ``g`` tables of ``k`` and ``rounds`` rounds (the social golfer problem),
the model has a variable ``x[r][p][t]``: player ``p`` sits at table ``t`` in round ``r``, and
``m[r][t][p][q]`` for two players at table ``t`` together (``m → x[r][p][t] ∧ x[r][q][t]``, and
two players at one table make it true). Clauses: each player at exactly one table a round, each
table exactly ``k`` players (sequential-counter cardinality encodings), each pair together at most
once over all rounds and tables.

Symmetry breaking (the usual ones for the social golfer problem, Triska & Musliu, "An improved SAT
formulation for the social golfer problem", Ann. Oper. Res. 194, 2012): the first round is fixed
(players ``t·k … t·k + k - 1`` at table ``t``); in every later round player ``i < k`` sits at table
``i`` (they met in round 1, so they are apart anyway, and tables are interchangeable); the rounds
after the first are ordered by the table where player ``k`` sits.

The solver is python-sat with Glucose 4.1 (its CaDiCaL cannot be interrupted, so it cannot keep a
time budget), chosen by measurement (``bench/sat_solvers.py``, the
same clauses given to both, one CP-SAT worker so that answers repeat, on a busy 2-core machine):

=============  ===========  ========  ===========
instance       python-sat   (Glucose  CP-SAT 9.15
               (CaDiCaL)    4.1)
=============  ===========  ========  ===========
9 x 3, 4 r.    0.4 s                  1.0 s
16 x 4, 5 r.   0.4 s        0.1 s     4.1 s
12 x 3, 5 r.   2.6 s        0.9 s     6.9 s (no solution: NKTS(12) does not exist)
15 x 3, 7 r.   8.1 s        3.9 s     22.7 s
=============  ===========  ========  ===========

python-sat was 2.5 to 40 times faster on these clause models, installs as a small wheel (CP-SAT
needs protobuf and takes 8 s to import) and has no threads to make results vary. It is optional: :func:`available` says whether it is
installed, and without it :func:`solve` returns None. A time budget bounds every call.

Found designs are kept as data (``data/*.json``, see :mod:`.stored`) so the search runs once.
"""

from __future__ import annotations

import threading
from importlib import import_module
from itertools import combinations

Tables = list[list[int]]


def available() -> bool:
    """Whether the SAT solver (python-sat) is installed."""
    try:
        import_module("pysat.solvers")
    except ImportError:
        return False
    return True


class Clauses:
    """Clauses under construction, with fresh variables and cardinality encodings."""

    def __init__(self) -> None:
        self.top = 0
        self.clauses: list[list[int]] = []

    def new(self) -> int:
        self.top += 1
        return self.top

    def exactly(self, literals: list[int], count: int) -> None:
        """Sequential counter (Sinz 2005): exactly ``count`` of ``literals`` are true."""
        n = len(literals)
        # s[i][j]: at least j + 1 of the first i + 1 literals are true
        s = [[self.new() for _ in range(count + 1)] for _ in range(n)]
        for i, lit in enumerate(literals):
            self.clauses.append([-lit, s[i][0]])
            if i:
                for j in range(count + 1):
                    self.clauses.append([-s[i - 1][j], s[i][j]])
                    if j:
                        self.clauses.append([-lit, -s[i - 1][j - 1], s[i][j]])
                # and s[i][j] only when justified
                self.clauses.append([-s[i][0], s[i - 1][0], lit])
                for j in range(1, count + 1):
                    self.clauses.append([-s[i][j], s[i - 1][j], s[i - 1][j - 1]])
                    self.clauses.append([-s[i][j], s[i - 1][j], lit])
            else:
                self.clauses.append([-s[0][0], lit])
                for j in range(1, count + 1):
                    self.clauses.append([-s[0][j]])
        self.clauses.append([s[n - 1][count - 1]])
        self.clauses.append([-s[n - 1][count]])

    def at_most_one(self, literals: list[int]) -> None:
        """Sequential at-most-one: ``s_i`` says one of the first ``i + 1`` literals is true."""
        *head, last = literals
        previous = None
        for lit in head:
            s = self.new()
            self.clauses.append([-lit, s])
            if previous is not None:
                self.clauses.append([-previous, s])
                self.clauses.append([-lit, -previous])
            previous = s
        if previous is not None:
            self.clauses.append([-last, -previous])


class Model(Clauses):
    """The clauses of ``rounds`` rounds of ``groups`` tables of ``k`` without a repeated pair."""

    def __init__(self, groups: int, k: int, rounds: int, *, symmetry: bool = True):
        super().__init__()
        self.g, self.k, self.rounds = groups, k, rounds
        self.n = groups * k
        self.x = [
            [[self.new() for _ in range(groups)] for _ in range(self.n)] for _ in range(rounds)
        ]
        self._seating()
        self._no_repeat()
        if symmetry:
            self._symmetry()

    def _seating(self) -> None:
        for r in range(self.rounds):
            for p in range(self.n):
                self.exactly(self.x[r][p], 1)
            for t in range(self.g):
                self.exactly([self.x[r][p][t] for p in range(self.n)], self.k)

    def _no_repeat(self) -> None:
        for p, q in combinations(range(self.n), 2):
            together = []
            for r in range(self.rounds):
                for t in range(self.g):
                    m = self.new()
                    self.clauses.append([-self.x[r][p][t], -self.x[r][q][t], m])
                    together.append(m)
            self.at_most_one(together)

    def _symmetry(self) -> None:
        g, k = self.g, self.k
        for p in range(self.n):
            self.clauses.append([self.x[0][p][p // k]])
        for r in range(1, self.rounds):
            for i in range(min(k, g)):
                self.clauses.append([self.x[r][i][i]])
        if g > 1:
            # rounds ordered by the table of player k: round r+1's table >= round r's
            for r in range(1, self.rounds - 1):
                for t in range(1, g):
                    for u in range(t):
                        self.clauses.append([-self.x[r][k][t], -self.x[r + 1][k][u]])

    def rounds_of(self, model: list[int]) -> list[Tables]:
        true = {lit for lit in model if lit > 0}
        return [
            [[p for p in range(self.n) if self.x[r][p][t] in true] for t in range(self.g)]
            for r in range(self.rounds)
        ]


def run(clauses: list[list[int]], seconds: float) -> list[int] | bool | None:
    """A model of ``clauses`` (a list of literals), False if they are unsatisfiable, None if
    ``seconds`` ran out first. Needs python-sat (see :func:`available`)."""
    solvers = import_module("pysat.solvers")
    with solvers.Solver(name="glucose4", bootstrap_with=clauses) as solver:
        timer = threading.Timer(seconds, solver.interrupt)
        timer.start()
        try:
            outcome = solver.solve_limited(expect_interrupt=True)
        finally:
            timer.cancel()
        if outcome is None:
            return None
        return solver.get_model() if outcome else False


def solve(groups: int, k: int, rounds: int, seconds: float) -> list[Tables] | bool | None:
    """Repeat-free ``rounds`` of ``groups`` tables of ``k``: the rounds if found, False if proved
    impossible, None if the budget ran out (or python-sat is missing)."""
    if not available():
        return None
    model = Model(groups, k, rounds)
    found = run(model.clauses, seconds)
    if not isinstance(found, list):
        return found
    return model.rounds_of(found)
