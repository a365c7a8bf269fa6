"""Spectators polling a public competition page: requests per second of the 304 a polling
phone gets (``If-None-Match`` with the page's ETag) against a full render of the same page, in
one run, on the real stack.

    .venv/bin/python bench/spectators.py [--spectators 20] [--requests 100] [--entries 24]
        [--workers N] [--threads N] [--path page|round|calendar|standings] [--json]
    .venv/bin/python bench/spectators.py --mixed [--spectators 1000] [--phones 200]
        [--hand-every 2] [--poll-every 15] [--seconds 60]

What it does:

1. Creates a scratch PostgreSQL database (``--postgres``), migrates it, and makes a club with a
   public league through the services: ``--entries`` players, two rounds drawn, published and
   played hand by hand (every game finished), a third round published: real standings, a full
   schedule and a round of tables.
2. Starts ``gunicorn -c deploy/gunicorn.conf.py config.wsgi`` with the production environment
   of deploy/env.example, as bench/load.py does (its ``Server`` and ``server_environment``),
   with the cache in Redis (``--cache-url``, a spare database number).
3. Every spectator (an asyncio task with its own keep-alive connection: bench/load.py's
   ``Connection``) fetches the page once to get its CSRF cookie and ETag, as a browser does.
   Then, in the same run and on the same server: ``--requests`` full renders per spectator
   (the cookie but no ``If-None-Match``), then ``--requests`` revalidations per spectator
   (``If-None-Match``: 304). Requests per second are counted as bench/load.py counts them,
   over the middle 80% of the answers.
4. Prints both rates and their ratio; stops gunicorn and drops the database.

With ``--mixed``, spectators and players together instead (issue: a results night with the public
watching). The league's third round is published with its games in progress, and ``--phones``
phones each enter a hand every ``--hand-every`` seconds (with jitter) on games of their own, for
``--seconds``, through the API with an ``Idempotency-Key`` as bench/load.py's phones do:

* phase A, the phones alone: the hand POSTs' p50 and p95;
* phase B, the same phones while ``--spectators`` (1,000 by default here) spectators poll the
  public standings page every ``--poll-every`` seconds (15), each from a first visit at a random
  moment of the first period (the whole page) and then as the page itself polls (htmx's
  ``HX-Request``: the table alone, with the ``If-None-Match`` of the table the browser's cache
  keeps; 304 while nothing changed). A third of the way in, the round's tables each enter their last hand, which
  finishes their games and changes the standings: from the moment the last of them is
  acknowledged, every spectator must see the new table (a 200 with a new ETag), and a probe
  polling every 0.1 s shows how soon the server serves it.

Targets: hand POST p95 in phase B at most 1.2 × phase A's; every spectator sees the changed
standings within ``--poll-every`` seconds of the round's last hand (its first request sent after
that hand: the page changes at once, the period is the spectators'); no 5xx, no lost hand.
Exit status 1 when one is missed.

The client is the same single asyncio process as bench/load.py's; its CPU use is printed so
that a client-bound figure shows as one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

# bench/ is this script's first path entry: bench/load.py's pieces are imported from it.
from load import (
    NETWORK_ERRORS,
    ROOT,
    Connection,
    Meter,
    Server,
    create_database,
    drop_database,
    free_port,
    gunicorn_shape,
    http_request,
    percentile,
    server_environment,
    steady_rate,
)

PATHS = {
    "page": "/p/bench/lega/",
    "round": "/p/bench/lega/rounds/3/",
    "calendar": "/p/bench/lega/calendar.ics",
    "standings": "/p/bench/lega/standings/",
}


def make_league(entries: int, *, slug: str = "lega", played: int = 2) -> None:
    """A public league: ``entries`` players, ``played`` rounds played to the end, the next one
    published with its games in progress. The club and its owner are made by the first call
    (bench/live.py makes ten leagues in one club)."""
    import datetime as dt

    from django.contrib.auth import get_user_model
    from django.db import connection

    from scoring import services as scoring
    from scoring.models import Club
    from scoring.services import Actor
    from tournaments import services

    users = get_user_model().objects
    owner = users.filter(username="bench-owner").first() or users.create_user(
        "bench-owner", password=None
    )
    by = Actor.for_user(owner)
    club = Club.objects.filter(slug="bench").first() or scoring.create_club(
        name="Bench club", slug="bench", by=by
    )
    league = services.create_competition(
        club=club,
        by=by,
        name="Lega" if slug == "lega" else f"Lega {slug}",
        slug=slug,
        kind="league",
        rulesets=["terziglio"],
        options={"terziglio": {"target_score": 2}},
    )
    for n in range(entries):
        services.add_entry(competition=league, player=f"Player {n + 1:02d}", by=by)
    for number in range(1, played + 2):
        round_ = services.add_round(
            competition=league,
            by=by,
            date=dt.date(2026, 3, number * 7),
            start_time=dt.time(21, 0),
        )
        services.generate_round(round_=round_, by=by, seed=number)
        services.publish_round(round_=round_, by=by)
        if number == played + 1:
            break
        for table in round_.tables.select_related("game"):
            if table.game is not None:
                scoring.record_hand(
                    game=table.game,
                    document={
                        "dealer": 0,
                        "outcome": "played",
                        "soloist": number % table.game.n,
                        "contract": "chiamo",
                        "soloist_points": 7,
                    },
                    by=by,
                )
        services.close_round(round_=round_, by=by)
    services.store_standings(competition=league)
    connection.close()


def collect_static(env: dict[str, str]) -> None:
    """Pages link the hashed static files of the manifest: collect them into STATIC_ROOT."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


