"""Hand entry through the API: SQL queries and server time per POST, over one long game.

    .venv/bin/python bench/hand_entry.py [--hands 1000] [--database-url URL] [--show-sql]

Sets Django up on a fresh temporary SQLite file (or on ``--database-url``: give it a scratch
PostgreSQL database, the script migrates it and adds its own user, club and game), creates a user
with an API token, a club and a Terziglio game with ``target_score`` 1000, and posts ``--hands``
hands in-process to the real URL ``/api/v1/games/{id}/hands/`` with ``APIClient`` (token
authentication, an ``Idempotency-Key`` per hand). The hands cycle through made, failed and
passed-out contracts so that the totals stay near 0 and the game never ends. For every POST it
records the SQL queries (``CaptureQueriesContext``) and the time spent in the client call; then
it resends one hand with the same key. Targets: at most 8 queries per hand POST, whatever the
length of the game (BEGIN/COMMIT not counted, as in the API's query-count test), and p95 at
most 25 ms on SQLite. Nothing here is asserted: the script prints figures.
"""

from __future__ import annotations

import argparse
import sys
import time

from django_setup import run_on_bench_database

QUERY_TARGET = 8
P95_TARGET_MS = 25.0
CHECKPOINTS = (1, 10, 100, 1000)
#: Transaction control that Django logs as queries (not statements the app asked for).
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands to post (default 1000)")
    parser.add_argument(
        "--database-url",
        default=None,
        help="a scratch database to use instead of a fresh temporary SQLite file",
    )
    parser.add_argument(
        "--show-sql", action="store_true", help="print the SQL of one hand POST and of a resend"
    )
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    return args


def hand_document(index: int) -> dict:
    """Hand ``index`` (0-based) of a 3-seat Terziglio that never ends: over six hands the dealer
    goes round twice; seat 0 makes then fails a chiamo, seat 1 fails then makes one, and every
    third hand is passed out, so every total comes back to 0."""
    dealer = index % 3
    step = index % 6
    if step in (2, 5):
        return {"dealer": dealer, "outcome": "passed_out"}
    points = 7 if step in (0, 4) else 4  # made, failed, failed, made
    return {
        "dealer": dealer,
        "outcome": "played",
        "soloist": dealer,
        "contract": "chiamo",
        "soloist_points": points,
    }


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * fraction // 1))
    return ordered[int(rank) - 1]


def is_control(sql: str) -> bool:
    return sql.strip().upper().startswith(TRANSACTION_CONTROL)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return run_on_bench_database(args.database_url, lambda: run(args))


