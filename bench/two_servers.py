"""Two app servers, one database, one Redis: phones entering hands through both, with no
stickiness, and the same no-loss figures as bench/load.py gives for one server.

    .venv/bin/python bench/two_servers.py [--phones 100] [--hands 10] [--drop-rate 0.2]
        [--dup-rate 0.05] [--no-restart] [--workers N] [--threads N] [--json]

What it does (bench/load.py's pieces, imported from it: the phones, the hands, the client,
the server, the comparison with the database):

1. Creates a scratch PostgreSQL database (``--postgres``), migrates it, makes the scorer, the
   club and the games through the services (bench/load.py ``make_games``).
2. Starts two ``gunicorn -c deploy/gunicorn.conf.py config.wsgi`` on two ports, each with the
   production environment of deploy/env.example, the same database and the same Redis cache
   (``--cache-url``, a spare database number), as two web nodes behind nginx would run.
3. Every phone sends its hands alternately to one server and the other (hand 1 to A, hand 2
   to B, ...; the next phone starts with B), each on its own keep-alive connection, like a
   load balancer with no stickiness; its resends of one hand go to the same server, its double
   sends to both connections of that server. Answers are dropped and hands sent twice at
   ``--drop-rate`` and ``--dup-rate``. Once half the hands are acknowledged, server A is
   stopped and started again (a rolling restart) while B keeps serving.
4. Stops both servers and compares the database with the phones (bench/load.py
   ``reconcile``): hands typed, acknowledged, stored, lost, doubled, wrong totals, 5xx.
   Exit status 1 when any of them is not 0.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

# bench/ is this script's first path entry: bench/load.py's pieces are imported from it.
from load import (
    Connection,
    Meter,
    Phone,
    Run,
    Server,
    create_database,
    drop_database,
    free_port,
    game_of_phones,
    gunicorn_shape,
    make_games,
    new_local_game,
    percentile,
    reconcile,
    send_hand,
    server_environment,
    steady_rate,
    stored_games,
    type_hands,
)


class Via:
    """The run as seen through one server: ``send_hand`` reads the port to build its request
    and to open its second connection from it; everything else (counters, the half-way event)
    is the shared run's."""

    def __init__(self, run: Run, port: int) -> None:
        object.__setattr__(self, "_run", run)
        object.__setattr__(self, "port", port)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._run, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._run, name, value)


def server_of(phone_index: int, hand_index: int) -> int:
    """0 or 1: the server a phone's hand goes to (alternating, each phone starting elsewhere)."""
    return (phone_index + hand_index) % 2


async def phone_hands(phone: Phone, run: Run, ports: list[int], sent: Counter) -> None:
    """bench/load.py's phone, with its typed hands going to both servers in turn."""
    conns = [Connection(port) for port in ports]
    try:
        for i, hand in enumerate(phone.typed):
            which = server_of(phone.index, i)
            sent[which] += 1
            await send_hand(phone, hand, conns[which], Via(run, ports[which]))
    finally:
        for conn in conns:
            conn.close()
        phone.finished_at = time.monotonic()


