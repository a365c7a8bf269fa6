"""Gunicorn settings for Segnapunti (``gunicorn -c deploy/gunicorn.conf.py config.wsgi``).

Workers: ``GUNICORN_WORKERS`` when set; otherwise 2 × the CPUs this process may really use + 1,
where "really" reads the container's CPU quota (cgroup v2 ``cpu.max``) and the CPU affinity, not
the host's count — a container limited to 2 CPUs on a 64-core host gets 5 workers, not 129.
Each worker thread may hold one database connection: keep ``workers × threads`` (plus the Celery
workers) under PostgreSQL's ``max_connections``, or put PgBouncer in front (deploy/README.md).

A bad ``GUNICORN_*``, ``FORWARDED_ALLOW_IPS`` or ``LOG_FORMAT`` stops gunicorn with one line naming
the variable (``sys.exit``: gunicorn prints a traceback for any exception in this file). Log
lines, gunicorn's own and the access log, start with their UTC timestamp (ISO 8601) like
Django's (config/logs.py), or are JSON objects with ``LOG_FORMAT=json``.
"""

import ipaddress
import math
import os
import sys


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


def _refuse(problem: str):
    sys.exit(f"Configuration error: {problem}")


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdecimal() or int(raw) < 1:
        _refuse(f"{name} must be a whole number of at least 1, got {raw!r}")
    return int(raw)


def _addresses(name: str, default: str) -> str:
    """Comma-separated IP addresses, or ``*`` (any: only behind a proxy that is the one way in).
    (gunicorn reads FORWARDED_ALLOW_IPS itself too, before this file, and refuses a bad one
    with its own line: "Error: 'x' does not appear to be an IPv4 or IPv6 address".)"""
    raw = os.environ.get(name, "").strip() or default
    for item in raw.split(","):
        try:
            if item.strip() != "*":
                ipaddress.ip_address(item.strip())
        except ValueError:
            _refuse(f"{name} must be IP addresses separated by commas, or *, got {raw!r}")
    return raw


def _choice(name: str, choices: tuple[str, ...], default: str) -> str:
    raw = os.environ.get(name, "").strip() or default
    if raw not in choices:
        _refuse(f"{name} must be {' or '.join(choices)}, got {raw!r}")
    return raw


bind = os.environ.get("GUNICORN_BIND", "").strip() or "127.0.0.1:8000"
workers = _int("GUNICORN_WORKERS", 2 * usable_cpus() + 1)
threads = _int("GUNICORN_THREADS", 2)
timeout = 30
# A stopping worker (SIGTERM, a restart) finishes the requests it holds for up to this long.
graceful_timeout = 30
# Idle keep-alive connections are closed after this; nginx closes its own first
# (keepalive_timeout 4s in the upstream block of deploy/nginx.conf), or a request it sends on a
# connection gunicorn is closing is reset, and a POST is not retried (502).
keepalive = 5
# No recycling after N requests (max_requests off). With threaded (gthread) workers a recycled
# worker closes the keep-alive connections it holds while the client (nginx, a phone) may be
# sending its next request on one: that request is reset, and nginx retries only idempotent
# methods, so a POST answers 502 (2 in 13,000 hand POSTs under bench/load.py, issue 22 point
# 11). Neither jitter nor graceful_timeout covers an idle keep-alive connection. Recycling only
# guards against a memory leak, and none is known; a deploy restarts the workers anyway. If a
# worker's memory ever grows, restart at a quiet hour instead (deploy/README.md, "Restarts").
max_requests = 0
accesslog = "-"
errorlog = "-"
# The access line without gunicorn's own time (%(t)s): the formatter puts the UTC one first.
access_log_format = '%(h)s %(l)s %(u)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'
_format = _choice("LOG_FORMAT", ("text", "json"), "text")
logconfig_dict = {
    "formatters": {
        "text": {
            "()": "config.logs.UTCFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
        },
        "json": {"()": "config.logs.JSONLinesFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": _format,
            "stream": "ext://sys.stdout",
        },
        "error_console": {
            "class": "logging.StreamHandler",
            "formatter": _format,
            "stream": "ext://sys.stderr",
        },
    },
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["error_console"], "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": ["console"], "propagate": False},
    },
}
forwarded_allow_ips = _addresses("FORWARDED_ALLOW_IPS", "127.0.0.1")
# Import Django once, in the master, and fork the workers from it: a start or restart costs one
# import instead of one per worker, and a restarted worker answers at once instead of
# re-importing everything while its share of requests waits (bench/load.py measures it). Nothing opens a database connection at import time, so no connection is shared.
preload_app = True
