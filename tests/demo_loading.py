"""``manage.py loaddemo`` for the demo tests of every app (``tests/*/test_demo.py``); the
``demo_output`` fixture of ``tests/conftest.py`` loads it once per module."""

import io

from django.core.management import call_command
from django.test import override_settings


def load_demo() -> str:
    """Run ``loaddemo`` (it refuses without DEBUG) and return what it printed."""
    out = io.StringIO()
    with override_settings(DEBUG=True):
        call_command("loaddemo", stdout=out)
    return out.getvalue()
