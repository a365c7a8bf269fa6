"""Chaos on the production stack: PostgreSQL and Redis lost during hand entry, the Celery worker
killed with SIGKILL in the middle of a results mailing; then every invariant checked.

    .venv/bin/python bench/chaos.py [--players 40] [--postgres URL] [--json]

The stack as bench/redis_fault.py starts it: gunicorn with deploy/gunicorn.conf.py, a Celery
worker (prefork, two processes, as deploy/segnapunti-worker.service runs it) and its beat, a
Redis server of this script's own (a free port; its append-only file fsynced at every write, as a
broker that must keep its queue through a crash is configured: deploy/README.md), and a scratch
database on the machine's PostgreSQL. PostgreSQL itself is not restarted (other work uses it):
the server and the workers reach it through a TCP proxy of this script's own, and "PostgreSQL
lost" is the proxy cut: every connection reset and the port refused, as a server that stopped,
then open again.

1. A Briscola competition of ``--players`` players with an address (tables of two), a round
   drawn and published. Phones (threads) send each game's two hands through the API, each with
   its ``Idempotency-Key``, again and again until the server answers it stored. Meanwhile
   PostgreSQL is cut for 3 s, then Redis is killed (SIGKILL) for 3 s and started again.
2. The round is closed through the API: its results mailing goes to the worker. In the middle
   of it (a quarter of the e-mails sent, half way through the next; each takes 0.2 s, as an
   SMTP server answering, ``CHAOS_MAIL_DELAY``) the worker, parent
   and children, is killed with SIGKILL, and a new one started. The broker hands the task on
   after ``CELERY_VISIBILITY_TIMEOUT_SECONDS`` (30 here) and the beat check re-queues the
   stalled mailing after ``RESULTS_MAIL_STALLED_SECONDS`` (3 here), whichever comes first.

Invariants, each a PROBLEM line and exit status 1 when broken: no hand POST answered 500 (a
database that does not answer is 503 with ``Retry-After``, config/errors.py, which the phones'
outbox retries; the 5xx answers are printed by status); every game has exactly its two hands
(none lost, none doubled) and is finished, each hand answered with one number however often it
was sent; every player got their results e-mail exactly once (the backend's log,
bench/chaos_mail.py) and it is recorded once; no task left behind: the broker's queue and its
unacknowledged set empty, no task kept in the database (``PendingTask``), every game rated
and the standings counting every game.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

# bench/ is this script's first path entry: the pieces of load.py and redis_fault.py.
from load import HOST, ROOT, Server, create_database, drop_database, free_port, server_environment
from redis_fault import FINISHING, FIRST, Client, Redis, number

WAIT_SECONDS = 60
OUTAGE_SECONDS = 3
MAIL_DELAY = "0.2"
SETTINGS = {
    "CELERY_VISIBILITY_TIMEOUT_SECONDS": "30",
    "RESULTS_MAIL_STALLED_SECONDS": "3",
    "RESULTS_MAIL_CHECK_EVERY_SECONDS": "1",
    "PENDING_TASKS_EVERY_SECONDS": "2",
}


class DurableRedis(Redis):
    """A redis-server of this script's own whose queue survives SIGKILL (append-only, fsync
    always), in ``directory``."""

    def __init__(self, port: int, log: Path, directory: Path) -> None:
        super().__init__(port, log)
        self.directory = directory

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", HOST, "--save", "",
                 "--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.directory)],
                stdout=log,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        self._wait(up=True)


class Proxy:
    """A TCP proxy to PostgreSQL on ``port``: ``cut`` resets every connection and closes the
    port (a server that went away), ``restore`` opens it again."""

    def __init__(self, port: int, upstream: tuple[str, int]) -> None:
        self.port, self.upstream = port, upstream
        self.lock = threading.Lock()
        self.sockets: set[socket.socket] = set()
        self.listener: socket.socket | None = None

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((HOST, self.port))
        listener.listen(256)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        if self.listener is not None:
            with contextlib.suppress(OSError):
                self.listener.shutdown(socket.SHUT_RDWR)
            self.listener.close()
            self.listener = None
        with self.lock:
            cut, self.sockets = list(self.sockets), set()
        for sock in cut:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _address = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                self.sockets |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        with self.lock:
            self.sockets -= {source, sink}


class Celery:
    """The worker (prefork, two processes) and beat, each in a session of its own."""

    def __init__(self, env: dict[str, str], tmp: Path) -> None:
        self.env, self.tmp = env, tmp
        self.log = open(tmp / "worker.log", "ab")  # noqa: SIM115 (closed by stop)
        self.worker = self.beat = None

    def _start(self, *command: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", *command],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def start_worker(self) -> None:
        self.worker = self._start("worker", "--concurrency=2", "-l", "INFO", "--without-mingle",
                                  "--without-gossip", "-Q", self.env["CELERY_QUEUE"])  # fmt: skip

    def start_beat(self) -> None:
        self.beat = self._start("beat", "-l", "INFO", "--schedule", str(self.tmp / "beat"))

    def kill_worker(self) -> None:
        os.killpg(self.worker.pid, signal.SIGKILL)  # the parent and its children at once
        self.worker.wait()

    def stop(self) -> None:
        for process in (self.worker, self.beat):
            if process is not None and process.poll() is None:
                process.terminate()  # the parent: a warm shutdown
        for process in (self.worker, self.beat):
            if process is None:
                continue
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.log.close()


def make_competition(players: int) -> dict[str, Any]:
    """An owner with an API token, a club, a Briscola competition of ``players`` players with
    an address (tables of two), its first round drawn and published, through the services."""
    from scoring.services import queue

    with mock.patch.object(queue, "enqueue"):  # no standings nor e-mails while setting up
        return _make_competition(players)


def _make_competition(players: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scoring import services as scoring
    from scoring.services import Actor
    from tournaments import services

    owner = get_user_model().objects.create_user("chaos-owner", password="chaos-password")
    by = Actor.for_user(owner)
    club = scoring.create_club(name="Chaos club", slug="chaos", by=by)
    competition = services.create_competition(
        club=club, by=by, name="Chaos", rulesets=["briscola"], format="swiss", table_size=2,
        planned_rounds=1, scheme="placement",
    )  # fmt: skip
    addresses = []
    for i in range(players):
        entry = services.add_entry(competition=competition, player=f"Player {i + 1}", by=by)
        addresses.append(f"player{i + 1}@example.org")
        scoring.update_player(player=entry.player, by=by, email=addresses[-1])
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    return {
        "token": Token.objects.create(user=owner).key,
        "competition": competition.pk,
        "round": round_.pk,
        "games": list(round_.tables.values_list("game_id", flat=True)),
        "addresses": addresses,
    }


class Phones:
    """Threads sending every game's two hands, each until the server says it is stored."""

    def __init__(self, port: int, token: str, games: list[int], threads: int = 6) -> None:
        self.port, self.token = port, token
        self.shares = [games[i::threads] for i in range(threads)]
        self.statuses: Counter = Counter()
        self.numbers: dict[tuple[int, str], set] = {}
        self.problems: list[str] = []
        self.stored = 0
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._run, args=(s,)) for s in self.shares]

    def _send(self, client: Client, game_id: int, document: dict, key: str) -> None:
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            try:
                answer = client.hand(game_id, document, key)
            except (OSError, ValueError):
                time.sleep(0.2)
                continue
            with self.lock:
                self.statuses[answer[0]] += 1
                if answer[0] in (200, 201):
                    self.numbers.setdefault((game_id, key), set()).add(number(answer))
                    self.stored += 1
                    return
            if answer[0] < 500 and answer[0] != 429:
                self.problems.append(f"game {game_id} hand {key}: {answer[0]} {answer[1][:160]!r}")
                return
            time.sleep(0.2)
        self.problems.append(f"game {game_id} hand {key}: not stored in {WAIT_SECONDS} s")

    def _run(self, games: list[int]) -> None:
        client = Client(self.port, self.token)
        for game_id in games:
            for document, key in ((FIRST, f"first-{game_id}"), (FINISHING, f"last-{game_id}")):
                self._send(client, game_id, document, key)
                # Each hand sent once more, as a phone that lost the answer does.
                self._send(client, game_id, document, key)

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def wait_for(self, stored: int) -> None:
        deadline = time.monotonic() + WAIT_SECONDS
        while self.stored < stored and time.monotonic() < deadline:
            time.sleep(0.05)

    def join(self) -> None:
        for thread in self.threads:
            thread.join()