class Spectator:
    def __init__(self, port: int, path: str) -> None:
        self.port, self.path = port, path
        self.conn = Connection(port)
        self.cookie = ""
        self.etag = ""

    def request(self, *, revalidate: bool) -> bytes:
        headers = ["Accept: text/html", "Accept-Language: en"]
        if self.cookie:
            headers.append(f"Cookie: {self.cookie}")
        if revalidate:
            headers.append(f"If-None-Match: {self.etag}")
        return http_request("GET", self.path, port=self.port, headers=headers)

    async def first_visit(self) -> None:
        answer = await self.conn.exchange(self.request(revalidate=False))
        if answer.status != 200:
            raise RuntimeError(f"{self.path}: HTTP {answer.status} {answer.body[:200]!r}")
        cookie = answer.headers.get("set-cookie", "")
        self.cookie = cookie.split(";", 1)[0]
        self.etag = answer.headers["etag"]


async def poll(spectators: list[Spectator], requests: int, *, revalidate: bool) -> dict[str, Any]:
    statuses: Counter = Counter()
    answered_at: list[float] = []
    latencies: list[float] = []
    errors = reconnects = 0
    loop = asyncio.get_running_loop()

    async def one(spectator: Spectator) -> None:
        nonlocal errors, reconnects
        raw = spectator.request(revalidate=revalidate)
        for _ in range(requests):
            start = loop.time()
            try:
                answer = await spectator.conn.exchange(raw)
            except NETWORK_ERRORS:
                # gunicorn closes a keep-alive connection idle for 5 s (a phone that finished
                # a phase waits for the others): open a new one, as a browser does.
                reconnects += 1
                try:
                    answer = await spectator.conn.exchange(raw)
                except NETWORK_ERRORS:
                    errors += 1
                    continue
            now = loop.time()
            statuses[answer.status] += 1
            answered_at.append(now)
            latencies.append(now - start)

    meter = Meter()
    await asyncio.gather(*(one(s) for s in spectators))
    figures = meter.read()
    figures.update(
        rps=steady_rate(answered_at),
        statuses={str(k): v for k, v in sorted(statuses.items())},
        errors=errors,
        reconnects=reconnects,
        p50_ms=1000 * percentile(latencies, 0.5),
        p95_ms=1000 * percentile(latencies, 0.95),
    )
    return figures


async def measure(port: int, path: str, args) -> dict[str, Any]:
    spectators = [Spectator(port, path) for _ in range(args.spectators)]
    try:
        await asyncio.gather(*(s.first_visit() for s in spectators))
        full = await poll(spectators, args.requests, revalidate=False)
        not_modified = await poll(spectators, args.requests, revalidate=True)
    finally:
        for spectator in spectators:
            spectator.conn.close()
    return {"full": full, "not_modified": not_modified}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=20, help="polling phones (20)")
    parser.add_argument("--requests", type=int, default=100, help="requests each, per phase (100)")
    parser.add_argument("--entries", type=int, default=24, help="players in the league (24)")
    parser.add_argument("--path", choices=sorted(PATHS), default="page", help="which page (page)")
    parser.add_argument("--workers", type=int, default=0, help="GUNICORN_WORKERS (the config's)")
    parser.add_argument("--threads", type=int, default=0, help="GUNICORN_THREADS (the config's)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--postgres",
        default="postgres://postgres@127.0.0.1:5432",
        help="PostgreSQL server for the scratch database (user with CREATE DATABASE)",
    )
    parser.add_argument(
        "--cache-url", default="redis://127.0.0.1:6379/13", help="CACHE_URL of the server"
    )
    parser.add_argument(
        "--mixed", action="store_true", help="phones and spectators together (bench/mixed_phase.py)"
    )
    parser.add_argument("--phones", type=int, default=200, help="--mixed: phones (200)")
    parser.add_argument(
        "--hand-every", type=float, default=2.0, help="--mixed: seconds between a phone's hands (2)"
    )
    parser.add_argument(
        "--poll-every", type=float, default=15.0, help="--mixed: seconds between polls (15)"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="--mixed: each phase (60)")
    parser.add_argument("--seed", type=int, default=1, help="--mixed: random seed (1)")
    args = parser.parse_args(argv)
    if args.mixed and "--spectators" not in (argv if argv is not None else sys.argv[1:]):
        args.spectators = 1000
    if args.mixed and (args.phones < 1 or args.seconds < 3 * args.poll_every / 2):
        parser.error("--mixed needs --phones >= 1 and --seconds >= 1.5 x --poll-every")
    if min(args.spectators, args.requests, args.entries) < 1:
        parser.error("--spectators, --requests and --entries must be at least 1")
    return args


