"""The searches behind ``outlook``: a depth-first search over the drawn tables for a completion
that reaches a rank (``Search``), the flow relaxation that proves there is none, and the
maximum flow it needs (``max_flow``). Private to ``outlook``."""

from __future__ import annotations


class Spent(Exception):
    """The search's node budget is spent."""


class Search:
    """Depth-first search over the drawn tables that hold a constrained entrant, for a
    completion where each of them is at most ``target`` (best) or at least (worst)."""

    def __init__(self, league, x, best, target, live, new, allowed):
        self.league, self.best, self.target, self.new = league, best, target, new
        self.live, self.allowed = live, allowed
        self.nodes = 0
        self.tables = []
        for i, night in enumerate(league.nights):
            for table in night.tables:
                members = [(p, e) for p, e in enumerate(table) if e in live]
                if not members:
                    continue
                fixed = table.index(x) if x in table else None
                positions = tuple(p for p, _e in members)
                domain = league.domain(len(table), fixed, positions, best)
                self.tables.append((i, [e for _p, e in members], domain))
        # the extreme each constrained entrant may still get at each drawn table not yet chosen
        self.extreme = {
            e: {
                i: (league.low if best else league.high)(e)[i]
                for i, _m, _d in self.tables
                if e in _m
            }
            for e in live
        }

    def margin(self, e) -> int:
        """How far ``e`` is from breaking its constraint, the tables left at their extreme
        (negative: broken whatever follows)."""
        got = self.league.final(e, {**self.extreme[e], **self.new[e]})
        return self.target - got if self.best else got - self.target

    def run(self) -> bool:
        self.margins = {e: self.margin(e) for e in self.live}
        self.broken = sum(m < 0 for m in self.margins.values())
        if self.broken > self.allowed:
            return False
        if self.allowed == 0 and self.league.best_of is None and not self.flows():
            return False
        return self.step(0)

    def flows(self) -> bool:
        """The flow relaxation (points summed, no best-N): each table hands out what its
        orders must (best: the least total) or may (worst: the most) give its constrained
        members, each member up to what it can get there; it fails when the members cannot
        absorb it (best) or cannot be given what they lack (worst). A completion is a flow,
        so failing proves there is none (the classic elimination argument)."""
        low = {e: self.league.low(e) for e in self.live}
        graph: dict = {"s": {}, "t": {}}
        wanted = 0
        for i, members, domain in self.tables:
            sums = [sum(outcome) for outcome in domain]
            floor = sum(low[e][i] for e in members)
            supply = (min(sums) if self.best else max(sums)) - floor
            graph["s"][("table", i, members[0])] = supply
            if self.best:
                wanted += supply
            for p, e in enumerate(members):
                cap = max(outcome[p] for outcome in domain) - low[e][i]
                graph.setdefault(("table", i, members[0]), {})[e] = cap
        for e in self.live:
            at_low = self.league.final(e, {**low[e], **self.new[e]})
            room = self.target - at_low if self.best else max(0, self.target - at_low)
            graph.setdefault(e, {})["t"] = room
            if not self.best:
                wanted += room
        return max_flow(graph, "s", "t") >= wanted

    def step(self, t: int) -> bool:
        if t == len(self.tables):
            return True
        self.nodes += 1
        self.league.spent += 1
        if self.nodes > self.league.budget // 10 or self.league.spent > self.league.budget:
            raise Spent
        i, members, domain = self.tables[t]
        margins = self.margins
        before = [margins[e] for e in members]
        broken_before = self.broken - sum(m < 0 for m in before)
        sign = 1 if self.best else -1

        def worst_gap(outcome):
            return max(sign * v - m for v, m in zip(outcome, before, strict=True))

        for outcome in sorted(domain, key=worst_gap):
            for e, v in zip(members, outcome, strict=True):
                self.new[e][i] = v
                margins[e] = self.margin(e)
            self.broken = broken_before + sum(margins[e] < 0 for e in members)
            if self.broken <= self.allowed and self.step(t + 1):
                return True
        for e, m in zip(members, before, strict=True):
            del self.new[e][i]
            margins[e] = m
        self.broken = broken_before + sum(m < 0 for m in before)
        return False


def max_flow(graph: dict, source, sink) -> int:
    """The maximum flow from ``source`` to ``sink`` in ``graph`` ({node: {next: capacity}},
    integer capacities), by shortest augmenting paths (Edmonds-Karp)."""
    residual: dict = {node: {} for node in graph}
    for node, edges in graph.items():
        for other, cap in edges.items():
            residual[node][other] = residual[node].get(other, 0) + cap
            residual.setdefault(other, {}).setdefault(node, 0)
    total = 0
    # A greedy pass first, along the paths of three edges (source, table, member, sink) that
    # these graphs are made of: most of the flow, without searching.
    for middle in list(residual[source]):
        for last in list(residual[middle]):
            if sink in residual.get(last, ()):
                push = min(residual[source][middle], residual[middle][last], residual[last][sink])
                if push > 0:
                    for a, b in ((source, middle), (middle, last), (last, sink)):
                        residual[a][b] -= push
                        residual[b][a] += push
                    total += push
    while True:
        parent = {source: None}
        queue = [source]
        for node in queue:
            if sink in parent:
                break
            for other, cap in residual[node].items():
                if cap > 0 and other not in parent:
                    parent[other] = node
                    queue.append(other)
        if sink not in parent:
            return total
        path, node = [], sink
        while parent[node] is not None:
            path.append((parent[node], node))
            node = parent[node]
        push = min(residual[a][b] for a, b in path)
        for a, b in path:
            residual[a][b] -= push
            residual[b][a] += push
        total += push
