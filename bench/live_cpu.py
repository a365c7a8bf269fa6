"""Where the CPU of a bench/live.py phase went: each side of the stack and the load generator
itself, against the machine's cores (a shared machine: the rest is other work).

A snapshot reads /proc once: every process of the sessions the bench started (gunicorn, the
stream server, the Celery worker and beat, Redis), the PostgreSQL backends of the scratch
database (their titles name it), the bench's own two processes (the phones and the tables
finishing; the screens' child), and the machine's busy time (/proc/stat). Two snapshots give
each side's CPU seconds between them; divided by the wall time, the cores it kept busy. A
process that started in between counts whole; one that ended in between is lost (the stream
server restarted: its old processes' last seconds).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from load import _process_ticks

HZ = os.sysconf("SC_CLK_TCK")
#: The order the sides are printed in.
SIDES = (
    "gunicorn",
    "stream server",
    "postgres",
    "celery",
    "redis",
    "client: phones",
    "client: screens",
)


@dataclass
class Snapshot:
    at: float
    #: pid -> (side, clock ticks)
    ticks: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: the machine's busy and total clock ticks, every core (/proc/stat's first line)
    busy: int = 0
    total: int = 0


def machine_ticks() -> tuple[int, int]:
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return sum(values) - idle, sum(values)


class Sides:
    """Which side each process of interest is on: ``sessions`` maps a session id (a server
    started with ``start_new_session``) to its side; more may be added as servers restart."""

    def __init__(self, database: str) -> None:
        self.title = f" {database} "
        self.sessions: dict[int, str] = {}
        self.pids: dict[int, str] = {os.getpid(): "client: phones"}

    def add_session(self, session: int, side: str) -> None:
        self.sessions[session] = side

    def add_pid(self, pid: int, side: str) -> None:
        self.pids[pid] = side

    def snapshot(self) -> Snapshot:
        snap = Snapshot(time.monotonic())
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            found = _process_ticks(pid)
            if found is None:
                continue
            session, ticks, command = found
            side = self.pids.get(int(pid)) or self.sessions.get(session)
            if side is None and command.startswith("postgres:") and self.title in command:
                side = "postgres"
            if side is not None:
                snap.ticks[pid] = (side, ticks)
        snap.busy, snap.total = machine_ticks()
        return snap


def between(first: Snapshot, last: Snapshot) -> dict[str, float]:
    """Cores each side kept busy from ``first`` to ``last`` (CPU seconds a second), with
    ``ours`` (their sum), ``machine`` (every process of the machine) and ``cores``."""
    seconds = max(1e-6, last.at - first.at)
    out = dict.fromkeys(SIDES, 0.0)
    for pid, (side, ticks) in last.ticks.items():
        before = first.ticks.get(pid)
        spent = ticks - (before[1] if before and before[0] == side else 0)
        out[side] = out.get(side, 0.0) + spent / HZ / seconds
    out["ours"] = sum(out[side] for side in SIDES)
    total = last.total - first.total
    cores = os.cpu_count() or 1
    out["machine"] = cores * (last.busy - first.busy) / total if total else 0.0
    out["cores"] = float(cores)
    return out


def table(windows: dict[str, dict[str, float]]) -> list[str]:
    """The cores of each side in each phase, one column a phase."""
    names = list(windows)
    lines = [f"{'CPU, cores busy':22}" + "".join(f"{name:>10}" for name in names)]
    for side in (*SIDES, "ours", "machine"):
        label = "machine (all work)" if side == "machine" else side
        lines.append(
            f"{label:22}" + "".join(f"{windows[name].get(side, 0.0):>10.2f}" for name in names)
        )
    return lines
