"""The e-mail backend from the environment (config/settings.py's MAILERS): invitations, sign-up,
password resets, round announcements and results are printed on the console unless an SMTP
server is configured, or written to files in EMAIL_FILE_PATH (one a connection) with the file
backend. EMAIL_BACKEND takes a backend's dotted path or its short name (console, dummy, file,
locmem, smtp)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

SHORT_NAMES = {"console", "dummy", "filebased", "locmem", "smtp"}


def mailers(env, *, refuse: Callable[[str], Any], integer, boolean) -> dict[str, dict]:
    """Django's MAILERS: the default backend and its options, read from ``env``; ``refuse``
    stops the start with a message, ``integer`` and ``boolean`` read checked values."""
    backend = env.str("EMAIL_BACKEND", default="console").strip()
    backend = {"file": "filebased"}.get(backend, backend)
    if backend in SHORT_NAMES:
        backend = f"django.core.mail.backends.{backend}.EmailBackend"
    elif "." not in backend:
        refuse("EMAIL_BACKEND must be one of console, dummy, file, locmem, smtp or a dotted path")
    options: dict[str, Any] = {}
    if backend == "django.core.mail.backends.smtp.EmailBackend":
        options = {
            "host": env.str("EMAIL_HOST", default="localhost"),
            "port": integer("EMAIL_PORT", 25, minimum=1),
            "username": env.str("EMAIL_HOST_USER", default=""),
            "password": env.str("EMAIL_HOST_PASSWORD", default=""),
            "use_tls": boolean("EMAIL_USE_TLS", False),
        }
    elif backend == "django.core.mail.backends.filebased.EmailBackend":
        path = env.str("EMAIL_FILE_PATH", default="").strip()
        if not path:
            refuse("EMAIL_FILE_PATH must name a directory for the file e-mail backend")
        options = {"file_path": str(Path(path).resolve())}
    return {"default": {"BACKEND": backend, "OPTIONS": options}}
