"""``/healthz``: ``{"status": "ok"}`` when the database answers, ``{"status": "fail"}`` with 503
otherwise (with ``Retry-After: RETRY_AFTER_SECONDS``, so that a probe or a client that honours it
asks again soon rather than hammering), and nothing more (no host, port or error text for a stranger to read; the error goes
to the log). A site whose Redis cache or Celery broker does not answer still serves every page
and hand (config/cache.py, scoring/queue.py), so it answers 200 too, but says what is down:
``{"status": "degraded", "down": ["cache", "broker"]}``.

Served by a middleware placed first, so that a load balancer's or a container's probe over plain
HTTP from inside — whatever Host header it sends — is answered before the HTTPS redirect and the
ALLOWED_HOSTS check, which are right for visitors and wrong for a probe.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from kombu.exceptions import OperationalError as BrokerError

from config import cache as redis_cache
from config.celery import app

log = logging.getLogger(__name__)

PATH = "/healthz"
#: When to ask again during a database outage: a restart of PostgreSQL takes seconds.
RETRY_AFTER_SECONDS = 10


def healthz(request) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any database failure means "not healthy"
        log.exception("health check: the database does not answer")
        response = JsonResponse({"status": "fail"}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    down = [name for name, check in (("cache", _cache_down), ("broker", _broker_down)) if check()]
    if down:
        return JsonResponse({"status": "degraded", "down": down})
    return JsonResponse({"status": "ok"})


def _cache_down() -> bool:
    return redis_cache.down()


def _broker_down() -> bool:
    """Whether the Celery broker refuses a connection (never, when tasks run in the process)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return False
    try:
        with app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, interval_step=0.2)
    except (BrokerError, OSError) as error:
        log.warning("health check: the Celery broker does not answer (%s)", error)
        return True
    return False


class HealthCheckMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path == PATH and request.method in {"GET", "HEAD"}:
            return healthz(request)
        return self.get_response(request)
