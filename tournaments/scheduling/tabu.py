"""Local search for rounds with few repeated meetings, after Dotú and Van Hentenryck, "Scheduling
social golfers locally" (CPAIOR 2005).

The players are ``0 … n-1``; ``fixed[a][b]`` counts the meetings that cannot change (earlier
events, rounds already played). Each round to plan has its tables' sizes and its byes decided;
only who sits at which table changes, so every state is a valid schedule.

* **cost** — over all pairs, each meeting after a pair's first costs ``W``, plus ``S`` for each
  earlier extra meeting of that pair (a third meeting costs more than a second), so the search
  minimises the repeated pairs first and spreads the unavoidable ones.
* **conflict** — a player who sits, in some round, with someone he meets more than once.
* **move** — swap a player in conflict with a player at another table of the same round. The
  paper evaluates the swaps of every player in conflict of every round; here, for speed in
  Python, those of up to ``SAMPLE`` of them drawn at random (all when fewer are in conflict),
  across all rounds, and the best swap is made (ties drawn at random). A table of conflicts is
  kept up to date move by move instead of being recomputed.
* **tabu** — swapping the same two players in the same round again is forbidden for a random
  tenure, unless it would give the best cost found so far (aspiration).
* **restarts** — after a number of moves without a new best, the search returns to the best
  schedule and perturbs it with random swaps.

The search stops at a cost of zero, when the repeats reach a known floor, or after a budget of
evaluated swaps (so the result depends on the seed only, never on the machine's speed).
"""

from __future__ import annotations

import random
from itertools import combinations

Tables = list[list[int]]
WEIGHT = 6  # cost of a second meeting of a pair
SPREAD = 1  # added for each further meeting of the pair: a third one costs WEIGHT + SPREAD, …
TENURE = (5, 15)  # moves during which a swap may not be made again
PATIENCE = (40, 4)  # moves without a new best before a restart: base, and per player
SHAKE = 8  # a restart makes one random swap per this many players (at least 2)
SAMPLE = 16  # players in conflict whose swaps are evaluated each move
OBJECTIVES = ("fewest", "spread")  # fewest repeats in all, or the fewest meetings of any one pair


def _increments(top: int, objective: str = "fewest") -> list[int]:
    """``inc[c]``: the cost of one more meeting for a pair that met ``c`` times. "fewest": each
    repeat costs about the same (a third meeting a little more); "spread": a third meeting costs
    more than many second ones (the cost grows eightfold with each meeting)."""
    if objective == "spread":
        return [0] + [WEIGHT * 8 ** (c - 1) for c in range(1, top + 1)]
    return [0] + [WEIGHT + SPREAD * (c - 1) for c in range(1, top + 1)]


def greedy(
    n: int,
    fixed: list[list[int]],
    sizes: list[list[int]],
    byes: list[list[int]],
    rng: random.Random,
    objective: str = "fewest",
) -> list[Tables]:
    """A first schedule: each seat takes, among a sample of the unseated, the player who has met
    the table the least."""
    counts = [row[:] for row in fixed]
    inc = _increments(max(map(max, fixed), default=0) + len(sizes) + 2, objective)
    plan = []
    for round_sizes, round_byes in zip(sizes, byes, strict=True):
        away = set(round_byes)
        pool = [p for p in range(n) if p not in away]
        rng.shuffle(pool)
        tables = []
        for size in round_sizes:
            table = [pool.pop()]
            while len(table) < size:
                sample = range(len(pool) - 1, max(-1, len(pool) - 33), -1)
                best = min(sample, key=lambda i: sum(inc[counts[pool[i]][x]] for x in table))
                table.append(pool.pop(best))
            for a, b in combinations(table, 2):
                counts[a][b] += 1
                counts[b][a] += 1
            tables.append(table)
        plan.append(tables)
    return plan


