"""Redis stopped during hand entry, then started again: no 500, nothing lost, ratings caught up.

    .venv/bin/python bench/redis_fault.py [--games 20] [--postgres URL] [--json]

The production stack on a scratch PostgreSQL database: gunicorn with deploy/gunicorn.conf.py,
a Celery worker with its beat, and a Redis server of this script's own (on a free port, so the
machine's Redis is never touched) as both the cache (``CACHE_URL``) and the broker.

1. Every game (Briscola between two players, won at two hands) gets its first hand through the
   API with a token, with Redis up.
2. Redis is killed (SIGKILL, as a crash). Every game gets its second, finishing hand (each sent
   twice with the same ``Idempotency-Key``, as a phone that lost the answer would), and the
   log-in page, a wrong password, a table link's PIN page with a wrong PIN and ``/healthz``
   are asked for.
3. Redis is started again. The script waits for ``/healthz`` to say ``ok`` and for the worker's
   periodic ``run_pending_tasks`` to rate every finished game.

It prints what each phase answered and exits 1 when a request answered 5xx, a hand is missing
or doubled, a game is not finished, a rating is missing after 90 s, or ``/healthz`` did not say
what was down (README "When Redis stops").
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from pathlib import Path
from typing import Any

# bench/ is this script's first path entry: bench/load.py's pieces are imported from it.
from load import HOST, ROOT, Server, create_database, drop_database, free_port, server_environment

FIRST = {"dealer": 0, "points": [70, 50]}
FINISHING = {"dealer": 1, "points": [81, 39]}
CATCH_UP_SECONDS = 90
NOTHING_ON_DISK = ["--save", "", "--appendonly", "no"]


class Redis:
    """A redis-server of this script's own, with nothing kept on disk."""

    def __init__(self, port: int, log: Path) -> None:
        self.port, self.log, self.process = port, log, None

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", HOST, *NOTHING_ON_DISK],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self._wait(up=True)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._wait(up=False)

    def _wait(self, *, up: bool) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((HOST, self.port), timeout=0.5):
                    answering = True
            except OSError:
                answering = False
            if answering == up:
                return
            time.sleep(0.1)
        raise RuntimeError(f"redis-server on port {self.port} did not {'start' if up else 'stop'}")


class Client:
    """One keep-alive HTTP connection to the server, counting every status it gets."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token
        self.statuses: Counter = Counter()
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)

    def call(self, method: str, path: str, body: Any = None, **headers) -> tuple[int, bytes]:
        data = b""
        if isinstance(body, dict) and headers.get("Content-Type", "").startswith("application/x"):
            data = urllib.parse.urlencode(body).encode()
        elif body is not None:
            data = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        headers = {"Host": f"{HOST}:{self.port}", **headers}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            self.conn.request(method, path, body=data or None, headers=headers)
            response = self.conn.getresponse()
            content = response.read()
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
            raise
        self.statuses[response.status] += 1
        return response.status, content

    def form(self, path: str, fields: dict[str, str]) -> int:
        """The page's form sent as a browser sends it (its CSRF cookie and token)."""
        status, page = self.call("GET", path)
        found = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        token = found.group(1).decode() if found else ""
        status, _ = self.call(
            "POST",
            path,
            fields | {"csrfmiddlewaretoken": token},
            **{"Content-Type": "application/x-www-form-urlencoded"},
        )
        return status

    def hand(self, game_id: int, document: dict, key: str) -> tuple[int, bytes]:
        return self.call(
            "POST",
            f"/api/v1/games/{game_id}/hands/",
            document,
            Authorization=f"Token {self.token}",
            **{"Idempotency-Key": key},
        )


def number(answer: tuple[int, bytes]) -> int | None:
    """The hand number an answer gives (the first answer and its replay give the same)."""
    try:
        return json.loads(answer[1]).get("number")
    except ValueError:
        return None


