"""Every query of the operations bench/scale.py measures uses an index on a federation's tables
(issue 26, point 2): the test builds, with the bench's own generator (``bench/scale_data.py``),
a club and enough copies of it that the main tables hold well over ``BIG`` rows, runs each
operation once (``bench.scale.Scene`` and ``bench.scale.periodic``, the very calls the bench
times) under ``CaptureQueriesContext``, asks the database for the plan of every statement
captured, and fails on a full scan of a table holding more than ``BIG`` rows: such a scan reads
every club's rows, and its cost grows with the federation, not with the club.

PostgreSQL: ``EXPLAIN (FORMAT JSON)``, a ``Seq Scan`` node of such a table fails. SQLite:
``EXPLAIN QUERY PLAN``, a ``SCAN`` of such a table (not a ``SEARCH`` by an index) fails. The
tables are ``ANALYZE``d first, so that each planner knows their sizes. PostgreSQL is where the
plans matter (``DATABASE_URL=postgres://…``, as ``.ci/run`` does); on SQLite the same rule holds.
"""

from __future__ import annotations

import re

import pytest
import sqlparse
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench import scale, scale_data

# Its own step of .ci/run, on PostgreSQL where the plans matter (building 120 clubs takes minutes:
# not in every `make test`); `pytest -m plans` runs it on SQLite too.
pytestmark = [pytest.mark.django_db, pytest.mark.plans]

#: A table over this many rows is never read whole by a club's operation.
BIG = 10_000
#: Copies of the club (the demo club and a competition of every format, no more history): the
#: club is under 1 % of the hands, audit events, seats and rating steps, which each hold more
#: than BIG rows, as one club of a federation is.
COPIES = 120
#: A table and its alias in Django's SQL: FROM "scoring_hand" U0, INNER JOIN "scoring_game" T3.
ALIAS = re.compile(r'"(\w+)"\s+(?:AS\s+)?([A-Z]\d+)\b')
#: Statements that have no plan, and the many rows one statement inserts (Django logs them as
#: "N times: INSERT … VALUES (%s, …)", which reads no table).
NO_PLAN = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET|SHOW\b|\d+ times: )", re.I)


@pytest.fixture
def federation():
    """The club measured, and COPIES copies of it made by the database (``bench/scale.py``
    builds the federation from a template club and measures another one built alike: one
    club is enough here, its plans are the same)."""
    club = scale_data.build_club(slug=scale.MEASURED, hands=1)
    scale_data.replicate(scale_data.spans(), COPIES)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return club


def row_counts() -> dict[str, int]:
    counts = {}
    with connection.cursor() as cursor:
        for model in scale_data.replicated_models():
            table = model._meta.db_table
            cursor.execute(f'SELECT count(*) FROM "{table}"')
            counts[table] = cursor.fetchone()[0]
    return counts


def scans(sql: str) -> list[str]:
    """The tables the statements read whole, by the database's plan (a round trip of several
    statements is explained one statement at a time: EXPLAIN would run the others)."""
    return [table for statement in sqlparse.split(sql) for table in _scans(statement)]


def _scans(sql: str) -> list[str]:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}")
            plan = cursor.fetchone()[0]
            return list(_seq_scans(plan))
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
        details = [row[-1] for row in cursor.fetchall()]
    # SQLite names a table by its alias in the query (Django's subqueries: "scoring_hand" U0).
    aliases = {alias: table for table, alias in ALIAS.findall(sql)}
    return [
        aliases.get(detail.split()[1], detail.split()[1])
        for detail in details
        if detail.startswith("SCAN ") and len(detail.split()) > 1
    ]


def _seq_scans(node):
    if isinstance(node, list):
        for item in node:
            yield from _seq_scans(item)
    elif isinstance(node, dict):
        if node.get("Node Type") == "Seq Scan":
            yield node["Relation Name"]
        for value in node.values():
            if isinstance(value, list | dict):
                yield from _seq_scans(value)


def captured(call, setup=None) -> list[str]:
    argument = setup() if setup else None
    with CaptureQueriesContext(connection) as queries:
        call(argument)
    return [q["sql"] for q in queries.captured_queries if not NO_PLAN.match(q["sql"])]


def test_every_query_of_a_clubs_operations_reads_by_an_index(federation):
    counts = row_counts()
    big = {table for table, rows in counts.items() if rows > BIG}
    assert {"scoring_hand", "scoring_auditevent", "scoring_seat", "scoring_ratingstep"} <= big
    scene = scale.Scene()
    found = []
    statements = 0
    for label, setup, call, _runs in scene.operations() + scale.periodic(scene):
        for sql in captured(call, setup):
            statements += 1
            whole = [t for t in scans(sql) if t in big]
            if whole:
                found.append(f"{label}: scans {', '.join(whole)}: {sql[:600]}")
    assert statements > 50
    assert not found, "\n\n".join(found)
