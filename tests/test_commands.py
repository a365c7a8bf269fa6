"""The project's management commands, as a self-hoster meets them (issue 21, points 5 and 6).

Every command of ``scoring`` and ``tournaments`` (found by Django, not listed here) is run the
way ``manage.py`` runs it (Django's ``ManagementUtility``, in this process) with a bad argument:
one line on stderr, the right words, a non-zero exit, no traceback. One of them is run as a real
``manage.py`` subprocess too, so the entry point itself is shown. Then the mistakes the issue names, one by one, and the README that lists
every command.
"""

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import ManagementUtility, call_command, get_commands
from django.core.management.base import CommandError
from django.db import connection
from django.test import override_settings

from scoring.models import Club

ROOT = Path(__file__).resolve().parents[1]

#: Every command of the project, as Django finds them.
COMMANDS = sorted(name for name, app in get_commands().items() if app in set(settings.PROJECT_APPS))

#: A bad argument for a command and the words its one line must hold. A command without a row
#: is run with an option it does not have.
BAD = {
    "check_games": (["--club", "nosuchclub"], "No club has the address 'nosuchclub'."),
    "createclub": (
        ["circolo", "--name", "Circolo", "--owner", "nobody"],
        "No account has the user name 'nobody'",
    ),
    "createorganizer": (
        ["lucia", "--email", "not-an-address", "--no-password"],
        "'not-an-address' is not an e-mail address.",
    ),
    "ratings": (["nosuchclub"], "No club 'nosuchclub'."),
    "score": (["/nonexistent/game.json"], "cannot read /nonexistent/game.json"),
    "schedule": (
        ["--players", "many", "--table-size", "3", "--rounds", "2"],
        "argument --players: invalid int value: 'many'",
    ),
    "export_club": (["nosuchclub"], "No club has the address 'nosuchclub'."),
    "import_club": (["/nonexistent/club.json"], "Cannot read /nonexistent/club.json"),
}
UNKNOWN = (["--no-such-option"], "unrecognized arguments: --no-such-option")


@pytest.fixture(scope="module")
def database(django_db_setup, django_db_blocker, tmp_path_factory) -> dict[str, str]:
    """The environment that points ``manage.py`` at a database with this run's tables: the test
    database itself on PostgreSQL; on SQLite a copy of it (a test holds the file's write lock
    for its whole transaction, and the subprocess would wait on it)."""
    settings = connection.settings_dict
    if connection.vendor == "postgresql":
        password = f":{settings['PASSWORD']}" if settings.get("PASSWORD") else ""
        host = f"{settings['HOST']}:{settings['PORT']}"
        return {
            "DATABASE_URL": f"postgres://{settings['USER']}{password}@{host}/{settings['NAME']}"
        }
    copy = tmp_path_factory.mktemp("commands") / "db.sqlite3"
    with django_db_blocker.unblock():
        connection.ensure_connection()
        target = sqlite3.connect(copy)
        connection.connection.backup(target)
        target.close()
    return {"SQLITE_PATH": str(copy)}


def manage(*args: str, database: dict[str, str]) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SQLITE_PATH"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env | database | {"LANGUAGE_CODE": "en"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_every_command_of_the_project_is_found():
    assert {"score", "check_games", "export_club", "import_club", "schedule"} <= set(COMMANDS)


def one_line_mistake(stderr: str, words: str) -> None:
    lines = stderr.strip().splitlines()
    assert "Traceback" not in stderr
    assert len(lines) == 1, stderr
    assert words in lines[0]


@pytest.mark.django_db
@pytest.mark.parametrize("command", COMMANDS)
def test_a_bad_argument_is_one_line_on_stderr_and_a_non_zero_exit(command, capsys):
    args, words = BAD.get(command, UNKNOWN)
    with pytest.raises(SystemExit) as exited:
        ManagementUtility(["manage.py", command, *args]).execute()
    assert exited.value.code not in (0, None), capsys.readouterr().out
    one_line_mistake(capsys.readouterr().err, words)


def test_manage_py_itself_says_a_mistake_in_one_line(database):
    args, words = BAD["check_games"]
    result = manage("check_games", *args, database=database)
    assert result.returncode != 0, result.stdout
    one_line_mistake(result.stderr, words)


def test_the_readme_lists_every_command():
    readme = (ROOT / "README.md").read_text()
    assert [name for name in COMMANDS if f"| `{name}" not in readme] == []


# -- point 6 -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_export_club_says_what_it_wrote_and_refuses_a_missing_directory(club, tmp_path):
    target = tmp_path / "club.json"
    out = io.StringIO()
    call_command("export_club", club.slug, output=str(target), stdout=out)
    assert out.getvalue() == f"Exported club Circolo Uno (uno) with 0 game(s) to {target}.\n"
    assert json.loads(target.read_text())["format"] == "segnapunti-club"
    missing = tmp_path / "missing" / "x.json"
    with pytest.raises(CommandError, match=f"^Cannot write {missing}: No such file or directory."):
        call_command("export_club", club.slug, output=str(missing))
    assert not missing.parent.exists()


@pytest.mark.django_db
def test_check_games_refuses_a_club_that_does_not_exist(club):
    with pytest.raises(CommandError, match="No club has the address 'nosuchclub'"):
        call_command("check_games", club="nosuchclub", stdout=io.StringIO())
    out = io.StringIO()
    call_command("check_games", club=club.slug, stdout=out)
    assert "0 game(s) checked" in out.getvalue()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        pytest.param(b"[1, 2]", "A game document is a JSON object", id="a-list"),
        pytest.param(b'"terziglio"', "not a string", id="a-string"),
        pytest.param(b'\xff\xfe{"ruleset": 1}', "is not UTF-8 text", id="not-utf-8"),
        pytest.param(b"{not json", "is not JSON: Expecting property name", id="not-json"),
    ],
)
def test_score_names_what_the_file_is_not(tmp_path, content, words):
    path = tmp_path / "game.json"
    path.write_bytes(content)
    err = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("score", str(path), stdout=io.StringIO(), stderr=err)
    assert exited.value.code == 2
    assert len(err.getvalue().strip().splitlines()) == 1
    assert words in err.getvalue()
    assert "codec" not in err.getvalue() and "The hand" not in err.getvalue()


def test_score_reads_a_file_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "game.json"
    document = {"ruleset": "briscola", "players": ["Anna", "Bruno"], "hands": []}
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(document).encode())
    out = io.StringIO()
    call_command("score", str(path), "--json", stdout=out)
    assert json.loads(out.getvalue())["players"] == ["Anna", "Bruno"]


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_an_import_that_fails_writes_nothing(tmp_path):
    """'Bad input anywhere changes nothing': an import_club refused half-way leaves no club."""
    path = tmp_path / "club.json"
    path.write_text(json.dumps({"format": "segnapunti-club", "version": 1, "users": []}))
    with pytest.raises(CommandError, match="damaged"):
        call_command("import_club", str(path))
    assert not Club.objects.exists()
