"""Start-up configuration: safe defaults, and bad configuration refused loudly."""

import io
import os
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings


def start(code="from django.conf import settings; print(settings.DEBUG)", **env):
    """Load the settings in a fresh interpreter with ``env`` and run ``code``; returns
    (exit status, output)."""
    names = {"DEBUG", "SECRET_KEY", "DATABASE_URL", "CELERY_BROKER_URL"}
    clean = {k: v for k, v in os.environ.items() if k not in names}
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env=clean | {"DJANGO_SETTINGS_MODULE": "config.settings"} | env,
        capture_output=True,
        text=True,
        check=False,
    )
    return result.returncode, result.stdout + result.stderr


def test_debug_false_without_a_real_secret_key_refuses_to_start():
    status, output = start(DEBUG="false")
    assert status != 0
    assert "SECRET_KEY is not set to a real secret" in output


def test_debug_false_with_a_secret_key_starts():
    status, output = start(DEBUG="false", SECRET_KEY="x" * 50)
    assert (status, output.strip()) == (0, "False")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "flase"}, "DEBUG must be true or false"),
        (
            {"DATABASE_URL": "mysql://root@localhost/x"},
            "DATABASE_URL must be a postgres:// or sqlite://",
        ),
        ({"DATABASE_URL": "nonsense"}, "DATABASE_URL is not a valid database URL"),
        ({"PIN_MAX_ATTEMPTS": "many"}, "PIN_MAX_ATTEMPTS must be an integer"),
        ({"PIN_MAX_ATTEMPTS": "0"}, "PIN_MAX_ATTEMPTS must be at least 1"),
        ({"LANGUAGE_CODE": "de"}, "LANGUAGE_CODE must be one of en, fr, it"),
        ({"CACHE_URL": "memcached://127.0.0.1"}, "CACHE_URL must be a redis:// URL"),
        ({"TABLE_SESSION_HOURS": "0"}, "TABLE_SESSION_HOURS must be at least 1"),
        ({"NUM_PROXIES": "one"}, "NUM_PROXIES must be an integer"),
    ],
)
def test_a_bad_value_stops_the_start_and_names_the_variable(env, message):
    status, output = start(**env)
    assert status != 0
    assert message in output


def test_sqlite_is_the_default_with_immediate_transactions_and_wal(tmp_path):
    code = (
        "from django.conf import settings; d = settings.DATABASES['default']; "
        "print(d['ENGINE'], d['OPTIONS']['transaction_mode'], d['OPTIONS']['timeout']); "
        "from django.db import connection; c = connection.cursor(); "
        "print(c.execute('PRAGMA journal_mode').fetchone()[0])"
    )
    status, output = start(code, SQLITE_PATH=str(tmp_path / "club.sqlite3"))
    assert status == 0, output
    assert output.split() == ["django.db.backends.sqlite3", "IMMEDIATE", "20", "wal"]


def test_database_url_switches_to_postgresql_on_psycopg_3():
    code = "from django.conf import settings; d = settings.DATABASES['default']; print(d['ENGINE'], d['NAME'], d['HOST'])"
    status, output = start(code, DATABASE_URL="postgres://postgres@127.0.0.1:5432/segnapunti")
    assert (status, output.split()) == (
        0,
        ["django.db.backends.postgresql", "segnapunti", "127.0.0.1"],
    )


def test_celery_runs_eagerly_without_a_broker_and_uses_one_when_set():
    code = "from config.celery import app; print(app.conf.task_always_eager)"
    assert start(code) == (0, "True\n")
    assert start(code, CELERY_BROKER_URL="redis://127.0.0.1:6379/0") == (0, "False\n")


@pytest.mark.django_db
def test_healthz_answers_200_when_the_database_is_reachable(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_loaddemo_is_idempotent_and_creates_the_demo_login(django_user_model):
    call_command("loaddemo", stdout=io.StringIO())
    call_command("loaddemo", stdout=io.StringIO())
    user = django_user_model.objects.get(username="demo")
    assert user.check_password("demo")
    assert django_user_model.objects.filter(username="demo").count() == 1


@pytest.mark.django_db
def test_loaddemo_refuses_to_run_with_debug_off():
    with override_settings(DEBUG=False), pytest.raises(CommandError, match="local use only"):
        call_command("loaddemo")


def test_the_api_docs_are_served_without_a_cdn():
    from django.conf import settings

    assert settings.SPECTACULAR_SETTINGS["SWAGGER_UI_DIST"] == "SIDECAR"


def test_the_api_maps_errors_in_one_handler_and_paginates_nothing():
    from django.conf import settings

    from scoring.api_errors import exception_handler

    assert settings.REST_FRAMEWORK["EXCEPTION_HANDLER"] == (
        f"{exception_handler.__module__}.{exception_handler.__name__}"
    )
    assert "DEFAULT_PAGINATION_CLASS" not in settings.REST_FRAMEWORK
    assert "PAGE_SIZE" not in settings.REST_FRAMEWORK
