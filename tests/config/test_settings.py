"""Start-up configuration: safe defaults, and bad configuration refused loudly."""

import io
import json
import os
import runpy
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings


def start(code="from django.conf import settings; print(settings.DEBUG)", **env):
    """Load the settings in a fresh interpreter with ``env`` and run ``code``; returns
    (exit status, output)."""
    names = {
        "DEBUG",
        "SECRET_KEY",
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "DATABASE_CONN_MAX_AGE",
        "DATABASE_POOL",
        "DATABASE_PREPARE",
    }
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


REAL_KEY = "k3J9-vQ2_pL8zX4wR7tY1uB6nM0cA5sD8fG2hJ4kL6-Hq7Wz3Ep"


def test_debug_false_with_a_secret_key_starts():
    status, output = start(DEBUG="false", SECRET_KEY=REAL_KEY)
    assert (status, output.strip()) == (0, "False")


def example_secret_key() -> str:
    """The SECRET_KEY line of deploy/env.example, as an operator would copy it."""
    example = Path(__file__).resolve().parents[2] / "deploy" / "env.example"
    for line in example.read_text().splitlines():
        if line.startswith("SECRET_KEY="):
            return line.removeprefix("SECRET_KEY=")
    raise AssertionError("deploy/env.example has no SECRET_KEY line")


