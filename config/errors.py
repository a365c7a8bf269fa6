"""The site's 500 handler: a database that does not answer is an outage, not a bug.

``django.db`` ``OperationalError`` and ``InterfaceError`` (the server down or restarting, a
connection lost, the pool exhausted) answer 503 with ``Retry-After`` — the API's error shape
under ``/api/``, a short page elsewhere — so that clients, the phones' outbox and load balancers
try again instead of reporting a crash. Built without a template or a query: the database is
the thing that failed. Django still logs the exception. Every other crash is Django's own 500.
"""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views import defaults

from config.middleware import API_PREFIX
from scoring.api.errors import error_body

#: Seconds a client is asked to wait before trying again.
RETRY_AFTER_SECONDS = 30
OUTAGES = (OperationalError, InterfaceError)


def server_error(request, *args, **kwargs) -> HttpResponse:
    """``handler500``: called by Django while the uncaught exception is being handled."""
    if not isinstance(sys.exc_info()[1], OUTAGES):
        return defaults.server_error(request, *args, **kwargs)
    if request.path_info.startswith(API_PREFIX):
        response = JsonResponse(error_body(503), status=503)
    else:
        text = _("Segnapunti cannot reach its database just now: try again in a moment.")
        page = f"<!doctype html><title>503</title><h1>503</h1><p>{escape(text)}</p>"
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
