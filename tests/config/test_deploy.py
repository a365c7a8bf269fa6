"""deploy/ as a self-hoster follows it (issue 21, point 8): the environment file the shell, systemd
and docker compose all read, the backup's directory, log lines that start with their UTC time
for gunicorn and the Celery worker too, a production home page that does not talk about
``make run``, and documents that name every variable and say what the code does.

``.ci/fresh-install`` runs the documented install end to end, with the backup's cron line on
deploy/env.example as shipped; these are the quick checks of each part.
"""

import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.test import override_settings

from config.rates import DEFAULTS as RATES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "deploy" / "env.example"
README = (ROOT / "README.md").read_text()
DEPLOY = (ROOT / "deploy" / "README.md").read_text()
#: How every log line starts: its UTC time, ISO 8601 with milliseconds (config/logs.py).
STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z "


def example_lines() -> list[tuple[str, str, bool]]:
    """``(name, value, commented out)`` of every line of deploy/env.example that sets a variable,
    the value as systemd's EnvironmentFile reads it (surrounding double quotes removed)."""
    found = []
    for line in EXAMPLE.read_text().splitlines():
        match = re.fullmatch(r"(# )?([A-Z][A-Z0-9_]*)=(.*)", line)
        if match:
            value = match.group(3)
            if len(value) > 1 and value[0] == value[-1] == '"':
                value = value[1:-1]
            found.append((match.group(2), value, bool(match.group(1))))
    return found


def test_the_shell_reads_env_example_as_systemd_and_compose_do():
    """The backup's cron line sources the file (`set -a && . env`): every value must survive."""
    result = subprocess.run(
        ["sh", "-c", f"set -a && . '{EXAMPLE}' && env"],
        env={"PATH": os.environ["PATH"]},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    sourced = dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)
    set_here = [(name, value) for name, value, commented in example_lines() if not commented]
    assert [(n, v, sourced.get(n)) for n, v in set_here if sourced.get(n) != v] == []
    assert sourced["DEFAULT_FROM_EMAIL"] == "Segnapunti <segnapunti@club.example.org>"


def test_env_example_sets_each_variable_once():
    names = [name for name, _value, _commented in example_lines()]
    assert sorted({n for n in names if names.count(n) > 1}) == []


def variables_read() -> set[str]:
    """Every variable config/settings.py (and its Web Push, worker and rate parts,
    config/push.py, config/workers.py and config/rates.py), deploy/gunicorn.conf.py and the
    stream server's deploy/uvicorn_live.py read."""
    pattern = r'(?:env\.\w+|_int|integer|_bool|_choice|_addresses|environ\.get)\(\s*"([A-Z_]+)"'
    texts = (
        ROOT / "config" / "settings.py",
        ROOT / "config" / "push.py",
        ROOT / "config" / "workers.py",
        ROOT / "config" / "rates.py",
        ROOT / "deploy" / "gunicorn.conf.py",
        ROOT / "deploy" / "uvicorn_live.py",
    )
    read = {name for path in texts for name in re.findall(pattern, path.read_text())}
    return read | set(RATES)


def test_every_variable_has_a_row_in_the_readme_and_a_line_in_env_example():
    read = variables_read()
    assert {"DEBUG", "GUNICORN_BIND", "FORWARDED_ALLOW_IPS", "DATABASE_PREPARE"} <= read
    assert {"LIVE_BIND", "LIVE_WORKERS", "VAPID_PUBLIC_KEY", "VAPID_SUBJECT"} <= read
    rows = [line for line in README.splitlines() if line.startswith("| `")]
    assert sorted(n for n in read if not any(f"`{n}`" in row for row in rows)) == []
    assert sorted(read - {name for name, _value, _commented in example_lines()}) == []


def test_a_new_backup_directory_is_readable_by_its_owner_only(tmp_path):
    """deploy/backup.sh with pg_dump and pg_restore stubbed: the directory it creates is 700 and
    the dump 600, whatever the umask it starts with."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "pg_dump").write_text(
        '#!/bin/sh\nfor a; do case "$a" in --file=*) echo dump > "${a#--file=}";; esac; done\n'
    )
    (bin_dir / "pg_restore").write_text("#!/bin/sh\nexit 0\n")
    for stub in bin_dir.iterdir():
        stub.chmod(0o755)
    backups = tmp_path / "var" / "backups" / "segnapunti"
    result = subprocess.run(
        ["sh", "-c", "umask 022 && exec deploy/backup.sh"],
        cwd=ROOT,
        env={
            "PATH": f"{bin_dir}:{os.environ['PATH']}",
            "DATABASE_URL": "postgres://segnapunti@127.0.0.1:5432/segnapunti",
            "BACKUP_DIR": str(backups),
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    dump = Path(result.stdout.strip())
    assert dump.parent == backups
    assert stat.S_IMODE(backups.stat().st_mode) == 0o700
    assert stat.S_IMODE(dump.stat().st_mode) == 0o600


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


#: A worker alone on a memory broker has nobody to sync or gossip with: it is ready sooner.
QUIET = ["--without-mingle", "--without-gossip", "--without-heartbeat"]


def test_the_celery_worker_says_it_is_ready_in_the_same_lines(tmp_path):
    """The worker logs at INFO after its banner (the `celery` logger is quiet only where tasks
    run eagerly, in the web process), through the settings' formatter."""
    env = server_environment(tmp_path, CELERY_BROKER_URL="memory://")
    log = tmp_path / "worker.log"
    ready = re.compile(STAMP + r"INFO celery\.apps\.worker celery@\S+ ready\.")
    with log.open("w") as stderr:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "-l",
                "INFO",
                *QUIET,
            ],
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