def make_club(games: int) -> dict[str, Any]:
    """An owner with an API token, a club, its players, ``games`` Briscola games and a table
    link, through the services."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scoring import services
    from scoring.models import TableLink
    from scoring.services import Actor

    owner = get_user_model().objects.create_user("fault-owner", password="fault-password")
    by = Actor.for_user(owner)
    club = services.create_club(name="Fault club", slug="fault", by=by)
    players = [
        services.add_player(club=club, display_name=f"Player {i + 1}", by=by)
        for i in range(2 * games)
    ]
    ids = [
        services.start_game(
            club=club, ruleset="briscola", players=players[2 * i : 2 * i + 2], by=by
        ).pk
        for i in range(games)
    ]
    link = TableLink.objects.filter(game_id=ids[0]).first()
    return {
        "token": Token.objects.create(user=owner).key,
        "games": ids,
        "link": f"/t/{link.token}/" if link else None,
    }


def run(args, server: Server, redis: Redis, worker_env: dict[str, str], tmp: Path) -> dict:
    from scoring.models import Game, GameStatus, Hand, PendingTask

    made = make_club(args.games)
    # The pages need their static files, collected as deploy/README.md does.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=worker_env,
        check=True,
    )
    redis.start()
    server.start()
    worker_log = open(tmp / "worker.log", "ab")  # noqa: SIM115 (closed in the finally below)
    celery = [sys.executable, "-m", "celery", "-A", "config"]
    # The worker and beat as deploy/ runs them: two processes, beat's schedule in a file.
    workers = [
        subprocess.Popen(
            [*celery, *command],
            cwd=ROOT,
            env=worker_env,
            stdout=worker_log,
            stderr=subprocess.STDOUT,
        )
        for command in (
            ["worker", "--pool=solo", "-l", "INFO", "--without-mingle", "--without-gossip"],
            ["beat", "-l", "INFO", "--schedule", str(tmp / "beat-schedule")],
        )
    ]
    client = Client(server.port, made["token"])
    phases: dict[str, Counter] = {}
    problems: list[str] = []
    try:
        for game_id in made["games"]:
            status, body = client.hand(game_id, FIRST, f"first-{game_id}")
            if status != 201:
                problems.append(f"game {game_id}: first hand answered {status} {body[:200]!r}")
        phases["Redis up: first hands"] = client.statuses
        client.statuses = Counter()

        redis.kill()
        began = time.monotonic()
        for game_id in made["games"]:
            first = client.hand(game_id, FINISHING, f"last-{game_id}")
            again = client.hand(game_id, FINISHING, f"last-{game_id}")
            if first[0] != 201 or again[0] not in (200, 201) or number(again) != number(first):
                problems.append(
                    f"game {game_id}: finishing hand answered {first[0]}, resent {again[0]}"
                )
        finishing_seconds = time.monotonic() - began
        status, body = client.call("GET", "/healthz")
        health_down = json.loads(body) if status == 200 else {"status": status}
        if health_down != {"status": "degraded", "down": ["cache", "broker"]}:
            problems.append(f"/healthz said {health_down} with Redis down")
        for path, fields, expected in (
            ("/login/", {"username": "fault-owner", "password": "wrong"}, 200),
            # PINs have six digits: five are always wrong, and refused next to the field (400)
            (made["link"], {"pin": "00000"}, 400),
        ):
            status = client.form(path, fields)
            if status != expected:
                problems.append(f"POST {path} (a wrong guess) answered {status} with Redis down")
        phases["Redis down: finishing hands (each sent twice), pages"] = client.statuses
        client.statuses = Counter()

        redis.start()
        deadline = time.monotonic() + 30
        while True:
            status, body = client.call("GET", "/healthz")
            if status == 200 and json.loads(body) == {"status": "ok"}:
                break
            if time.monotonic() > deadline:
                problems.append(f"/healthz still said {body!r} 30 s after Redis came back")
                break
            time.sleep(0.5)
        back = time.monotonic()
        finished = Game.objects.filter(pk__in=made["games"], status=GameStatus.FINISHED)
        while True:
            unrated = finished.exclude(rating_steps__isnull=False).count()
            pending = PendingTask.objects.count()
            if not unrated and not pending:
                break
            if time.monotonic() - back > CATCH_UP_SECONDS:
                problems.append(
                    f"{unrated} finished game(s) unrated, {pending} task(s) still waiting "
                    f"{CATCH_UP_SECONDS} s after Redis came back"
                )
                break
            time.sleep(1)
        caught_up = time.monotonic() - back
        phases["Redis back: health checks"] = client.statuses
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGTERM)
        for worker in workers:
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
        worker_log.close()
        server.stop()
        redis.kill()

    hands = Counter(
        Hand.objects.filter(game_id__in=made["games"]).values_list("game_id", flat=True)
    )
    wrong = {g: n for g in made["games"] if (n := hands.get(g, 0)) != 2}
    if wrong:
        problems.append(f"games without exactly two hands: {wrong}")
    if finished.count() != args.games:
        problems.append(f"{args.games - finished.count()} game(s) not finished")
    errors = sum(n for counter in phases.values() for s, n in counter.items() if s >= 500)
    if errors:
        problems.append(f"{errors} answer(s) 5xx")
    return {
        "games": args.games,
        "phases": {name: dict(sorted(c.items())) for name, c in phases.items()},
        "finishing_hands_seconds": round(finishing_seconds, 2),
        "healthz_with_redis_down": health_down,
        "hands_stored": sum(hands.values()),
        "rated_games": finished.filter(rating_steps__isnull=False).distinct().count(),
        "ratings_caught_up_seconds": round(caught_up, 1),
        "server_log_problems": dict(server.log_problems()),
        "problems": problems,
        "ok": not problems,
    }


def report(r: dict) -> str:
    lines = [f"Redis stopped during hand entry: {r['games']} games, two hands each"]
    for name, statuses in r["phases"].items():
        lines.append(f"  {name}: {statuses}")
    lines += [
        f"  finishing hands with Redis down took {r['finishing_hands_seconds']} s",
        f"  /healthz with Redis down: {r['healthz_with_redis_down']}",
        f"  hands stored: {r['hands_stored']} (expected {2 * r['games']})",
        f"  games rated: {r['rated_games']} of {r['games']}, "
        f"{r['ratings_caught_up_seconds']} s after Redis came back",
        f"  gunicorn log problems: {r['server_log_problems'] or 'none'}",
    ]
    lines += [f"  PROBLEM: {p}" for p in r["problems"]]
    lines.append("OK" if r["ok"] else "FAILED")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    name = f"segnapunti_fault_{os.getpid()}"
    database_url = f"{args.postgres.rstrip('/')}/{name}"
    create_database(args.postgres, name)
    try:
        with tempfile.TemporaryDirectory(prefix="segnapunti-fault-") as tmp:
            from django_setup import setup_django

            setup_django(database_url)
            redis = Redis(free_port(), Path(tmp) / "redis.log")
            port = free_port()
            shape = argparse.Namespace(workers=2, threads=2)
            env = server_environment(
                database_url=database_url, port=port, static_root=tmp, args=shape
            )
            env |= {
                "CACHE_URL": f"redis://{HOST}:{redis.port}/0",
                "CELERY_BROKER_URL": f"redis://{HOST}:{redis.port}/1",
                "CELERY_QUEUE": name,
                "PENDING_TASKS_EVERY_SECONDS": "3",
            }
            server = Server(env, port, Path(tmp) / "gunicorn.log")
            worker_env = env | {"DJANGO_SETTINGS_MODULE": "config.settings"}
            try:
                results = run(args, server, redis, worker_env, Path(tmp))
            except BaseException:
                print(f"gunicorn log (last lines):\n{server.tail()}", file=sys.stderr)
                raise
            if not results["ok"]:
                print(f"gunicorn log (last lines):\n{server.tail(60)}", file=sys.stderr)
                worker_tail = (Path(tmp) / "worker.log").read_text(errors="replace")
                print("worker log (last lines):", *worker_tail.splitlines()[-60:], sep="\n")
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(args.postgres, name)
    print(json.dumps(results, indent=2) if args.json else report(results))
    return 0 if results["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
