"""The database the Django benches run on: a scratch one given by URL, or a fresh temporary
SQLite file. Imported by the bench scripts (``bench/`` is their first path entry)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_django(database_url: str | None) -> str | None:
    """Point Django at the bench database and migrate it. Returns the temporary directory."""
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    tmp = None
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
        tmp = tempfile.mkdtemp(prefix="segnapunti-bench-")
        os.environ["SQLITE_PATH"] = str(Path(tmp) / "bench.sqlite3")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return tmp


def run_on_bench_database(database_url: str | None, run: Callable[[], int]) -> int:
    """Set the bench database up, call ``run``, then close the connection and remove the
    temporary SQLite directory, whatever ``run`` did."""
    tmp = setup_django(database_url)
    try:
        return run()
    finally:
        from django.db import connection

        connection.close()
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
