"""Middleware of the whole site.

``ApiErrors``: under ``/api/``, every error answers in the API's one JSON shape
(``scoring.api.errors``), also those no DRF view produced: an unknown URL (Django's 404 page),
a crash (the 500 page; Django still logs it), a body over ``REQUEST_MAX_BYTES`` read outside
the API's parser (413), Django's own 400s. A response that is already JSON is left alone.

``BodyLimit``: a body announced (``Content-Length``) over ``REQUEST_MAX_BYTES`` is refused with
413 before a byte of it is read, a form's multipart upload too (Django's own limits count only
the fields a parser has already read, and would spool a 100 MB file to disk first). Under WSGI
Django never reads past ``Content-Length`` (a body without one is read as empty); under ASGI,
where the server streams the body to Django, ``limit_asgi_body`` counts what arrives.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext as _

from scoring.api.errors import error_body

API_PREFIX = "/api/"
#: Headers an error response must keep (405 Allow, 401 WWW-Authenticate, 429 Retry-After...).
KEPT_HEADERS = ("Allow", "WWW-Authenticate", "Retry-After", "Vary", "Content-Language")


def _is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


class ApiErrors:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code < 400 or not _is_api(request):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        answer = JsonResponse(
            error_body(response.status_code, request.method), status=response.status_code
        )
        for header in KEPT_HEADERS:
            if header in response:
                answer[header] = response[header]
        return answer

    def process_exception(self, request, exception):
        """A body over the limit, read by a view: 413 rather than Django's plain 400."""
        if _is_api(request) and isinstance(exception, RequestDataTooBig):
            return JsonResponse(error_body(413), status=413)
        return None


def too_large(request) -> HttpResponse:
    """413: the API's error shape under /api/, a short page elsewhere."""
    if _is_api(request):
        return JsonResponse(error_body(413), status=413)
    text = _("The request is too large: at most %(max)s bytes.") % {
        "max": settings.REQUEST_MAX_BYTES
    }
    return HttpResponse(f"<!doctype html><title>413</title><p>{escape(text)}</p>", status=413)


def announced_length(headers_value) -> int:
    """The body's announced length; 0 when absent or unreadable (Django then reads none)."""
    try:
        return max(0, int(headers_value or 0))
    except (TypeError, ValueError):
        return 0


class BodyLimit:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if announced_length(request.META.get("CONTENT_LENGTH")) > settings.REQUEST_MAX_BYTES:
            return too_large(request)
        return self.get_response(request)


def limit_asgi_body(app):
    """Wraps an ASGI application: a request body over ``REQUEST_MAX_BYTES`` (announced, or as it
    streams in) gets 413 without reaching Django, which would otherwise read all of it into a
    temporary file before any middleware runs. Bodies within the limit are passed on as read."""

    async def refuse(send) -> None:
        body = b"Request body too large."
        headers = [(b"content-type", b"text/plain; charset=utf-8")]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def limited(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        limit = settings.REQUEST_MAX_BYTES
        length = dict(scope.get("headers") or []).get(b"content-length")
        if announced_length(length.decode("latin-1") if length else 0) > limit:
            return await refuse(send)
        messages, size = [], 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > limit:
                return await refuse(send)
            if not message.get("more_body"):
                break

        async def replay():
            return messages.pop(0) if messages else await receive()

        return await app(scope, replay, send)

    return limited