async def hand_phase(phones, args, servers: list[Server], run: Run, sent: Counter) -> dict:
    run.half_at = max(1, len(phones) * args.hands // 2)
    pause: list[float] = []

    async def rolling_restart() -> None:
        await run.half.wait()
        pause.append(time.monotonic())
        await asyncio.to_thread(servers[0].restart)
        pause.append(time.monotonic())

    meter = Meter()
    ports = [s.port for s in servers]
    tasks = [asyncio.create_task(phone_hands(p, run, ports, sent)) for p in phones]
    restart = None if args.no_restart else asyncio.create_task(rolling_restart())
    await asyncio.gather(*tasks)
    if restart is not None:
        if not run.half.is_set():
            restart.cancel()
        else:
            await restart
    figures = meter.read()
    figures["throughput"] = steady_rate(run.answered_at)
    figures["restart_seconds"] = pause[1] - pause[0] if len(pause) == 2 else None
    return figures


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=100, help="simulated phones (100)")
    parser.add_argument("--hands", type=int, default=10, help="hands each phone types (10)")
    parser.add_argument("--drop-rate", type=float, default=0.2, help="answers lost (0.2)")
    parser.add_argument("--dup-rate", type=float, default=0.05, help="hands sent twice (0.05)")
    parser.add_argument("--no-restart", action="store_true", help="no rolling restart of A")
    parser.add_argument("--workers", type=int, default=2, help="GUNICORN_WORKERS per server (2)")
    parser.add_argument("--threads", type=int, default=0, help="GUNICORN_THREADS (the config's)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the phones' choices (1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--postgres",
        default="postgres://postgres@127.0.0.1:5432",
        help="PostgreSQL server for the scratch database (user with CREATE DATABASE)",
    )
    parser.add_argument(
        "--cache-url",
        default="redis://127.0.0.1:6379/12",
        help="CACHE_URL shared by both servers (a spare Redis database number)",
    )
    args = parser.parse_args(argv)
    if args.phones < 2 or args.hands < 2:
        parser.error("--phones and --hands must be at least 2 (each phone uses both servers)")
    if not (0 <= args.drop_rate < 1 and 0 <= args.dup_rate < 1):
        parser.error("--drop-rate and --dup-rate must be between 0 and 1")
    return args


def run(args, servers: list[Server]) -> dict[str, Any]:
    phone_games = game_of_phones(args.phones)
    token, user_id, game_ids, shared = make_games(phone_games)
    seeds = random.Random(args.seed)
    phones = [
        Phone(
            index=i,
            game_index=g,
            game_id=game_ids[g],
            shared=shared[g],
            rng=random.Random(seeds.getrandbits(64)),
            local=new_local_game(shared[g]),
        )
        for i, g in enumerate(phone_games)
    ]
    for phone in phones:
        type_hands(phone, args.hands)
    for server in servers:
        server.start()
    hands = Run(port=0, token=token, drop_rate=args.drop_rate, dup_rate=args.dup_rate)
    sent: Counter = Counter()
    figures = asyncio.run(hand_phase(phones, args, servers, hands, sent))
    for server in servers:
        server.stop()
    tally = reconcile(stored_games(phones, game_ids, user_id))
    server_errors = sum(n for status, n in hands.statuses.items() if status >= 500)
    results = {
        "phones": args.phones,
        "games": len(game_ids),
        "shared_games": sum(shared),
        "hands_per_phone": args.hands,
        "drop_rate": args.drop_rate,
        "dup_rate": args.dup_rate,
        "rolling_restart": not args.no_restart,
        "gunicorn": gunicorn_shape(servers[0].env),
        "cache_url": args.cache_url,
        "hands_sent_to": {"A": sent[0], "B": sent[1]},
        "typed": tally.typed,
        "acknowledged": tally.acknowledged,
        "stored": tally.stored,
        "lost_acknowledged": tally.lost_acknowledged,
        "lost_unacknowledged": tally.lost_unacknowledged,
        "doubled": tally.doubled,
        "wrong_totals": tally.wrong_totals,
        "disagree": hands.disagree,
        "twice_disagree": hands.twice_disagree,
        "server_errors": server_errors,
        "refused": len(hands.refused),
        "statuses": {str(k): v for k, v in sorted(hands.statuses.items())},
        "dropped": hands.dropped,
        "sent_twice": hands.sent_twice,
        "connection_errors": hands.connection_errors,
        "p50_ms": 1000 * percentile(hands.latencies, 0.50),
        "p95_ms": 1000 * percentile(hands.latencies, 0.95),
        "throughput": figures["throughput"],
        "seconds": figures["seconds"],
        "restart_seconds": figures["restart_seconds"],
        "log_problems": {
            name: dict(server.log_problems()) for name, server in zip("AB", servers, strict=True)
        },
        "examples": tally.examples + hands.refused,
    }
    results["ok"] = not any(
        results[key]
        for key in (
            "lost_acknowledged",
            "lost_unacknowledged",
            "doubled",
            "wrong_totals",
            "disagree",
            "twice_disagree",
            "server_errors",
            "refused",
        )
    )
    return results


