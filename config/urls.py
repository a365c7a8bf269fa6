"""URLs: pages, the API under /api/v1/, its schema and docs, health check, admin."""

import logging

from django.contrib import admin
from django.db import connection
from django.http import JsonResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

logger = logging.getLogger(__name__)


def healthz(request):
    """``{"status": "ok"}`` when the database answers; ``{"status": "fail"}`` and 503 otherwise
    (for load balancers and uptime checks). The reason is logged, never shown: a database
    error names hosts, ports and users."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any database failure means "not healthy"
        logger.exception("Health check failed: the database does not answer")
        return JsonResponse({"status": "fail"}, status=503)
    return JsonResponse({"status": "ok"})


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("scoring.api_urls")),
    path("api/v1/", include("tournaments.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
]