@pytest.mark.parametrize(
    "key",
    [
        pytest.param(example_secret_key(), id="the-example-placeholder"),
        pytest.param("x" * 50, id="one-character-repeated"),
        pytest.param("abcdefgh" * 6, id="few-different-characters"),
        pytest.param("k3J9-vQ2_pL8zX4wR7tY1", id="too-short"),
        # 32 random characters pass Django's entropy idea but not check --deploy's 50 (W009).
        pytest.param(REAL_KEY[:32], id="32-characters"),
        pytest.param(REAL_KEY[:49], id="49-characters"),
        pytest.param("django-insecure-" + REAL_KEY, id="marked-insecure"),
    ],
)
def test_debug_false_refuses_a_guessable_secret_key(key):
    status, output = start(DEBUG="false", SECRET_KEY=key)
    assert status != 0
    assert "SECRET_KEY is not set to a real secret" in output


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "flase"}, "DEBUG must be true or false"),
        (
            {"DATABASE_URL": "mysql://root@localhost/x"},
            "DATABASE_URL must be a postgres:// or sqlite://",
        ),
        ({"DATABASE_URL": "nonsense"}, "DATABASE_URL is not a valid database URL"),
        ({"PIN_MAX_ATTEMPTS": "many"}, "PIN_MAX_ATTEMPTS must be a whole number of at least 1"),
        ({"PIN_MAX_ATTEMPTS": "0"}, "PIN_MAX_ATTEMPTS must be a whole number of at least 1"),
        ({"LANGUAGE_CODE": "de"}, "LANGUAGE_CODE must be one of en, fr, it"),
        ({"CACHE_URL": "memcached://127.0.0.1"}, "CACHE_URL must be a redis:// URL"),
        ({"TABLE_SESSION_HOURS": "0"}, "TABLE_SESSION_HOURS must be a whole number of at least 1"),
        ({"NUM_PROXIES": "one"}, "NUM_PROXIES must be a whole number of at least 0"),
        ({"SIGNUP": "sometimes"}, "SIGNUP must be open, invitation or closed"),
        ({"INVITATION_DAYS": "0"}, "INVITATION_DAYS must be a whole number of at least 1"),
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
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_healthz_says_fail_without_the_database_error_text(client, monkeypatch, caplog):
    from django.db import connection

    def broken_cursor(*args, **kwargs):
        raise RuntimeError('connection to server at "10.1.2.3", port 5432 failed')

    monkeypatch.setattr(connection, "cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "fail"}
    assert response["Retry-After"] == "10"  # a probe asks again in seconds, not at once
    assert "10.1.2.3" not in response.content.decode()
    assert "10.1.2.3" in caplog.text  # the operator finds it in the log


@pytest.mark.django_db
@override_settings(SECURE_SSL_REDIRECT=True, ALLOWED_HOSTS=["club.example.org"])
def test_healthz_answers_a_plain_http_probe_from_inside_while_visitors_are_redirected(client):
    probe = client.get("/healthz", HTTP_HOST="127.0.0.1:8000")
    assert (probe.status_code, probe.json()) == (200, {"status": "ok"})
    visitor = client.get("/", HTTP_HOST="club.example.org")
    assert visitor.status_code == 301
    assert visitor["Location"].startswith("https://club.example.org/")


def test_log_lines_are_json_with_a_utc_timestamp_when_asked():
    code = "import logging; logging.getLogger('segnapunti.test').warning('hello %s', 'club')"
    status, output = start(code, LOG_FORMAT="json", TIME_ZONE="Europe/Rome")
    assert status == 0
    line = json.loads(output.strip().splitlines()[-1])
    assert line["message"] == "hello club"
    assert line["level"] == "WARNING"
    assert line["logger"] == "segnapunti.test"
    assert line["time"].endswith("Z")
    datetime.fromisoformat(line["time"])  # a real ISO 8601 moment


def test_text_log_lines_carry_a_utc_timestamp():
    code = "import logging; logging.getLogger('segnapunti.test').warning('hello')"
    status, output = start(code, TIME_ZONE="Europe/Rome")
    assert status == 0
    stamp, level, name, message = output.strip().splitlines()[-1].split(" ", 3)
    assert stamp.endswith("Z") and (level, name, message) == ("WARNING", "segnapunti.test", "hello")


def test_an_unknown_log_format_stops_the_start():
    status, output = start(LOG_FORMAT="xml")
    assert status != 0
    assert "LOG_FORMAT must be text or json" in output


def gunicorn_settings(**env) -> dict:
    """deploy/gunicorn.conf.py read as gunicorn reads it, with ``env`` set."""
    conf = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"
    code = (
        f"import runpy, json; s = runpy.run_path({str(conf)!r}); "
        "print(json.dumps({'workers': s['workers'], 'threads': s['threads'], "
        "'cpus': s['usable_cpus']()}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={k: v for k, v in os.environ.items() if not k.startswith("GUNICORN_")} | env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_gunicorn_workers_follow_the_usable_cpus_or_the_setting():
    default = gunicorn_settings()
    assert default["workers"] == 2 * default["cpus"] + 1
    assert default["cpus"] <= len(os.sched_getaffinity(0))
    assert gunicorn_settings(GUNICORN_WORKERS="3", GUNICORN_THREADS="4") | {"cpus": 0} == {
        "workers": 3,
        "threads": 4,
        "cpus": 0,
    }


# -- issue 21, point 7: a bad configuration is one line naming the variable, for every process --

ROOT = Path(__file__).resolve().parents[2]
#: Variables a test sets itself: none of them may leak in from the environment running the tests.
CONFIGURATION = {"DEBUG", "SECRET_KEY", "DATABASE_URL", "SQLITE_PATH", "CELERY_BROKER_URL"}
CONFIGURATION |= {"LOG_FORMAT", "LOG_LEVEL", "TIME_ZONE", "REQUEST_MAX_BYTES"}
CONFIGURATION |= {"DATABASE_CONN_MAX_AGE", "DJANGO_SETTINGS_MODULE", "FORWARDED_ALLOW_IPS"}


def run(command: list[str], **env) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in CONFIGURATION and not k.startswith("GUNICORN_")
    }
    return subprocess.run(
        command, cwd=ROOT, env=clean | env, capture_output=True, text=True, timeout=120, check=False
    )


def one_line_refusal(result: subprocess.CompletedProcess) -> str:
    """The one line on stderr of a process that refused its configuration."""
    assert result.returncode != 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def refusal_of(path: Path, env: dict[str, str], monkeypatch) -> str:
    """The one-line message a configuration file stops with when read with ``env`` set (Python
    prints a ``SystemExit``'s message as one line on stderr and exits with status 1)."""
    for name in os.environ:
        if name in CONFIGURATION or name.startswith("GUNICORN_"):
            monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stopped:
        runpy.run_path(str(path))
    message = stopped.value.code
    assert isinstance(message, str) and "\n" not in message, message
    return message


POSTGRES = "postgres://segnapunti@127.0.0.1:5432/segnapunti"


@pytest.mark.parametrize(
    ("env", "line"),
    [
        pytest.param(
            {"DEBUG": "false", "SECRET_KEY": example_secret_key()},
            "DEBUG is false but SECRET_KEY is not set to a real secret (at least 50 random ",
            id="SECRET_KEY-placeholder",
        ),
        pytest.param(
            {"DEBUG": "maybe"}, "DEBUG must be true or false, got 'maybe'", id="DEBUG-maybe"
        ),
        pytest.param(
            {"LOG_FORMAT": "xml"}, "LOG_FORMAT must be text or json, got 'xml'", id="LOG_FORMAT-xml"
        ),
        pytest.param(
            {"DATABASE_URL": POSTGRES, "DATABASE_CONN_MAX_AGE": "abc"},
            "DATABASE_CONN_MAX_AGE must be a whole number of at least 0, got 'abc'",
            id="DATABASE_CONN_MAX_AGE-abc",
        ),
        pytest.param(
            {"REQUEST_MAX_BYTES": "-5"},
            "REQUEST_MAX_BYTES must be a whole number of at least 1024, got '-5'",
            id="REQUEST_MAX_BYTES-negative",
        ),
        pytest.param(
            {"TIME_ZONE": "Mars/Olympus"},
            "TIME_ZONE must be a time zone name such as Europe/Rome, got 'Mars/Olympus'",
            id="TIME_ZONE-unknown",
        ),
        pytest.param(
            {"LOG_LEVEL": "loud"},
            "LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, got 'loud'",
            id="LOG_LEVEL-unknown",
        ),
        pytest.param(
            {"REGISTRATION_RATE_PER_ADDRESS": "lots"},
            "REGISTRATION_RATE_PER_ADDRESS must be a rate such as 20/hour (or off), got 'lots'",
            id="REGISTRATION_RATE_PER_ADDRESS-lots",
        ),
    ],
)
def test_the_settings_refuse_a_bad_setting_in_one_line_naming_it(env, line, monkeypatch):
    """Read in this process, as every entry point reads them; that each entry point prints the
    refusal as its one line on stderr is shown below, by starting each one for real."""
    assert refusal_of(ROOT / "config" / "settings.py", env, monkeypatch).startswith(
        f"Configuration error: {line}"
    )


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["manage.py", "migrate"], id="manage.py-migrate"),
        pytest.param(["manage.py", "runserver", "127.0.0.1:0"], id="manage.py-runserver"),
        pytest.param(["manage.py", "serve", "127.0.0.1:0"], id="manage.py-serve"),
        pytest.param(["-m", "uvicorn", "config.asgi:application", "--port", "0"], id="uvicorn"),
        pytest.param(["manage.py", "help"], id="manage.py-help"),
        pytest.param(
            ["-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "config.wsgi"], id="gunicorn"
        ),
        pytest.param(["-m", "celery", "-A", "config", "worker", "--pool=solo"], id="celery-worker"),
        pytest.param(["-m", "celery", "-A", "config", "beat"], id="celery-beat"),
    ],
)
def test_every_entry_point_refuses_a_bad_setting_in_one_line(command):
    result = run([sys.executable, *command], DEBUG="maybe", GUNICORN_BIND="127.0.0.1:0")
    assert (
        one_line_refusal(result) == "Configuration error: DEBUG must be true or false, got 'maybe'"
    )


