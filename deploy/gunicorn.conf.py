"""Gunicorn settings for Segnapunti (``gunicorn -c deploy/gunicorn.conf.py config.wsgi``).

Workers: ``GUNICORN_WORKERS`` when set; otherwise 2 × the CPUs this process may really use + 1,
where "really" reads the container's CPU quota (cgroup v2 ``cpu.max``) and the CPU affinity, not
the host's count — a container limited to 2 CPUs on a 64-core host gets 5 workers, not 129.
Each worker thread may hold one database connection: keep ``workers × threads`` (plus the Celery
workers) under PostgreSQL's ``max_connections``, or put PgBouncer in front (deploy/README.md).
"""

import math
import os


def usable_cpus() -> int:
    """CPUs this process may use: affinity, then the cgroup v2 quota if one is set."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    try:
        with open("/sys/fs/cgroup/cpu.max") as quota_file:
            quota, period = quota_file.read().split()
        if quota != "max":
            cpus = min(cpus, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    return cpus


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = int(raw)  # a typo stops gunicorn at start, naming the value
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = _int("GUNICORN_WORKERS", 2 * usable_cpus() + 1)
threads = _int("GUNICORN_THREADS", 2)
timeout = 30
graceful_timeout = 30
keepalive = 5
max_requests = 2000
max_requests_jitter = 200
accesslog = "-"
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# Import Django once, in the master, and fork the workers from it: a start or restart costs one
# import instead of one per worker, and a worker recycled by max_requests answers at once
# instead of re-importing everything while its share of requests waits (bench/load.py measures
# both). Nothing opens a database connection at import time, so no connection is shared.
preload_app = True