def run(args: argparse.Namespace) -> int:
    import secrets

    from django.contrib.auth import get_user_model
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from scoring import services
    from scoring.services import Actor

    suffix = secrets.token_hex(4)
    user = get_user_model().objects.create_user(f"bench-{suffix}", password=None)
    token = Token.objects.create(user=user)
    club = services.create_club(
        name=f"Bench {suffix}", slug=f"bench-{suffix}", by=Actor.for_user(user)
    )
    game = services.start_game(
        club=club,
        ruleset="terziglio",
        players=["Anna", "Bruno", "Carla"],
        options={"target_score": 1000},
        by=Actor.for_user(user),
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    url = f"/api/v1/games/{game.pk}/hands/"
    client.get(f"/api/v1/games/{game.pk}/")  # warm-up: imports, URL resolver, first connection

    queries: list[int] = []
    control: list[int] = []
    times_ms: list[float] = []
    shown = None
    for index in range(args.hands):
        document = hand_document(index)
        reset_queries()  # the query log keeps 9000 entries: capturing past them would miscount
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.post(
                url, document, format="json", HTTP_IDEMPOTENCY_KEY=f"bench-{suffix}-{index}"
            )
            elapsed = time.perf_counter() - start
        if response.status_code != 201:
            print(f"hand {index + 1}: HTTP {response.status_code} {response.content[:500]!r}")
            return 1
        sql = [q["sql"] for q in captured.captured_queries]
        queries.append(len(sql))
        control.append(sum(1 for q in sql if is_control(q)))
        times_ms.append(elapsed * 1000)
        if index == min(args.hands, 100) - 1:
            shown = sql

    resend_index = args.hands - 1
    reset_queries()
    with CaptureQueriesContext(connection) as captured:
        start = time.perf_counter()
        resend = client.post(
            url,
            hand_document(resend_index),
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"bench-{suffix}-{resend_index}",
        )
        resend_ms = (time.perf_counter() - start) * 1000
    resend_sql = [q["sql"] for q in captured.captured_queries]
    game.refresh_from_db()

    vendor = connection.vendor
    database = "SQLite (fresh temporary file)" if vendor == "sqlite" else vendor
    print(
        f"Hand entry bench: {len(queries)} hands posted to /api/v1/games/{{id}}/hands/ "
        f"(Terziglio, 3 seats) on {database}; the game has {game.hand_count} hands, totals "
        f"{game.totals}, status {game.status}."
    )
    at = ", ".join(
        f"hand {n}: {queries[n - 1]}"
        for n in sorted({*CHECKPOINTS, len(queries)})
        if n <= len(queries)
    )
    print(f"Queries per hand POST: min {min(queries)}, max {max(queries)}; {at}.")
    app_queries = [q - c for q, c in zip(queries, control, strict=True)]
    print(
        f"  of which transaction control (BEGIN/COMMIT/SAVEPOINT): min {min(control)}, "
        f"max {max(control)}; statements without them: min {min(app_queries)}, "
        f"max {max(app_queries)}."
    )
    p50, p95, p99 = (percentile(times_ms, f) for f in (0.50, 0.95, 0.99))
    print(
        f"Server time per hand POST: p50 {p50:.2f} ms, p95 {p95:.2f} ms, p99 {p99:.2f} ms, "
        f"max {max(times_ms):.2f} ms (hand 1: {times_ms[0]:.2f} ms)."
    )
    if len(times_ms) >= 200:
        first, last = times_ms[:100], times_ms[-100:]
        print(
            f"  p50 of the first 100 hands {percentile(first, 0.5):.2f} ms, of the last 100 "
            f"{percentile(last, 0.5):.2f} ms."
        )
    replayed = resend.get("Idempotent-Replayed") == "true"
    print(
        f"Resend of hand {resend_index + 1} with the same Idempotency-Key: HTTP "
        f"{resend.status_code}{' (replayed)' if replayed else ''}, {len(resend_sql)} queries "
        f"({sum(1 for q in resend_sql if is_control(q))} transaction control), "
        f"{resend_ms:.2f} ms; hands stored: {game.hand_count}."
    )
    if args.show_sql:
        print(f"\nSQL of hand POST {min(args.hands, 100)}:")
        for number, sql in enumerate(shown or [], start=1):
            print(f"  {number:2}. {sql}")
        print("\nSQL of the resend:")
        for number, sql in enumerate(resend_sql, start=1):
            print(f"  {number:2}. {sql}")
        print()
    # As in the query-count test of the API: BEGIN/COMMIT (SAVEPOINT/RELEASE inside a test's
    # transaction) are not statements of the app, so the target counts the others.
    constant = min(queries) == max(queries)
    queries_ok = constant and max(app_queries) <= QUERY_TARGET
    if vendor == "sqlite":
        time_verdict = f"{'met' if p95 <= P95_TARGET_MS else 'NOT met'} ({p95:.2f} ms)"
    else:
        time_verdict = f"not applicable on {vendor} ({p95:.2f} ms)"
    print(
        f"Targets: <= {QUERY_TARGET} queries per hand POST, independent of the hand count: "
        f"{'met' if queries_ok else 'NOT met'} ({max(app_queries)} statements + "
        f"{max(control)} BEGIN/COMMIT = {max(queries)}, "
        f"{'the same for every hand' if constant else 'varying with the hand'}); "
        f"p95 <= {P95_TARGET_MS:.0f} ms on SQLite: {time_verdict}."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