@pytest.mark.parametrize(
    ("env", "line"),
    [
        (
            {"GUNICORN_WORKERS": "abc"},
            "GUNICORN_WORKERS must be a whole number of at least 1, got 'abc'",
        ),
        (
            {"GUNICORN_WORKERS": "0"},
            "GUNICORN_WORKERS must be a whole number of at least 1, got '0'",
        ),
        (
            {"GUNICORN_THREADS": "-2"},
            "GUNICORN_THREADS must be a whole number of at least 1, got '-2'",
        ),
        (
            {"FORWARDED_ALLOW_IPS": "nginx"},
            "FORWARDED_ALLOW_IPS must be IP addresses separated by commas, or *, got 'nginx'",
        ),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be text or json, got 'xml'"),
    ],
)
def test_gunicorn_config_refuses_a_bad_variable_in_one_line_naming_it(env, line, monkeypatch):
    conf = ROOT / "deploy" / "gunicorn.conf.py"
    assert refusal_of(conf, env, monkeypatch) == f"Configuration error: {line}"


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


def test_the_api_maps_errors_in_one_handler_and_each_list_pages_itself():
    from django.conf import settings

    from scoring.api import autoschema
    from scoring.api.access import AutoSchema
    from scoring.api.errors import exception_handler

    assert settings.REST_FRAMEWORK["EXCEPTION_HANDLER"] == (
        f"{exception_handler.__module__}.{exception_handler.__name__}"
    )
    # No default: the list views page with scoring.api.pagination, declared for GETs only.
    assert "DEFAULT_PAGINATION_CLASS" not in settings.REST_FRAMEWORK
    assert "PAGE_SIZE" not in settings.REST_FRAMEWORK
    assert settings.REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"] == (
        f"{AutoSchema.__module__}.{AutoSchema.__name__}"
    )
    assert issubclass(AutoSchema, autoschema.AutoSchema)  # the lists' pages in the schema


