"""History is permanent: the audit tables refuse UPDATE and DELETE in the database itself.

The models already refuse to change or delete an audit row (``AuditEvent.save``...), but code
that bypasses the ORM (raw SQL, a shell, a bug in a future migration) would not be stopped by
them. The migrations that create the tables also create triggers, per database vendor:

- PostgreSQL: one plpgsql function raising ``restrict_violation`` (an ``IntegrityError`` for
  Django), called BEFORE UPDATE OR DELETE of each row and BEFORE TRUNCATE of the table;
- SQLite: ``BEFORE UPDATE`` and ``BEFORE DELETE`` triggers doing ``SELECT RAISE(ABORT, ...)``.

The rows that point at an audit row's club, game, competition, round or actor are PROTECTed,
so deleting them is refused by the ORM before the database has to. The app never deletes a
club, a game, a competition or a round; a user who acted stays (deactivate the account).

Wiping a whole database on purpose (the test suite's flush between transactional tests, a demo
reset) goes through :func:`unlocked`::

    from django.core.management import call_command
    from scoring import permanent
    with permanent.unlocked():
        call_command("flush", interactive=False)

Deleting the SQLite file (or dropping the PostgreSQL database) and migrating again does too.

On SQLite, a migration that rebuilds one of these tables (Django does so for most ALTERs) drops
its triggers: such a migration must call :func:`install` again. The tests of raw UPDATE and
DELETE (tests/scoring/test_permanent_history.py) fail if it does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection as default_connection

#: The audit tables: scoring's trail of the games, tournaments' trail of the organizers.
TABLES = ("scoring_auditevent", "tournaments_competitionevent", "tournaments_circuitevent")

_FUNCTION = "segnapunti_history_is_permanent"


def _pg_install(table: str) -> list[str]:
    return [
        f"""CREATE OR REPLACE FUNCTION {_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'history is permanent: % on % refused', TG_OP, TG_TABLE_NAME
                USING ERRCODE = 'restrict_violation';
        END
        $$""",
        f'DROP TRIGGER IF EXISTS "{table}_permanent" ON "{table}"',
        f'CREATE TRIGGER "{table}_permanent" BEFORE UPDATE OR DELETE ON "{table}" '
        f"FOR EACH ROW EXECUTE FUNCTION {_FUNCTION}()",
        f'DROP TRIGGER IF EXISTS "{table}_permanent_truncate" ON "{table}"',
        f'CREATE TRIGGER "{table}_permanent_truncate" BEFORE TRUNCATE ON "{table}" '
        f"FOR EACH STATEMENT EXECUTE FUNCTION {_FUNCTION}()",
    ]


def _pg_uninstall(table: str) -> list[str]:
    return [
        f'DROP TRIGGER IF EXISTS "{table}_permanent" ON "{table}"',
        f'DROP TRIGGER IF EXISTS "{table}_permanent_truncate" ON "{table}"',
    ]


def _sqlite_install(table: str) -> list[str]:
    return [
        f'CREATE TRIGGER IF NOT EXISTS "{table}_no_{op.lower()}" BEFORE {op} ON "{table}" '
        f"BEGIN SELECT RAISE(ABORT, 'history is permanent: {op} on {table} refused'); END"
        for op in ("UPDATE", "DELETE")
    ]


def _sqlite_uninstall(table: str) -> list[str]:
    return [f'DROP TRIGGER IF EXISTS "{table}_no_{op}"' for op in ("update", "delete")]


_SQL = {
    "postgresql": (_pg_install, _pg_uninstall),
    "sqlite": (_sqlite_install, _sqlite_uninstall),
}


def _run(connection, tables: tuple[str, ...], which: int) -> None:
    makers = _SQL.get(connection.vendor)
    if makers is None:  # pragma: no cover - settings accept only PostgreSQL and SQLite
        raise NotImplementedError(f"no audit triggers for {connection.vendor}")
    with connection.cursor() as cursor:
        for table in tables:
            for statement in makers[which](table):
                cursor.execute(statement)


def install(connection=default_connection, tables: tuple[str, ...] = TABLES) -> None:
    """Create (or re-create) the triggers on ``tables``."""
    _run(connection, tables, 0)


def uninstall(connection=default_connection, tables: tuple[str, ...] = TABLES) -> None:
    """Drop the triggers on ``tables`` (only for :func:`unlocked` and migrations)."""
    _run(connection, tables, 1)


def installer(*tables: str):
    """A ``RunPython`` pair for a migration: the triggers of ``tables`` on the way forward,
    none on the way back."""

    def forward(apps, schema_editor):
        install(schema_editor.connection, tables)

    def backward(apps, schema_editor):
        uninstall(schema_editor.connection, tables)

    return forward, backward


@contextmanager
def unlocked(connection=default_connection) -> Iterator[None]:
    """The audit tables writable for the block (a flush of the whole database), then
    permanent again, whatever happened inside."""
    present = [t for t in TABLES if t in connection.introspection.table_names()]
    uninstall(connection, tuple(present))
    try:
        yield
    finally:
        install(connection, tuple(present))
