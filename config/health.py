"""``/healthz``: ``{"status": "ok"}`` when the database answers, ``{"status": "fail"}`` with 503
otherwise, and nothing more (no host, port or error text for a stranger to read; the error goes
to the log).

Served by a middleware placed first, so that a load balancer's or a container's probe over plain
HTTP from inside — whatever Host header it sends — is answered before the HTTPS redirect and the
ALLOWED_HOSTS check, which are right for visitors and wrong for a probe.
"""

from __future__ import annotations

import logging

from django.db import connection
from django.http import JsonResponse

log = logging.getLogger(__name__)

PATH = "/healthz"


def healthz(request) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any database failure means "not healthy"
        log.exception("health check: the database does not answer")
        return JsonResponse({"status": "fail"}, status=503)
    return JsonResponse({"status": "ok"})


class HealthCheckMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path == PATH and request.method in {"GET", "HEAD"}:
            return healthz(request)
        return self.get_response(request)