def test_the_cache_is_local_memory_by_default_and_redis_when_cache_url_is_set():
    code = (
        "from django.conf import settings; c = settings.CACHES['default']; "
        "print(c['BACKEND'], c.get('LOCATION', '-'), settings.SESSION_ENGINE)"
    )
    status, output = start(code)
    assert (status, output.split()) == (
        0,
        [
            "django.core.cache.backends.locmem.LocMemCache",
            "-",
            "django.contrib.sessions.backends.db",
        ],
    )
    status, output = start(code, CACHE_URL="redis://127.0.0.1:6379/3")
    assert (status, output.split()) == (
        0,
        [
            "config.cache.RedisCache",
            "redis://127.0.0.1:6379/3",
            "django.contrib.sessions.backends.db",
        ],
    )


def test_a_cache_url_that_is_not_redis_stops_the_start():
    status, output = start(CACHE_URL="memcached://127.0.0.1:11211")
    assert status != 0
    assert "CACHE_URL must be a redis:// URL" in output


def test_database_pool_gives_each_process_a_psycopg_pool_and_refuses_persistent_connections():
    code = "from django.conf import settings; d = settings.DATABASES['default']; print(d['OPTIONS'].get('pool'), d['CONN_MAX_AGE'])"
    url = "postgres://postgres@127.0.0.1:5432/segnapunti"
    assert start(code, DATABASE_URL=url) == (0, "None 0\n")
    status, output = start(code, DATABASE_URL=url, DATABASE_POOL="true", DATABASE_POOL_MAX_SIZE="6")
    assert (status, output) == (0, "{'min_size': 1, 'max_size': 6, 'timeout': 10} 0\n")
    status, output = start(code, DATABASE_URL=url, DATABASE_POOL="true", DATABASE_CONN_MAX_AGE="60")
    assert status != 0
    assert "DATABASE_POOL=true needs DATABASE_CONN_MAX_AGE=0" in output