def hand_entry(made: dict, server: Server, proxy: Proxy, redis: Redis) -> dict[str, Any]:
    """Phase 1: both hands of every game, PostgreSQL cut and Redis killed meanwhile."""
    phones = Phones(server.port, made["token"], made["games"])
    total = 4 * len(made["games"])  # two hands, each sent twice
    began = time.monotonic()
    phones.start()
    phones.wait_for(total // 5)
    proxy.cut()
    time.sleep(OUTAGE_SECONDS)
    proxy.restore()
    phones.wait_for(total // 2)
    redis.kill()
    time.sleep(OUTAGE_SECONDS)
    redis.start()
    phones.join()
    doubled = {k: n for k, n in phones.numbers.items() if len(n) != 1}
    problems = phones.problems + [f"hand {k} answered with numbers {n}" for k, n in doubled.items()]
    server_errors = {s: n for s, n in sorted(phones.statuses.items()) if s >= 500}
    if crashes := server_errors.get(500):
        problems.append(f"{crashes} hand POST(s) answered 500 during the faults (a lost database"
                        " is 503 with Retry-After, which the phones' outbox retries)")  # fmt: skip
    return {
        "statuses": dict(sorted(phones.statuses.items())),
        "server_errors": server_errors,
        "seconds": round(time.monotonic() - began, 1),
        "problems": problems,
    }


def mail_lines(path: Path) -> list[dict]:
    try:
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    except FileNotFoundError:
        return []


def mailing(made: dict, server: Server, celery: Celery, mail_log: Path) -> dict[str, Any]:
    """Phase 2: the round closed, its worker killed in the middle of the results mailing."""
    from tournaments.models import ResultsMail

    client = Client(server.port, made["token"])
    path = f"/api/v1/competitions/{made['competition']}/rounds/1/close/"
    status, body = client.call("POST", path, {}, Authorization=f"Token {made['token']}")
    problems = [] if status == 200 else [f"closing the round answered {status} {body[:200]!r}"]
    expected = len(made["addresses"])
    deadline = time.monotonic() + WAIT_SECONDS
    while len(mail_lines(mail_log)) < expected // 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    # Half an e-mail later: the worker is talking to the SMTP server about the next one (the
    # last one's record committed; see deploy/README.md for the few milliseconds in between).
    time.sleep(float(MAIL_DELAY) / 2)
    celery.kill_worker()
    at_kill = len(mail_lines(mail_log))
    restarted = time.monotonic()
    celery.start_worker()
    mails = ResultsMail.objects.filter(round_id=made["round"])
    while mails.count() < expected and time.monotonic() - restarted < WAIT_SECONDS:
        time.sleep(0.2)
    completed = time.monotonic() - restarted
    lines = mail_lines(mail_log)
    results = Counter(line["to"] for line in lines)  # the worker sends nothing else here
    if sorted(results) != sorted(made["addresses"]):
        problems.append(f"{expected - len(results)} player(s) without their results e-mail")
    if twice := {to: n for to, n in results.items() if n > 1}:
        problems.append(f"results e-mails sent more than once: {twice}")
    if mails.count() != expected:
        problems.append(f"{mails.count()} results e-mails recorded, {expected} expected")
    return {
        "expected": expected,
        "sent_before_the_kill": at_kill,
        "sent_after": sum(results.values()) - at_kill,
        "senders": len({line["pid"] for line in lines}),
        "completed_seconds_after_new_worker": round(completed, 1),
        "problems": problems,
    }


def left_behind(made: dict, redis_port: int, queue: str) -> dict[str, Any]:
    """Wait until no task is left (queue, unacknowledged, kept, ratings, standings)."""
    import redis as redis_client

    from scoring.models import Game, GameStatus, Hand, PendingTask
    from tournaments.models import StandingsSnapshot

    broker = redis_client.Redis(host=HOST, port=redis_port, db=1)
    games = made["games"]
    began = time.monotonic()
    while True:
        left = {
            "queued": broker.llen(queue),
            "unacknowledged": broker.hlen("unacked"),
            "kept": PendingTask.objects.count(),
            "unrated": Game.objects.filter(pk__in=games)
            .exclude(rating_steps__isnull=False)
            .count(),
        }
        snapshot = StandingsSnapshot.objects.filter(competition_id=made["competition"]).first()
        counted = snapshot.data.get("games_counted") if snapshot else None
        left["standings_missing_games"] = len(games) - (counted or 0)
        if not any(left.values()) or time.monotonic() - began > WAIT_SECONDS:
            break
        time.sleep(0.5)
    problems = [f"{n} {what} {WAIT_SECONDS} s after the faults" for what, n in left.items() if n]
    hands = Counter(Hand.objects.filter(game_id__in=games).values_list("game_id", flat=True))
    if wrong := {g: n for g in games if (n := hands.get(g, 0)) != 2}:
        problems.append(f"games without exactly two hands: {wrong}")
    finished = Game.objects.filter(pk__in=games, status=GameStatus.FINISHED).count()
    if finished != len(games):
        problems.append(f"{len(games) - finished} game(s) not finished")
    return {
        "hands_stored": sum(hands.values()),
        "all_done_seconds": round(time.monotonic() - began, 1),
        "problems": problems,
    }


def run(args, env: dict[str, str], tmp: Path, proxy: Proxy, redis: Redis) -> dict[str, Any]:
    began = time.monotonic()
    django_env = env | {"DJANGO_SETTINGS_MODULE": "config.settings"}
    # The static files collected as deploy/README.md does.
    collect = subprocess.Popen(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT, env=django_env,
    )  # fmt: skip
    made: dict[str, Any] = {}
    maker = threading.Thread(target=lambda: made.update(make_competition(args.players)))
    maker.start()  # the data made while the stack starts
    if collect.wait() != 0:
        raise RuntimeError("collectstatic failed")
    redis.start()
    server = Server(env, int(env["GUNICORN_BIND"].rsplit(":", 1)[1]), tmp / "gunicorn.log")
    celery = Celery(django_env, tmp)
    results: dict[str, Any] = {"players": args.players}
    try:
        server.start()
        celery.start_worker()
        celery.start_beat()
        maker.join()
        if not made:
            raise RuntimeError("the competition was not made (the error is above)")
        results["games"] = len(made["games"])
        results["setup_seconds"] = round(time.monotonic() - began, 1)
        results["hand_entry"] = hand_entry(made, server, proxy, redis)
        results["mailing"] = mailing(made, server, celery, tmp / "mail.log")
        results["left_behind"] = left_behind(made, redis.port, env["CELERY_QUEUE"])
    finally:
        celery.stop()
        server.stop()
        redis.kill()
    results["server_log_problems"] = dict(server.log_problems())
    results["problems"] = [p for part in ("hand_entry", "mailing", "left_behind")
                           for p in results.get(part, {}).get("problems", [])]  # fmt: skip
    results["ok"] = not results["problems"]
    if not results["ok"]:
        print(f"gunicorn log (last lines):\n{server.tail(40)}", file=sys.stderr)
        worker_log = (tmp / "worker.log").read_text(errors="replace").splitlines()
        print("worker log (last lines):", *worker_log[-60:], sep="\n", file=sys.stderr)
    return results


def report(r: dict) -> str:
    hands, mail, left = r["hand_entry"], r["mailing"], r["left_behind"]
    lines = [
        f"Chaos: {r['players']} players, {r['games']} games of two hands (each sent twice); "
        f"database migrated in {r['migrate_seconds']} s, data and stack ready {r['setup_seconds']} s later",
        f"  hand entry, PostgreSQL cut {OUTAGE_SECONDS} s then Redis killed {OUTAGE_SECONDS} s:"
        f" {hands['statuses']} in {hands['seconds']} s",
        f"  5xx answers by status: {hands['server_errors'] or 'none'} (500: FAILED; 503 expected)",
        f"  hands stored: {left['hands_stored']} (expected {2 * r['games']})",
        f"  results mailing: worker killed (SIGKILL) after {mail['sent_before_the_kill']} of "
        f"{mail['expected']} e-mails; {mail['sent_after']} more sent by the new worker, all "
        f"recorded {mail['completed_seconds_after_new_worker']} s after it started "
        f"({mail['senders']} sending processes)",
        f"  nothing left behind (queue, unacknowledged, kept tasks, ratings, standings) "
        f"{left['all_done_seconds']} s later",
        f"  gunicorn log problems: {r['server_log_problems'] or 'none'}",
    ]
    lines += [f"  PROBLEM: {p}" for p in r["problems"]]
    lines.append(("OK" if r["ok"] else "FAILED") + f" in {r['run_seconds']} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    began = time.monotonic()
    name = f"segnapunti_chaos_{os.getpid()}"
    url = urllib.parse.urlsplit(args.postgres)
    proxy = Proxy(free_port(), (url.hostname or HOST, url.port or 5432))
    proxied = f"{url.scheme}://{url.username or 'postgres'}@{HOST}:{proxy.port}/{name}"
    create_database(args.postgres, name)
    os.environ["EMAIL_BACKEND"] = "dummy"  # the announcements sent while this script sets up
    try:
        with tempfile.TemporaryDirectory(prefix="segnapunti-chaos-") as tmp:
            from django_setup import setup_django

            setup_django(f"{args.postgres.rstrip('/')}/{name}")
            migrated = time.monotonic() - began
            proxy.restore()
            redis = DurableRedis(free_port(), Path(tmp) / "redis.log", Path(tmp))
            port = free_port()
            shape = argparse.Namespace(workers=2, threads=2)
            env = server_environment(database_url=proxied, port=port, static_root=tmp, args=shape)
            env |= SETTINGS | {
                "CACHE_URL": f"redis://{HOST}:{redis.port}/0",
                "CELERY_BROKER_URL": f"redis://{HOST}:{redis.port}/1",
                "CELERY_QUEUE": name,
                "EMAIL_BACKEND": "bench.chaos_mail.EmailBackend",
                "CHAOS_MAIL_LOG": str(Path(tmp) / "mail.log"),
                "CHAOS_MAIL_DELAY": MAIL_DELAY,
            }
            results = run(args, env, Path(tmp), proxy, redis)
    finally:
        proxy.cut()
        from django.db import connections

        connections.close_all()
        drop_database(args.postgres, name)
    results["run_seconds"] = round(time.monotonic() - began, 1)
    results["migrate_seconds"] = round(migrated, 1)
    print(json.dumps(results, indent=2) if args.json else report(results))
    return 0 if results["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