def report(r: dict[str, Any]) -> str:
    full, cached = r["full"], r["not_modified"]
    lines = [
        f"Spectators bench: {r['spectators']} phones polling {r['path']} ({r['entries']} players, "
        f"3 rounds), {r['requests']} requests each per phase.",
        f"Server: gunicorn -c deploy/gunicorn.conf.py config.wsgi, {r['gunicorn']}, "
        "deploy/env.example environment (DEBUG=false), PostgreSQL, cache in Redis; "
        "client: asyncio HTTP/1.1 keep-alive, one process.",
        "",
        f"{'':34}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}  statuses      client CPU  machine CPU",
    ]
    for label, f in (("full render (200)", full), ("revalidation (If-None-Match)", cached)):
        lines.append(
            f"{label:34}{f['rps']:>8.0f}{f['p50_ms']:>9.1f}{f['p95_ms']:>9.1f}  "
            f"{json.dumps(f['statuses']):13} {f['client_cpu_percent_of_one_core']:>9.0f}%"
            f"{f['machine_cpu_busy_percent']:>12.0f}%"
        )
    lines += [
        "",
        f"304 / full render: {r['ratio']:.1f}x the requests per second "
        f"(page {r['page_bytes']} bytes; a 304 carries none).",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    name = f"segnapunti_spectators_{os.getpid()}"
    database_url = f"{args.postgres.rstrip('/')}/{name}"
    signal.signal(signal.SIGTERM, _interrupt)
    create_database(args.postgres, name)
    try:
        with tempfile.TemporaryDirectory(prefix="segnapunti-spectators-") as tmp:
            from django_setup import setup_django

            setup_django(database_url)
            make_league(args.entries)
            if args.mixed:
                return run_mixed(database_url, tmp, args)
            port = free_port()
            env = server_environment(
                database_url=database_url, port=port, static_root=tmp, args=args
            )
            env["CACHE_URL"] = args.cache_url
            collect_static(env)
            server = Server(env, port, Path(tmp) / "gunicorn.log")
            try:
                server.start()
                figures = asyncio.run(measure(port, PATHS[args.path], args))
                page = asyncio.run(_page_size(port, PATHS[args.path]))
            except BaseException:
                print(f"gunicorn log (last lines):\n{server.tail()}", file=sys.stderr)
                raise
            finally:
                server.stop()
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(args.postgres, name)
    full, cached = figures["full"]["rps"], figures["not_modified"]["rps"]
    results = {
        "path": PATHS[args.path],
        "spectators": args.spectators,
        "requests": args.requests,
        "entries": args.entries,
        "gunicorn": gunicorn_shape(env),
        "page_bytes": page,
        **figures,
        "ratio": cached / full if full else 0.0,
    }
    print(json.dumps(results, indent=2) if args.json else report(results))
    ok = (
        set(figures["full"]["statuses"]) == {"200"}
        and set(figures["not_modified"]["statuses"]) == {"304"}
        and not figures["full"]["errors"]
        and not figures["not_modified"]["errors"]
    )
    if not ok:
        print("FAIL: unexpected statuses or connection errors", file=sys.stderr)
    return 0 if ok else 1


def run_mixed(database_url: str, tmp: str, args) -> int:
    """``--mixed``: phones alone, then phones and spectators (bench/mixed_phase.py)."""
    import resource

    import mixed_phase

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = args.spectators + args.phones + 256
    if soft < wanted:  # a socket per spectator and per phone in this one process
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    token, game_ids, league = mixed_phase.make_phone_games(args.phones)
    hands = int(2.6 * args.seconds / args.hand_every) + 4
    phones = mixed_phase.make_phones(game_ids, hands, args.seed)
    port = free_port()
    env = server_environment(database_url=database_url, port=port, static_root=tmp, args=args)
    env["CACHE_URL"] = args.cache_url
    collect_static(env)
    server = Server(env, port, Path(tmp) / "gunicorn.log")
    try:
        server.start()
        results = asyncio.run(mixed_phase.mixed(port, token, phones, league, args))
    except BaseException:
        print(f"gunicorn log (last lines):\n{server.tail()}", file=sys.stderr)
        raise
    finally:
        server.stop()
    results["gunicorn"] = gunicorn_shape(env)
    print(json.dumps(results, indent=2) if args.json else mixed_phase.report(results, args))
    ok = mixed_phase.met(results)
    if not ok:
        print("FAIL: a target of the mixed phase was missed", file=sys.stderr)
    return 0 if ok else 1


async def _page_size(port: int, path: str) -> int:
    spectator = Spectator(port, path)
    try:
        answer = await spectator.conn.exchange(spectator.request(revalidate=False))
        return len(answer.body)
    finally:
        spectator.conn.close()


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