def test_hand_writes_are_prepared_when_connections_last_unless_turned_off():
    code = "from django.conf import settings; print(settings.DATABASE_PREPARE)"
    url = "postgres://postgres@127.0.0.1:5432/segnapunti"
    assert start(code) == (0, "False\n")  # SQLite
    assert start(code, DATABASE_URL=url) == (0, "False\n")  # a connection per request
    assert start(code, DATABASE_URL=url, DATABASE_CONN_MAX_AGE="60") == (0, "True\n")
    assert start(code, DATABASE_URL=url, DATABASE_POOL="true") == (0, "True\n")
    off = start(code, DATABASE_URL=url, DATABASE_CONN_MAX_AGE="60", DATABASE_PREPARE="false")
    assert off == (0, "False\n")
    assert start(code, DATABASE_URL=url, DATABASE_PREPARE="true") == (0, "True\n")
    status, output = start(code, DATABASE_URL=url, DATABASE_PREPARE="sure")
    assert status != 0 and "DATABASE_PREPARE must be true or false" in output


def test_the_file_email_backend_and_its_directory_come_from_the_environment(tmp_path):
    code = (
        "from django.core import mail; from django.conf import settings; "
        "print(settings.MAILERS['default']['BACKEND']); "
        "mail.send_mail('Tavolo 3', 'Giochi al tavolo 3.', 'a@example.org', ['b@example.org'])"
    )
    outbox = tmp_path / "sent"
    status, output = start(code, EMAIL_BACKEND="file", EMAIL_FILE_PATH=str(outbox))
    assert (status, output) == (0, "django.core.mail.backends.filebased.EmailBackend\n")
    (written,) = outbox.iterdir()
    assert "Subject: Tavolo 3" in written.read_text()
    dotted = "django.core.mail.backends.filebased.EmailBackend"
    assert start(code, EMAIL_BACKEND=dotted, EMAIL_FILE_PATH=str(outbox))[0] == 0
    assert len(list(outbox.iterdir())) == 2


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"EMAIL_BACKEND": "file"}, "EMAIL_FILE_PATH must name a directory"),
        ({"EMAIL_BACKEND": "file", "EMAIL_FILE_PATH": " "}, "EMAIL_FILE_PATH must name a"),
        ({"EMAIL_BACKEND": "smpt"}, "EMAIL_BACKEND must be one of console, dummy, file,"),
    ],
)
def test_a_file_backend_without_its_directory_or_an_unknown_backend_stops_the_start(env, message):
    status, output = start(**env)
    assert status != 0
    assert message in output


def test_a_task_of_a_killed_worker_is_redelivered_within_minutes_not_an_hour():
    code = (
        "from django.conf import settings as s; "
        "print(s.CELERY_BROKER_TRANSPORT_OPTIONS['visibility_timeout'], "
        "s.CELERY_TASK_ACKS_LATE, s.CELERY_TASK_REJECT_ON_WORKER_LOST)"
    )
    assert start(code) == (0, "300 True True\n")
    status, output = start(code, CELERY_VISIBILITY_TIMEOUT_SECONDS="5")
    assert status != 0 and "CELERY_VISIBILITY_TIMEOUT_SECONDS" in output


def test_the_broker_looks_for_a_killed_workers_tasks_every_ten_seconds_and_beat_checks_the_mail():
    """kombu's default sweep scans one tick in ten (100 s), on top of the visibility timeout."""
    code = (
        "from django.conf import settings as s; o = s.CELERY_BROKER_TRANSPORT_OPTIONS; "
        "print(o['unacked_restore_interval'], o['unacked_restore_throttle'], "
        "s.CELERY_BEAT_SCHEDULE['requeue-stalled-results-mail']['schedule'], "
        "s.RESULTS_MAIL_STALLED_SECONDS)"
    )
    assert start(code) == (0, "10 1 60 600\n")
    assert start(code, RESULTS_MAIL_CHECK_EVERY_SECONDS="5")[1] == "10 1 5 600\n"
    status, output = start(code, RESULTS_MAIL_STALLED_SECONDS="0")
    assert status != 0 and "RESULTS_MAIL_STALLED_SECONDS" in output
