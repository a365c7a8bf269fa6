"""URLs: pages, the API under /api/v1/, its schema and docs, health check, admin."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.health import healthz
from scoring.views import accounts, pwa

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("favicon.ico", pwa.favicon, name="favicon"),
    # Throttled like /login/ (scoring.views.accounts.admin_login), before the admin's own.
    path("admin/login/", accounts.admin_login),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("scoring.api.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("registration.api.urls")),
    path("api/v1/", include("teams.api.urls")),
    path("api/v1/", include("circuits.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file of its own (no inline script: CSP).
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/docs.html"),
        name="api-docs",
    ),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
    path("", include("registration.urls")),
    path("", include("teams.urls")),
    path("", include("circuits.urls")),
]

# A database outage answers 503 with Retry-After rather than 500 (config/errors.py).
handler500 = "config.errors.server_error"
