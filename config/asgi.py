"""The ASGI entry point; request bodies are capped before Django reads them
(``config.middleware.limit_asgi_body``)."""

import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

from config.middleware import limit_asgi_body  # noqa: E402  (after Django is set up)

# WhiteNoise answers a static file with a synchronous iterator, which Django reads whole under
# ASGI (a small file, `make run` only: production's nginx serves them) and warns of each time.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators", category=Warning
)

application = limit_asgi_body(django_application)
