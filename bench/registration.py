"""500 registrations arriving at once for 200 places (issue 24), on the real stack: gunicorn,
PostgreSQL, the API; then the database is counted.

    .venv/bin/python bench/registration.py [--people 500] [--places 200] [--workers N]
        [--threads N] [--json]

1. Creates a scratch PostgreSQL database (``--postgres``) and migrates it; an organizer, a
   club, a competition with registration open (``--places`` entries, a waiting list, for
   anyone with an account) and ``--people`` accounts, each with an API token, are made through
   the services (bench/load.py's scratch database and gunicorn, imported from it).
2. Starts ``gunicorn -c deploy/gunicorn.conf.py config.wsgi`` with the production environment
   (bench/load.py ``server_environment``: console e-mail, Celery eager).
3. Every person, on a connection of their own, waits at one barrier and then
   ``POST /api/v1/competitions/<id>/registrations/`` with their token, all at once. A request
   whose connection fails is sent again (a 400 "already registered" then says the first one
   arrived).
4. Counts, in the database: active entries, waiting registrations, doubled (a person with two
   registrations or two entries, an entry of two registrations, a waiting position taken twice
   or skipped), lost (a person who sent and holds no registration), 5xx answers. Exit status
   1 unless entries = places, waiting = people - places, and 0 doubled, 0 lost, 0 5xx.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

# bench/ is this script's first path entry: bench/load.py's pieces are imported from it.
import load
from load import (
    NETWORK_ERRORS,
    ROOT,
    Connection,
    Server,
    create_database,
    drop_database,
    free_port,
    http_request,
    server_environment,
)

from registration import services as registration_services

#: 500 people queue behind one competition's lock: an answer may take minutes, and a phone
#: that gave up early would only send again (the server answers every request it accepted).
load.REQUEST_TIMEOUT = 900.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=500, help="people registering (500)")
    parser.add_argument("--places", type=int, default=200, help="places (200)")
    parser.add_argument("--workers", type=int, default=0, help="GUNICORN_WORKERS (the config's)")
    parser.add_argument("--threads", type=int, default=0, help="GUNICORN_THREADS (the config's)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--postgres",
        default="postgres://postgres@127.0.0.1:5432",
        help="PostgreSQL server for the scratch database (user with CREATE DATABASE)",
    )
    args = parser.parse_args(argv)
    if args.people < 1 or args.places < 1:
        parser.error("--people and --places must be at least 1")
    return args


def make_competition(people: int, places: int) -> tuple[int, list[tuple[int, str]]]:
    """The organizer, the club, the competition with registration open, and the people's
    accounts with their tokens: (competition id, [(user id, token)])."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from scoring import services as scoring
    from scoring.services import Actor
    from tournaments import services

    users = get_user_model().objects
    owner = users.create_user("bench-owner", password=None)
    by = Actor.for_user(owner)
    club = scoring.create_club(name="Bench club", slug="bench", by=by)
    competition = services.create_competition(
        club=club, by=by, name="Torneo di Briscola", rulesets=["terziglio"], public=True
    )
    now = timezone.now()
    registration_services.set_registration(
        competition=competition,
        by=by,
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=1),
        capacity=places,
        waiting_list=True,
        eligibility="accounts",
    )
    people_tokens = []
    for i in range(people):
        user = users.create_user(f"player{i}", email=f"player{i}@example.org", password=None)
        people_tokens.append((user.pk, Token.objects.create(user=user).key))
    connection.close()
    return competition.pk, people_tokens


async def register(port: int, competition_id: int, index: int, token: str, start, statuses):
    body = json.dumps({"name": f"Player {index}"}).encode()
    raw = http_request(
        "POST",
        f"/api/v1/competitions/{competition_id}/registrations/",
        port=port,
        body=body,
        headers=[f"Authorization: Token {token}"],
    )
    conn = Connection(port)
    try:
        await start.wait()
        for attempt in range(5):
            try:
                answer = await conn.exchange(raw)
            except NETWORK_ERRORS:
                await asyncio.sleep(0.2 * (attempt + 1))
                continue
            statuses[answer.status] += 1
            return answer.status
        statuses["network"] += 1
        return None
    finally:
        conn.close()