class Search:
    """The state of one tabu search: the plan, the meeting counts, who is in conflict where, and
    the best plan so far."""

    def __init__(
        self,
        n: int,
        fixed: list[list[int]],
        plan: list[Tables],
        rng: random.Random,
        objective: str = "fewest",
    ):
        self.n = n
        self.fixed = fixed
        self.rng = rng
        self.plan = [[list(t) for t in tables] for tables in plan]
        self.inc = _increments(max(map(max, fixed), default=0) + len(plan) + 2, objective)
        self.recount()
        self.best = [[list(t) for t in tables] for tables in self.plan]
        self.best_cost = self.cost

    def recount(self) -> None:
        """Everything derived from the plan, from scratch: meeting counts, cost, repeats, each
        player's table in each round and the conflicts."""
        counts = [row[:] for row in self.fixed]
        cost = repeats = 0
        self.where = [[-1] * self.n for _ in self.plan]
        for r, tables in enumerate(self.plan):
            for t, table in enumerate(tables):
                for a, b in combinations(table, 2):
                    cost += self.inc[counts[a][b]]
                    repeats += counts[a][b] > 0
                    counts[a][b] += 1
                    counts[b][a] += 1
                for p in table:
                    self.where[r][p] = t
        self.counts, self.cost, self.repeats = counts, cost, repeats
        self.conf = [[0] * self.n for _ in self.plan]
        self.conflicted: set[tuple[int, int]] = set()
        for r, tables in enumerate(self.plan):
            for table in tables:
                for a, b in combinations(table, 2):
                    if counts[a][b] > 1:
                        self._bump(r, a, 1)
                        self._bump(r, b, 1)

    def _bump(self, r: int, p: int, change: int) -> None:
        """One more (or one less) repeated table-mate for ``p`` in round ``r``."""
        conf = self.conf[r]
        conf[p] += change
        if conf[p]:
            self.conflicted.add((r, p))
        else:
            self.conflicted.discard((r, p))

    def _crossed(self, a: int, b: int, change: int, skip: int) -> None:
        """``a`` and ``b`` now meet twice (``change`` 1) or no longer (-1): update the rounds other
        than ``skip`` where they sit together."""
        for r, where in enumerate(self.where):
            if r != skip and where[a] >= 0 and where[a] == where[b]:
                self._bump(r, a, change)
                self._bump(r, b, change)

    def apply(self, r: int, t1: int, p: int, t2: int, q: int) -> None:
        """Swap ``p`` (table ``t1``) and ``q`` (table ``t2``) in round ``r``."""
        counts, inc = self.counts, self.inc
        first, second = self.plan[r][t1], self.plan[r][t2]
        for leaving, table in ((p, first), (q, second)):
            row = counts[leaving]
            for x in table:
                if x != leaving:
                    c = row[x]
                    if c > 1:
                        self._bump(r, leaving, -1)
                        self._bump(r, x, -1)
                    row[x] = counts[x][leaving] = c - 1
                    self.cost -= inc[c - 1]
                    self.repeats -= c > 1
                    if c == 2:
                        self._crossed(leaving, x, -1, r)
        first[first.index(p)] = q
        second[second.index(q)] = p
        self.where[r][p], self.where[r][q] = t2, t1
        for joining, table in ((p, second), (q, first)):
            row = counts[joining]
            for x in table:
                if x != joining:
                    c = row[x]
                    row[x] = counts[x][joining] = c + 1
                    self.cost += inc[c]
                    self.repeats += c > 0
                    if c == 1:
                        self._crossed(joining, x, 1, r)
                    if c > 0:
                        self._bump(r, joining, 1)
                        self._bump(r, x, 1)

    def best_move(
        self, iteration: int, tabu: dict[tuple[int, int, int], int], sample: int
    ) -> tuple[int, tuple[int, int, int, int, int] | None]:
        """The best allowed swap of ``sample`` players in conflict drawn at random (evaluations
        made, move or None)."""
        counts, inc, rng = self.counts, self.inc, self.rng
        found = list(self.conflicted)
        if len(found) > sample:
            found = rng.sample(found, sample)
        best_delta, chosen, ties, evaluations = None, None, 0, 0
        for r, p in found:
            tables = self.plan[r]
            t1 = self.where[r][p]
            row_p = counts[p]
            others = [x for x in tables[t1] if x != p]
            leave_p = sum([inc[row_p[x] - 1] for x in others])
            for t2, second in enumerate(tables):
                if t2 == t1:
                    continue
                join_p = sum([inc[row_p[y]] for y in second]) - leave_p
                for q in second:
                    row_q = counts[q]
                    delta = (
                        join_p
                        - inc[row_p[q]]
                        + sum([inc[row_q[x]] for x in others])
                        - sum([inc[row_q[y] - 1] for y in second if y != q])
                    )
                    evaluations += 1
                    if best_delta is not None and delta > best_delta:
                        continue
                    key = (r, p, q) if p < q else (r, q, p)
                    if tabu.get(key, 0) > iteration and self.cost + delta >= self.best_cost:
                        continue
                    if best_delta is None or delta < best_delta:
                        best_delta, chosen, ties = delta, (r, t1, p, t2, q), 1
                    else:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            chosen = (r, t1, p, t2, q)
        return evaluations, chosen

    def perturb(self, swaps: int) -> None:
        """Back to the best plan, then ``swaps`` random swaps."""
        self.plan = [[list(t) for t in tables] for tables in self.best]
        self.recount()
        rounds = [r for r, tables in enumerate(self.plan) if len(tables) > 1]
        for _ in range(swaps if rounds else 0):
            r = self.rng.choice(rounds)
            t1, t2 = self.rng.sample(range(len(self.plan[r])), 2)
            p = self.rng.choice(self.plan[r][t1])
            q = self.rng.choice(self.plan[r][t2])
            self.apply(r, t1, p, t2, q)

    def run(self, budget: int, floor: int) -> None:
        """Search until no repeat is left (or only ``floor``), or ``budget`` evaluations."""
        best_repeats = self.repeats
        tabu: dict[tuple[int, int, int], int] = {}
        spent = iteration = stale = 0
        patience = PATIENCE[0] + PATIENCE[1] * self.n
        shake = max(2, self.n // SHAKE)
        while spent < budget and best_repeats > floor:
            iteration += 1
            evaluations, move = self.best_move(iteration, tabu, SAMPLE)
            spent += evaluations + 8
            if move is None:
                self.perturb(shake)
                tabu.clear()
                continue
            self.apply(*move)
            r, _, p, _, q = move
            tabu[(r, p, q) if p < q else (r, q, p)] = iteration + self.rng.randint(*TENURE)
            if self.cost < self.best_cost:
                self.best = [[list(t) for t in tables] for tables in self.plan]
                self.best_cost, best_repeats, stale = self.cost, self.repeats, 0
            else:
                stale += 1
                if stale > patience:
                    self.perturb(shake)
                    tabu.clear()
                    stale = 0
