"""The ASGI entry point; request bodies are capped before Django reads them
(``config.middleware.limit_asgi_body``)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

from config.middleware import limit_asgi_body  # noqa: E402  (after Django is set up)

application = limit_asgi_body(django_application)
