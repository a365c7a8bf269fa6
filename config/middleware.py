"""Middleware of the whole site.

``ApiErrors``: under ``/api/``, every error answers in the API's one JSON shape
(``scoring.api.errors``), also those no DRF view produced: an unknown URL (Django's 404 page),
a crash (the 500 page; Django still logs it), a body over ``REQUEST_MAX_BYTES`` read outside
the API's parser (413), Django's own 400s. A response that is already JSON is left alone.
"""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse

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