async def arrive_at_once(port: int, competition_id: int, people) -> tuple[Counter, float]:
    statuses: Counter = Counter()
    start = asyncio.Event()
    tasks = [
        asyncio.create_task(register(port, competition_id, i, token, start, statuses))
        for i, (_user, token) in enumerate(people)
    ]
    await asyncio.sleep(0.5)  # every task waits at the barrier
    began = time.monotonic()
    start.set()
    await asyncio.gather(*tasks)
    return statuses, time.monotonic() - began


def count(competition_id: int, people) -> dict[str, int]:
    from django.db import connection
    from django.db.models import Count

    from registration.models import Registration
    from tournaments.models import Entry, EntryStatus

    rows = Registration.objects.filter(competition_id=competition_id)
    standing = rows.exclude(status="withdrawn")
    entries = Entry.objects.filter(competition_id=competition_id)
    per_user = standing.values("user_id").annotate(n=Count("id")).filter(n__gt=1).count()
    per_entry = (
        standing.exclude(entry=None).values("entry_id").annotate(n=Count("id")).filter(n__gt=1)
    ).count()
    per_player = entries.values("player_id").annotate(n=Count("id")).filter(n__gt=1).count()
    positions = sorted(standing.filter(status="waiting").values_list("position", flat=True))
    waiting = len(positions)
    misordered = int(positions != list(range(1, waiting + 1)))
    users = set(standing.values_list("user_id", flat=True))
    figures = {
        "entries": entries.filter(status=EntryStatus.ACTIVE).count(),
        "waiting": waiting,
        "doubled": per_user + per_entry + per_player + misordered,
        "lost": sum(1 for user_id, _token in people if user_id not in users),
        "entered_without_entry": standing.filter(status="entered", entry=None).count(),
    }
    connection.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sys.path.insert(0, str(ROOT))
    name = f"reg_bench_{os.getpid()}"
    database_url = f"{args.postgres.rstrip('/')}/{name}"
    signal.signal(signal.SIGTERM, _interrupt)
    create_database(args.postgres, name)
    try:
        with tempfile.TemporaryDirectory(prefix="segnapunti-registration-") as tmp:
            from django_setup import setup_django

            setup_django(database_url)
            competition_id, people = make_competition(args.people, args.places)
            port = free_port()
            env = server_environment(
                database_url=database_url, port=port, static_root=tmp, args=args
            )
            server = Server(env, port, Path(tmp) / "gunicorn.log")
            server.start()
            try:
                statuses, seconds = asyncio.run(arrive_at_once(port, competition_id, people))
            except BaseException:
                print(f"gunicorn log (last lines):\n{server.tail()}", file=sys.stderr)
                raise
            finally:
                server.stop()
            problems = server.log_problems()
            figures = count(competition_id, people)
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(args.postgres, name)
    server_errors = sum(n for s, n in statuses.items() if isinstance(s, int) and s >= 500)
    results: dict[str, Any] = {
        "people": args.people,
        "places": args.places,
        **figures,
        "answers": {str(k): v for k, v in sorted(statuses.items(), key=str)},
        "5xx": server_errors,
        "seconds": round(seconds, 2),
        "log_problems": dict(problems),
    }
    ok = (
        figures["entries"] == args.places
        and figures["waiting"] == args.people - args.places
        and figures["doubled"] == 0
        and figures["lost"] == 0
        and figures["entered_without_entry"] == 0
        and server_errors == 0
        and statuses.get("network", 0) == 0
    )
    if args.json:
        print(json.dumps(results | {"ok": ok}, indent=2))
    else:
        print(
            f"{results['people']} registrations at once for {results['places']} places "
            f"in {results['seconds']} s (answers {results['answers']}):\n"
            f"{figures['entries']} entries, {figures['waiting']} waiting, "
            f"{figures['doubled']} doubled, {figures['lost']} lost, {server_errors} 5xx"
            f"{'' if ok else '  <- NOT MET'}"
        )
    return 0 if ok else 1


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