def test_the_deploy_readme_gets_a_debian_server_to_a_working_site():
    assert "python3.12-venv" not in DEPLOY
    assert "Debian 12" in DEPLOY and "make altinstall" in DEPLOY
    # Steps of their own, not only inside the unit file.
    for step in (
        "manage.py migrate --noinput",
        "manage.py collectstatic --noinput",
        "/var/lib/segnapunti",
    ):
        assert step in DEPLOY.split("## With containers")[0], step
    # The smoke test over plain HTTP, before TLS (.ci/fresh-install runs it).
    assert "curl -s http://127.0.0.1:8000/healthz" in DEPLOY
    assert "-H 'X-Forwarded-Proto: https' http://127.0.0.1:8000/" in DEPLOY


def test_the_documents_agree_on_the_secret_keys_length():
    texts = {"README.md": README, "deploy/README.md": DEPLOY, "env.example": EXAMPLE.read_text()}
    lengths = {
        name: set(re.findall(r"(\d+) random characters", text)) for name, text in texts.items()
    }
    assert lengths == {name: {"50"} for name in texts}
    settings = (ROOT / "config" / "settings.py").read_text()
    assert "MIN_SECRET_KEY_LENGTH = 50" in settings


def test_make_test_says_which_tests_it_leaves_out_and_how_to_run_them():
    result = subprocess.run(
        ["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    said = [line for line in result.stdout.splitlines() if line.startswith("echo ")]
    assert any("-m browser tests/browser" in line for line in said), result.stdout
    assert any("-m broker tests/tournaments/test_broker.py" in line for line in said)


def test_the_stream_server_unit_runs_what_the_readme_says():
    """Issue 31 point 7: uvicorn beside gunicorn for the /events/ routes, its unit beside the
    others, nginx's location unbuffered over HTTP/2, the README's section."""
    unit = (ROOT / "deploy" / "segnapunti-live.service").read_text()
    web = (ROOT / "deploy" / "segnapunti-web.service").read_text()
    for line in ("User=segnapunti", "EnvironmentFile=/etc/segnapunti/env", "WorkingDirectory="):
        assert next(x for x in web.splitlines() if x.startswith(line)) in unit
    assert "ExecStart=/opt/segnapunti/.venv/bin/python deploy/uvicorn_live.py" in unit
    assert "LimitNOFILE=65536" in unit
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    location = nginx.split("location ~ /events/$ {")[1].split("}")[0]
    for directive in (
        "proxy_pass http://segnapunti_live;",
        "proxy_http_version 1.1;",
        'proxy_set_header Connection "";',
        "proxy_buffering off;",
    ):
        assert directive in location, directive
    timeout = int(re.search(r"proxy_read_timeout (\d+)s;", location)[1])
    assert timeout > 15  # above LIVE_HEARTBEAT_SECONDS' default
    assert "listen 443 ssl http2;" in nginx
    assert "upstream segnapunti_live" in nginx and "127.0.0.1:8001" in nginx
    assert (
        "## Live streams" in DEPLOY and "segnapunti-live" in DEPLOY.split("## With containers")[0]
    )
    assert "live:" in (ROOT / "deploy" / "compose.yaml").read_text()


def test_the_stream_server_options(monkeypatch):
    """deploy/uvicorn_live.py: uvloop, httptools, workers per CPU, and one line for a bad value."""
    import runpy

    module = runpy.run_path(str(ROOT / "deploy" / "uvicorn_live.py"))
    options = module["options"]
    monkeypatch.delenv("GUNICORN_WORKERS", raising=False)
    found = options({"LIVE_BIND": "127.0.0.1:8123", "LIVE_WORKERS": "3"})
    assert (found["host"], found["port"], found["workers"]) == ("127.0.0.1", 8123, 3)
    assert (found["loop"], found["http"], found["lifespan"]) == ("uvloop", "httptools", "off")
    assert options({})["workers"] >= 1 and options({})["port"] == 8001
    with pytest.raises(SystemExit, match="LIVE_WORKERS must be a whole number"):
        options({"LIVE_WORKERS": "many"})
    with pytest.raises(SystemExit, match="LIVE_BIND must be host:port"):
        options({"LIVE_BIND": "8001"})
