"""python-sat against OR-Tools CP-SAT on the same social-golfer model: ``python bench/sat_solvers.py``.

Both get the clauses of :class:`tournaments.scheduling.sat.Model` (CP-SAT as ``AddBoolOr``, one
worker so the answers repeat, and with its default 8 workers), a 60 s budget each, and print the
seconds to find (SAT) or refute (UNSAT) each instance. OR-Tools is not a dependency of the project:
install it in a scratch environment to run its half.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.scheduling.sat import Model, available

INSTANCES = [(3, 3, 4), (5, 3, 7), (4, 4, 5), (4, 3, 5), (6, 3, 8), (6, 4, 7), (7, 3, 10)]
BUDGET = 60.0


def pysat(model: Model) -> tuple[str, float]:
    import threading

    from pysat.solvers import Solver

    started = time.perf_counter()
    with Solver(name="glucose4", bootstrap_with=model.clauses) as solver:
        timer = threading.Timer(BUDGET, solver.interrupt)
        timer.start()
        outcome = solver.solve_limited(expect_interrupt=True)
        timer.cancel()
    return {True: "SAT", False: "UNSAT", None: "timeout"}[outcome], time.perf_counter() - started


def cpsat(model: Model, workers: int) -> tuple[str, float]:
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    cp = cp_model.CpModel()
    var = [None] + [cp.NewBoolVar("") for _ in range(model.top)]
    for clause in model.clauses:
        cp.AddBoolOr([var[lit] if lit > 0 else var[-lit].Not() for lit in clause])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = BUDGET
    solver.parameters.num_workers = workers
    status = solver.Solve(cp)
    name = {cp_model.OPTIMAL: "SAT", cp_model.FEASIBLE: "SAT", cp_model.INFEASIBLE: "UNSAT"}
    return name.get(status, "timeout"), time.perf_counter() - started


def main() -> int:
    try:
        import ortools  # noqa: F401

        have_cp = True
    except ImportError:
        have_cp = False
    print(
        f"{'instance g-k-w':<16}{'python-sat':>20}{'CP-SAT 1 worker':>20}{'CP-SAT 8 workers':>20}"
    )
    for g, k, w in INSTANCES:
        model = Model(g, k, w)
        cells = []
        for run in (
            (lambda m=model: pysat(m)) if available() else None,
            (lambda m=model: cpsat(m, 1)) if have_cp else None,
            (lambda m=model: cpsat(m, 8)) if have_cp else None,
        ):
            if run is None:
                cells.append("not installed")
                continue
            status, seconds = run()
            cells.append(f"{status} {seconds:.2f} s")
        print(f"{f'{g}-{k}-{w}':<16}" + "".join(f"{c:>20}" for c in cells), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
