"""Log lines of every process start with their UTC time (issue 21, point 8): gunicorn's own and
its access log, and the Celery worker's after its banner, like Django's (config/logs.py); and a
production home page that does not talk about ``make run``.
"""

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.test import override_settings

ROOT = Path(__file__).resolve().parents[2]
#: How every log line starts: its UTC time, ISO 8601 with milliseconds (config/logs.py).
STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z "


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_environment(tmp_path, **extra) -> dict[str, str]:
    names = ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "LOG_FORMAT", "LOG_LEVEL", "DEBUG")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GUNICORN_", "CELERY_"))}
    env = {k: v for k, v in env.items() if k not in names}
    return env | {"SQLITE_PATH": str(tmp_path / "db.sqlite3")} | extra


def test_gunicorn_lines_start_with_their_utc_time(tmp_path):
    port = free_port()
    env = server_environment(tmp_path, GUNICORN_BIND=f"127.0.0.1:{port}", GUNICORN_WORKERS="1")
    out, err = tmp_path / "out.log", tmp_path / "err.log"
    with out.open("w") as stdout, err.open("w") as stderr:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "config.wsgi"],
            cwd=ROOT,
            env=env,
            stdout=stdout,
            stderr=stderr,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5):
                        break
                except OSError:
                    assert time.monotonic() < deadline, err.read_text()
                    time.sleep(0.3)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
    access = out.read_text().splitlines()
    assert any(
        re.match(STAMP + r'INFO gunicorn\.access .*"GET /healthz HTTP/1\.1" 200', line)
        for line in access
    )
    own = err.read_text().splitlines()
    assert any(re.match(STAMP + r"INFO gunicorn\.error Listening at", line) for line in own)
    assert [line for line in access + own if not re.match(STAMP, line)] == []


def test_the_celery_worker_says_it_is_ready_in_the_same_lines(tmp_path):
    """The worker logs at INFO after its banner (the `celery` logger is quiet only where tasks
    run eagerly, in the web process), through the settings' formatter."""
    env = server_environment(tmp_path, CELERY_BROKER_URL="memory://")
    log = tmp_path / "worker.log"
    ready = re.compile(STAMP + r"INFO celery\.apps\.worker celery@\S+ ready\.")
    with log.open("w") as stderr:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-l", "INFO"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        try:
            deadline = time.monotonic() + 60
            while not any(ready.fullmatch(line) for line in log.read_text().splitlines()):
                assert worker.poll() is None, log.read_text()
                assert time.monotonic() < deadline, f"no 'ready.' line in 60 s:\n{log.read_text()}"
                time.sleep(0.3)
        finally:
            worker.terminate()
            worker.wait(timeout=30)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("debug", "site_url_set", "shown"),
    [(True, False, True), (False, True, False), (False, False, False), (True, True, False)],
)
def test_only_a_laptop_at_the_club_is_told_how_phones_reach_it(
    client, olga, debug, site_url_set, shown
):
    client.force_login(olga)
    with override_settings(DEBUG=debug, SITE_URL_SET=site_url_set):
        page = client.get("/", HTTP_HOST="127.0.0.1:8000").content.decode()
    assert ('id="phones-address"' in page) is shown
    if not shown:
        assert "make run" not in page