def report(r: dict[str, Any]) -> str:
    rows = [
        ("hands typed", r["typed"]),
        ("hands acknowledged (201)", r["acknowledged"]),
        ("hands stored", r["stored"]),
        ("lost (acknowledged, not stored)", r["lost_acknowledged"]),
        ("lost (typed, neither)", r["lost_unacknowledged"]),
        ("doubled (stored twice)", r["doubled"]),
        ("games with wrong totals", r["wrong_totals"]),
        ("answers disagreeing with the phone", r["disagree"]),
        ("double sends answered differently", r["twice_disagree"]),
        ("5xx answers", r["server_errors"]),
        ("refused (other 4xx)", r["refused"]),
        ("hands sent to A / B", f"{r['hands_sent_to']['A']} / {r['hands_sent_to']['B']}"),
        ("  answers dropped by the phone", r["dropped"]),
        ("  hands sent twice at once", r["sent_twice"]),
        ("  connection errors (retried)", r["connection_errors"]),
        ("hand POST p50 / p95 (ms)", f"{r['p50_ms']:.1f} / {r['p95_ms']:.1f}"),
        ("hand POST throughput (req/s)", f"{r['throughput']:.0f}"),
        (
            "rolling restart of A (s)",
            "-" if r["restart_seconds"] is None else f"{r['restart_seconds']:.1f}",
        ),
    ]
    width = max(len(label) for label, _ in rows)
    lines = [
        f"Two servers: {r['phones']} phones on {r['games']} games ({r['shared_games']} shared), "
        f"{r['hands_per_phone']} hands each, alternating between servers A and B; drop "
        f"{r['drop_rate']:.0%}, twice {r['dup_rate']:.0%}, "
        f"{'A restarted mid-run' if r['rolling_restart'] else 'no restart'}.",
        f"Each server: gunicorn -c deploy/gunicorn.conf.py config.wsgi, {r['gunicorn']}; one "
        f"PostgreSQL database; one Redis cache ({r['cache_url']}).",
        "",
    ]
    lines += [f"{label:{width}}  {value!s:>14}" for label, value in rows]
    for name, problems in r["log_problems"].items():
        if problems:
            lines.append(f"gunicorn {name} log: {problems}")
    lines += [f"  {example}" for example in r["examples"][:10]]
    lines += ["", "no hand lost or doubled, no 5xx." if r["ok"] else "FAIL: see above."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    name = f"segnapunti_two_{os.getpid()}"
    database_url = f"{args.postgres.rstrip('/')}/{name}"
    signal.signal(signal.SIGTERM, _interrupt)
    create_database(args.postgres, name)
    servers: list[Server] = []
    try:
        with tempfile.TemporaryDirectory(prefix="segnapunti-two-") as tmp:
            from django_setup import setup_django

            setup_django(database_url)
            for label in "AB":
                port = free_port()
                env = server_environment(
                    database_url=database_url, port=port, static_root=tmp, args=args
                )
                env["CACHE_URL"] = args.cache_url
                servers.append(Server(env, port, Path(tmp) / f"gunicorn-{label}.log"))
            try:
                results = run(args, servers)
            except BaseException:
                for label, server in zip("AB", servers, strict=True):
                    print(f"gunicorn {label} log (last lines):\n{server.tail()}", file=sys.stderr)
                raise
            finally:
                for server in servers:
                    server.stop()
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(args.postgres, name)
    print(json.dumps(results, indent=2, default=str) if args.json else report(results))
    return 0 if results["ok"] else 1


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
