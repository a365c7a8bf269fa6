"""Many phones entering hands at once, on the real stack: gunicorn, PostgreSQL, dropped answers
and a server restart; then the database is compared with what the phones believe.

    .venv/bin/python bench/load.py [--phones 200] [--hands 20] [--drop-rate 0.2]
        [--dup-rate 0.05] [--no-restart] [--json] [--workers N] [--threads N]

What it does, in order:

1. Creates a scratch PostgreSQL database (``--postgres``, default the local server as user
   postgres), named after this process's pid, and migrates it. A scorer with an API token, a club
   and one Terziglio game per phone (``target_score`` 1000, so no game ends) are made through
   the services. Every tenth pair of phones shares one game, as two phones at one table; those
   games have ``free_dealer`` so that both phones' hands fit in whatever order they arrive.
2. Starts ``gunicorn -c deploy/gunicorn.conf.py config.wsgi`` with the production environment
   of ``deploy/env.example`` (DEBUG off, ``DATABASE_CONN_MAX_AGE``...), where only what names a
   site changes: a random SECRET_KEY, the local host, the scratch database, no HTTPS redirect,
   no broker (Celery runs eagerly) and console e-mail. ``bench/load_settings.py`` adds one bare
   JSON view (``/bench/bare``) to the site's URLs; nothing else differs.
3. Hand phase: each phone (an asyncio task with its own keep-alive connection; the client is a
   small HTTP/1.1 writer on asyncio streams, cheaper per request than any client library) types
   ``--hands`` hands, built with the rules engine from its own copy of the game, and sends them
   in order as the phone's outbox does, each with an ``Idempotency-Key``. About ``--drop-rate``
   of the sends lose their answer (the phone closes the connection before reading it, or reads
   and ignores it) and are sent again with the same key after a short pause; ``--dup-rate`` of
   the hands are sent twice at once on two connections. Once half the hands are acknowledged,
   gunicorn is stopped (SIGTERM, graceful) and started again; the phones retry through it.
4. Bare phase: the same phones ask ``GET /bench/bare`` ``--bare-requests`` times each, on the
   same server, so that both throughputs are measured the same way.
   Floor phase: as many phones each ``POST /bench/floor/<game>/`` ``--bare-requests`` times, on
   games of their own: a hand entry's database work alone (the lock and the four writes, with
   the statements of a hand POST) behind the same middleware, with no token, no rules, no
   validation (``bench/load_urls.py``). What it reaches, beside the bare view, is the most any
   hand POST could reach on this server and database.
5. The database is compared with the phones: hands typed, acknowledged, stored, lost
   (typed, acknowledged or not, and not stored), doubled (stored hands no typed key accounts
   for), games whose cached totals differ from a replay of their stored hands or from what the
   phones computed, answers that disagree with the phone, 5xx answers; p50/p95 of hand POSTs
   and the throughputs. Throughput is counted over the middle 80% of the answers (no ramp-up,
   no stragglers), minus the restart; the CPU use of the client and of the whole machine is
   printed beside it, to show whether the client or the machine was the limit. Beside them,
   what the machine's other work cannot skew: the server's own CPU per request (the gunicorn
   processes this bench started, and the scratch database's PostgreSQL backends, read from
   /proc; a restart's start-up left out), and the queries of one hand entry. With every
   phone sending as soon as it is answered, the latencies are mostly queueing: about the number
   of phones divided by the throughput.
6. Stops gunicorn and drops the scratch database, also after a failure or Ctrl-C.

Steady hand phase, last: the same phones type ``--bare-requests`` more hands each and send them
as the floor phase sends its POSTs (every phone at once on its keep-alive connection, no answer
dropped, none sent twice, no restart, the workers warm), so that the hand POST and the floor
view compare like for like: the hand phase above also pays for the reconnections after dropped
answers, the resends and the new workers' first requests, which the floor phase never sees.

Targets at 200 phones: 0 lost, 0 doubled, 0 wrong totals, 0 5xx; hand POST throughput at least
half the bare view's, and at least 0.8 of the floor view's in the steady phases, with the server
CPU of each beside it (target: a hand at most 1.25 times the floor's). The exit status is 1 when one of the data targets, or the hand/floor one, is
missed (not the throughput against the bare view, which depends on the machine).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
RULESET = "terziglio"
PLAYERS = ("Anna", "Bruno", "Carla")
#: The hand POST's throughput at least this share of the floor view's (the same writes with no
#: rules, validation or token): its own Python costs at most a quarter as much again.
HAND_FLOOR_TARGET = 0.8
#: Far above what the phones' balanced hands can reach: no game ends during the bench.
TARGET_SCORE = 1000
SHARED_PAIR_EVERY = 10
BARE_PATH = "/bench/bare"
FLOOR_PATH = "/bench/floor/"
REQUEST_TIMEOUT = 30.0
START_TIMEOUT = 180.0
#: How long a phone keeps retrying one hand before it gives up (the hand then counts as lost).
GIVE_UP_AFTER = 180.0
#: What the environment of deploy/env.example names about one site, replaced for the bench.
SITE_ENV = (
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SITE_URL",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "EMAIL_BACKEND",
    "STATIC_ROOT",
    "SECURE_SSL_REDIRECT",
)


# ---------------------------------------------------------------------------------------------
# Pure pieces (tests/bench/test_load.py)


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (0.0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * fraction // 1))
    return ordered[int(rank) - 1]


def game_of_phones(phones: int) -> list[int]:
    """The game index of each phone: every ``SHARED_PAIR_EVERY``-th pair of phones (0 and 1,
    20 and 21, ...) shares one game; every other phone has its own."""
    games: list[int] = []
    for phone in range(phones):
        pair = phone // 2
        shared = pair % SHARED_PAIR_EVERY == 0 and pair * 2 + 1 < phones
        if shared and phone % 2 == 1:
            games.append(games[-1])
        else:
            games.append(len(set(games)))
    return games


def game_options(shared: bool) -> dict[str, Any]:
    return {"target_score": TARGET_SCORE, "free_dealer": shared}


def new_local_game(shared: bool):
    """The phone's own copy of its game (the hands it typed), scored by the rules engine."""
    from scoring.rules import engine, get

    rules = get(RULESET)
    return engine.start(rules, rules.resolve_options(game_options(shared), len(PLAYERS)), 3)


def next_hand(game, rng: random.Random) -> dict[str, Any]:
    """A valid next Terziglio hand for ``game`` (a ScoredGame): the dealer the engine expects
    (any seat for the first hand), sometimes passed out; otherwise a chiamo or solo whose
    outcome pulls the soloist's total back towards 0, so that no total nears the target."""
    dealer = game.next_dealer
    if dealer is None:
        dealer = rng.randrange(game.n)
    if rng.random() < 0.15:
        return {"dealer": dealer, "outcome": "passed_out"}
    soloist = rng.randrange(game.n)
    total = game.totals[soloist]
    made = rng.random() < 0.5 if total == 0 else total < 0
    return {
        "dealer": dealer,
        "outcome": "played",
        "soloist": soloist,
        "contract": rng.choice(("chiamo", "solo")),
        "soloist_points": rng.randint(6, 10) if made else rng.randint(1, 5),
    }


def http_request(method: str, path: str, *, port: int, body: bytes = b"", headers=()) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", *headers]
    if body or method == "POST":
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    """Status code and headers (lower-case names) of an HTTP/1.1 response head."""
    status_line, *header_lines = head.decode("latin-1").rstrip("\r\n").split("\r\n")
    version, code, *_reason = status_line.split(" ", 2)
    if not version.startswith("HTTP/1."):
        raise ValueError(f"not an HTTP/1.x response: {status_line!r}")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(code), headers


@dataclass
class Typed:
    """A hand typed on a phone: its key, its normalised document, and what the phone learnt."""

    key: str
    document: dict[str, Any]
    acknowledged: bool = False
    number: int | None = None
    #: what the phone's own copy of the game says once this hand is in: its number and totals
    expected_number: int | None = None
    expected_totals: tuple[int, ...] | None = None


@dataclass(frozen=True)
class StoredGame:
    """One game as the database holds it, and as the phones see it."""

    typed: tuple[Typed, ...]
    #: hand number -> stored document
    hands: Mapping[int, Any]
    #: idempotency key -> (game index, hand number) of its stored first answer
    records: Mapping[str, tuple[int, int]]
    index: int
    cached_totals: tuple[int, ...]
    replayed_totals: tuple[int, ...] | None
    summed_deltas: tuple[int, ...]
    phone_totals: tuple[int, ...]


@dataclass
class Tally:
    typed: int = 0
    acknowledged: int = 0
    stored: int = 0
    lost_acknowledged: int = 0
    lost_unacknowledged: int = 0
    doubled: int = 0
    wrong_totals: int = 0
    examples: list[str] = field(default_factory=list)

    @property
    def lost(self) -> int:
        return self.lost_acknowledged + self.lost_unacknowledged


def reconcile(games: Sequence[StoredGame]) -> Tally:
    """Compare every game's stored hands with the hands its phones typed.

    A typed hand is stored when its key's record points at this game and at a hand that holds
    its document; otherwise it is lost (acknowledged or not). A stored hand that no typed key
    accounts for is doubled. A game's totals are wrong when the cached totals differ from a
    replay of its stored hands, from the sum of their deltas, or from the phones' own totals."""
    tally = Tally()
    for game in games:
        accounted: set[int] = set()
        for hand in game.typed:
            tally.typed += 1
            tally.acknowledged += hand.acknowledged
            record = game.records.get(hand.key)
            ok = (
                record is not None
                and record[0] == game.index
                and game.hands.get(record[1]) == hand.document
                and record[1] not in accounted
            )
            if ok:
                accounted.add(record[1])
            elif hand.acknowledged:
                tally.lost_acknowledged += 1
                tally.examples.append(f"game {game.index}: acknowledged hand {hand.key} lost")
            else:
                tally.lost_unacknowledged += 1
                tally.examples.append(f"game {game.index}: typed hand {hand.key} lost")
        tally.stored += len(game.hands)
        extra = len(game.hands) - len(accounted)
        if extra:
            tally.doubled += extra
            tally.examples.append(f"game {game.index}: {extra} stored hand(s) nobody typed")
        figures = {game.replayed_totals, game.summed_deltas, game.phone_totals}
        if figures != {game.cached_totals}:
            tally.wrong_totals += 1
            tally.examples.append(
                f"game {game.index}: cached {list(game.cached_totals)}, replay "
                f"{game.replayed_totals and list(game.replayed_totals)}, deltas "
                f"{list(game.summed_deltas)}, phones {list(game.phone_totals)}"
            )
    return tally


def cpu_jiffies() -> tuple[int, int]:
    """(busy, total) CPU time of the whole machine so far, from /proc/stat (0, 0 elsewhere)."""
    try:
        with open("/proc/stat") as stat:
            values = [int(v) for v in stat.readline().split()[1:]]
    except OSError:
        return 0, 0
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return sum(values) - idle, sum(values)


@dataclass
class Meter:
    """Wall time, client CPU and machine CPU over a phase."""

    wall: float = field(default_factory=time.monotonic)
    cpu: float = field(default_factory=time.process_time)
    machine: tuple[int, int] = field(default_factory=cpu_jiffies)

    def read(self) -> dict[str, float]:
        wall = time.monotonic() - self.wall
        busy, total = (now - then for now, then in zip(cpu_jiffies(), self.machine, strict=True))
        return {
            "seconds": wall,
            "client_cpu_percent_of_one_core": 100 * (time.process_time() - self.cpu) / wall,
            "machine_cpu_busy_percent": 100 * busy / total if total else 0.0,
        }


def _process_ticks(pid: str) -> tuple[int, int, str] | None:
    """(session id, user + system clock ticks, command line) of one process, None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    return int(fields[3]), int(fields[11]) + int(fields[12]), command


class ServerCpu:
    """CPU time spent by the server only, whatever else the machine runs: the gunicorn processes
    this bench started (their sessions) and the PostgreSQL backends of the scratch database (their
    titles name it). Sampled every ``every`` seconds from /proc, so a process that ends loses at
    most its last interval; ``read`` gives the seconds of each since ``mark``. Zero elsewhere."""

    def __init__(self, server: Server, database: str, every: float = 0.2) -> None:
        self.server, self.database, self.every = server, database, every
        self.seen: dict[str, tuple[str, int]] = {}  # pid -> (kind, ticks)
        self.base: dict[str, int] = {}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.hz = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def _sample(self) -> None:
        try:
            pids = [p for p in os.listdir("/proc") if p.isdigit()]
        except OSError:
            return
        title = f" {self.database} "
        for pid in pids:
            found = _process_ticks(pid)
            if found is None:
                continue
            session, ticks, command = found
            if session in self.server.sessions:
                self.seen[pid] = ("gunicorn", ticks)
            elif command.startswith("postgres:") and title in command:
                self.seen[pid] = ("postgres", ticks)

    def _loop(self) -> None:
        while not self.stopping.wait(self.every):
            self._sample()

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join()

    def mark(self, *, keep: bool = False) -> None:
        """Count from now on (``keep``: on top of what was counted so far)."""
        kept = self.read() if keep else {}
        self._sample()
        self.base = {pid: ticks for pid, (_kind, ticks) in self.seen.items()}
        self.kept = kept

    def read(self) -> dict[str, float]:
        self._sample()
        spent = Counter()
        for pid, (kind, ticks) in self.seen.items():
            spent[kind] += ticks - self.base.get(pid, 0)
        kept = getattr(self, "kept", {})
        return {k: spent[k] / self.hz + kept.get(k, 0.0) for k in ("gunicorn", "postgres")}


# ---------------------------------------------------------------------------------------------
# The client: one keep-alive HTTP/1.1 connection on asyncio streams


#: A connection refused, reset or closed under the phone, a timeout (an OSError), a garbled answer.
NETWORK_ERRORS = (OSError, asyncio.IncompleteReadError, ValueError)


class Dropped(Exception):
    """The phone threw the answer away (it never learns what the server said)."""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Connection:
    """One keep-alive HTTP/1.1 connection. Requests on it take turns (no pipelining): a phone
    whose send and resend share a connection waits for the first answer before the second."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.turn = asyncio.Lock()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def exchange(self, raw: bytes, *, drop: str | None = None) -> Answer:
        """Send ``raw`` and read the answer. ``drop="close"`` closes the connection as soon as
        the request is sent; ``drop="ignore"`` reads the answer and throws it away."""
        async with self.turn:
            return await self._exchange(raw, drop=drop)

    async def _exchange(self, raw: bytes, *, drop: str | None = None) -> Answer:
        try:
            if self.writer is None or self.writer.is_closing():
                self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            assert self.reader is not None
            self.writer.write(raw)
            await self.writer.drain()
            if drop == "close":
                self.close()
                raise Dropped
            answer = await asyncio.wait_for(self._read(self.reader), REQUEST_TIMEOUT)
        except Dropped:
            raise
        except NETWORK_ERRORS:
            self.close()
            raise
        if answer.headers.get("connection", "").lower() == "close":
            self.close()
        if drop == "ignore":
            raise Dropped
        return answer

    @staticmethod
    async def _read(reader: asyncio.StreamReader) -> Answer:
        status, headers = parse_head(await reader.readuntil(b"\r\n\r\n"))
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                parts.append(await reader.readexactly(size))
                await reader.readexactly(2)
            await reader.readuntil(b"\r\n")
            body = b"".join(parts)
        else:
            body = await reader.read()
        return Answer(status, headers, body)


# ---------------------------------------------------------------------------------------------
# The server


class Server:
    """gunicorn with deploy/gunicorn.conf.py, started and stopped by this process only."""

    def __init__(self, env: dict[str, str], port: int, log: Path) -> None:
        self.env, self.port, self.log = env, port, log
        self.process: subprocess.Popen | None = None
        #: session ids of every gunicorn started (its master's pid: start_new_session)
        self.sessions: set[int] = set()
        #: seconds each stop and start took
        self.timings: list[tuple[str, float]] = []

    def start(self) -> None:
        began = time.monotonic()
        command = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py"]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [*command, "config.wsgi"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.sessions.add(self.process.pid)
        # The probe waits its turn behind the phones that are already retrying.
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("gunicorn exited at start-up (its log is below)")
            with (
                contextlib.suppress(OSError),
                socket.create_connection((HOST, self.port), timeout=REQUEST_TIMEOUT) as sock,
            ):
                sock.sendall(http_request("GET", BARE_PATH, port=self.port))
                if sock.recv(64).startswith(b"HTTP/1.1 200"):
                    self.timings.append(("start", time.monotonic() - began))
                    return
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer within {START_TIMEOUT} s (its log is below)")

    def stop(self) -> None:
        """Graceful stop (SIGTERM: the workers finish what they are serving), then wait."""
        if self.process is None or self.process.poll() is not None:
            return
        began = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=45)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)  # our own session: gunicorn and workers
            self.process.wait()
        self.timings.append(("stop", time.monotonic() - began))

    def restart(self) -> None:
        self.stop()
        self.start()

    def tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def log_problems(self) -> Counter:
        """Lines of the gunicorn log that show trouble, by kind."""
        kinds = Counter()
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return kinds
        for line in text.splitlines():
            if "WORKER TIMEOUT" in line:
                kinds["worker timeouts"] += 1
            elif "Traceback" in line:
                kinds["tracebacks"] += 1
            elif "[CRITICAL]" in line or " CRITICAL gunicorn." in line:
                kinds["critical"] += 1
        return kinds


def server_environment(*, database_url: str, port: int, static_root: str, args) -> dict[str, str]:
    """deploy/env.example with what names a site replaced for this bench."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "GUNICORN_"))}
    for line in (ROOT / "deploy" / "env.example").read_text().splitlines():
        name, sep, value = line.partition("=")
        if sep and not name.startswith("#"):
            env[name.strip()] = value.strip()
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=f"{HOST},localhost",
        CSRF_TRUSTED_ORIGINS=f"http://{HOST}:{port}",
        SITE_URL=f"http://{HOST}:{port}",
        DATABASE_URL=database_url,
        CELERY_BROKER_URL="",
        EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend",
        STATIC_ROOT=static_root,
        SECURE_SSL_REDIRECT="false",
        DJANGO_SETTINGS_MODULE="bench.load_settings",
        GUNICORN_BIND=f"{HOST}:{port}",
    )
    if args.workers:
        env["GUNICORN_WORKERS"] = str(args.workers)
    if args.threads:
        env["GUNICORN_THREADS"] = str(args.threads)
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


# ---------------------------------------------------------------------------------------------
# The phones


@dataclass
class Phone:
    index: int
    game_index: int
    game_id: int
    shared: bool
    rng: random.Random
    local: Any = None
    typed: list[Typed] = field(default_factory=list)
    finished_at: float | None = None


@dataclass
class Run:
    """What happened during one phase, as the phones saw it."""

    port: int
    token: str
    drop_rate: float
    dup_rate: float
    statuses: Counter = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    #: completion time of every answered request
    answered_at: list[float] = field(default_factory=list)
    connection_errors: int = 0
    dropped: int = 0
    sent_twice: int = 0
    twice_disagree: int = 0
    disagree: int = 0
    refused: list[str] = field(default_factory=list)
    acknowledged: int = 0
    half: asyncio.Event = field(default_factory=asyncio.Event)
    half_at: int = 0


async def send_hand(phone: Phone, hand: Typed, conn: Connection, run: Run) -> None:
    """Send one typed hand until it is acknowledged (or refused, or given up), as the outbox."""
    body = json.dumps(hand.document, separators=(",", ":")).encode()
    headers = (f"Authorization: Token {run.token}", f"Idempotency-Key: {hand.key}")
    raw = http_request(
        "POST", f"/api/v1/games/{phone.game_id}/hands/", port=run.port, body=body, headers=headers
    )
    give_up = time.monotonic() + GIVE_UP_AFTER
    attempt = 0
    while time.monotonic() < give_up:
        attempt += 1
        drop = None
        if attempt < 6 and phone.rng.random() < run.drop_rate:
            drop = phone.rng.choice(("close", "ignore"))
        twice = attempt == 1 and phone.rng.random() < run.dup_rate
        start = time.monotonic()
        try:
            if twice:
                run.sent_twice += 1
                other = Connection(run.port)
                try:
                    answers = await asyncio.gather(conn.exchange(raw), other.exchange(raw))
                finally:
                    other.close()
                for answer in answers:
                    note(run, answer, start)
                if len({a.status for a in answers}) > 1 or (
                    answers[0].status == 201
                    and answers[0].json()["number"] != answers[1].json()["number"]
                ):
                    run.twice_disagree += 1
                answer = answers[0]
            else:
                answer = await conn.exchange(raw, drop=drop)
                note(run, answer, start)
        except Dropped:
            run.dropped += 1
            await asyncio.sleep(phone.rng.uniform(0.05, 0.5))
            continue
        except NETWORK_ERRORS:
            run.connection_errors += 1
            await asyncio.sleep(min(2.0, phone.rng.uniform(0.1, 0.3) * attempt))
            continue
        if answer.status == 201:
            payload = answer.json()
            hand.acknowledged, hand.number = True, payload["number"]
            if payload["document"] != hand.document or (
                not phone.shared
                and (
                    payload["number"] != hand.expected_number
                    or payload["totals"] != list(hand.expected_totals or ())
                )
            ):
                run.disagree += 1
            run.acknowledged += 1
            if run.acknowledged == run.half_at:
                run.half.set()
            return
        if answer.status >= 500:
            await asyncio.sleep(min(2.0, 0.1 * attempt))
            continue
        run.refused.append(f"phone {phone.index}: HTTP {answer.status} {answer.body[:300]!r}")
        return


def note(run: Run, answer: Answer, start: float) -> None:
    now = time.monotonic()
    run.statuses[answer.status] += 1
    run.latencies.append(now - start)
    run.answered_at.append(now)


def type_hands(phone: Phone, hands: int) -> None:
    """The phone's ``hands`` hands, typed before the phase starts (``phone.typed``), each scored
    on the phone's own copy of the game. Typing is the player's work, not the server's: done
    here, the client's CPU during the phase is only sending and checking, as little of the
    machine as the bench can leave to the server it measures."""
    from scoring.rules import engine

    for _ in range(hands):
        phone.local = engine.play(phone.local, next_hand(phone.local, phone.rng))
        phone.typed.append(
            Typed(
                key=str(uuid.UUID(int=phone.rng.getrandbits(128), version=4)),
                document=dict(phone.local.hands[-1].document),
                expected_number=len(phone.local.hands),
                expected_totals=tuple(phone.local.totals),
            )
        )


async def phone_hands(phone: Phone, run: Run) -> None:
    """Send the phone's typed hands in order, as its outbox does."""
    conn = Connection(run.port)
    try:
        for hand in phone.typed:
            await send_hand(phone, hand, conn, run)
    finally:
        conn.close()
        phone.finished_at = time.monotonic()


async def steady_hand_phase(phones: list[Phone], first: dict[int, int], run: Run) -> dict[str, Any]:
    """Every phone sends its hands typed from ``first[phone.index]`` on, as the floor phase
    sends its POSTs (``run`` drops nothing and sends nothing twice)."""

    async def one(phone: Phone) -> None:
        conn = Connection(run.port)
        try:
            for hand in phone.typed[first[phone.index] :]:
                await send_hand(phone, hand, conn, run)
        finally:
            conn.close()

    meter = Meter()
    await asyncio.gather(*(one(phone) for phone in phones))
    figures = meter.read()
    figures["throughput"] = steady_rate(run.answered_at)
    return figures


async def ask(make_request: Callable[[], bytes], requests: int, run: Run) -> None:
    """One phone sending ``requests`` requests in turn on its keep-alive connection, as fast as
    it is answered: no drops, no resends (the bare and floor phases)."""
    conn = Connection(run.port)
    try:
        for _ in range(requests):
            raw = make_request()
            start = time.monotonic()
            try:
                note(run, await conn.exchange(raw), start)
            except NETWORK_ERRORS:
                run.connection_errors += 1
    finally:
        conn.close()


async def steady_phase(
    makers: Sequence[Callable[[], bytes]], requests: int, run: Run
) -> dict[str, Any]:
    """A phone per request maker, each sending ``requests`` requests (``ask``)."""
    meter = Meter()
    await asyncio.gather(*(ask(make, requests, run) for make in makers))
    figures = meter.read()
    figures["throughput"] = steady_rate(run.answered_at)
    return figures


def bare_request(port: int) -> Callable[[], bytes]:
    raw = http_request("GET", BARE_PATH, port=port)
    return lambda: raw


def floor_request(port: int, game_id: int) -> Callable[[], bytes]:
    """A floor POST on ``game_id``, each with a new key (a hand's idempotency record)."""
    return lambda: http_request(
        "POST",
        f"{FLOOR_PATH}{game_id}/",
        port=port,
        headers=(f"Idempotency-Key: {uuid.uuid4()}",),
    )


def steady_rate(answered_at: Sequence[float], pause: tuple[float, float] | None = None) -> float:
    """Answers per second over the middle 80% of the answers (from the 10th to the 90th
    percentile of their times: no ramp-up, no stragglers), without the restart (from its SIGTERM
    until the new server answered) when it falls in that span."""
    times = sorted(answered_at)
    if len(times) < 2:
        return 0.0
    first, last = len(times) // 10, len(times) - 1 - len(times) // 10
    seconds = times[last] - times[first]
    if pause is not None:
        seconds -= max(0.0, min(times[last], pause[1]) - max(times[first], pause[0]))
    return (last - first) / seconds if seconds > 0 else 0.0


async def hand_phase(
    phones: list[Phone], args, server: Server, run: Run, cpu: ServerCpu
) -> dict[str, Any]:
    run.half_at = max(1, len(phones) * args.hands // 2)
    pause: list[float] = []

    async def restarter() -> None:
        await run.half.wait()
        pause.append(time.monotonic())
        counted = (
            cpu.read()
        )  # the restart's own CPU (a new master importing Django) is not a hand's
        await asyncio.to_thread(server.restart)
        cpu.mark()
        cpu.kept = counted
        pause.append(time.monotonic())

    meter = Meter()
    tasks = [asyncio.create_task(phone_hands(p, run)) for p in phones]
    restart = asyncio.create_task(restarter()) if not args.no_restart else None
    await asyncio.gather(*tasks)
    if restart is not None:
        await restart
    figures = meter.read()
    window = (pause[0], pause[1]) if len(pause) == 2 else None
    figures["throughput"] = steady_rate(run.answered_at, window)
    figures["restart_seconds"] = window[1] - window[0] if window else None
    figures["restart_steps"] = dict(server.timings[-2:]) if window else None
    return figures


# ---------------------------------------------------------------------------------------------
# Set-up, comparison, report


def create_database(base_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(base_url.rstrip("/") + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(base_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(base_url.rstrip("/") + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def make_games(phone_games: list[int]) -> tuple[str, int, list[int], list[bool]]:
    """A scorer with an API token, a club and the games; returns (token, user id, game ids,
    shared flags)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from scoring import services
    from scoring.models import Role
    from scoring.services import Actor, members

    users = get_user_model().objects
    owner = users.create_user("bench-owner", password=None)
    scorer = users.create_user("bench-scorer", password=None)
    club = services.create_club(name="Bench club", slug="bench", by=Actor.for_user(owner))
    invited = members.invite(club=club, by=Actor.for_user(owner), role=Role.SCORER)
    members.accept_invitation(token=invited.token, by=Actor.for_user(scorer))
    token = Token.objects.create(user=scorer)
    per_game = Counter(phone_games)
    ids, shared = [], []
    for index in range(len(per_game)):
        game = services.start_game(
            club=club,
            ruleset=RULESET,
            players=list(PLAYERS),
            options=game_options(per_game[index] > 1),
            by=Actor.for_user(owner),
            title=f"Table {index + 1}",
        )
        ids.append(game.pk)
        shared.append(per_game[index] > 1)
    connection.close()
    return token.key, scorer.pk, ids, shared


def make_floor_games(count: int) -> list[int]:
    """Games of the bench club for the floor phase, one per phone (theirs stay as compared)."""
    from django.db import connection

    from scoring import services
    from scoring.models import Club
    from scoring.services import Actor

    club = Club.objects.get(slug="bench")
    owner = club.memberships.get(user__username="bench-owner").user
    ids = [
        services.start_game(
            club=club,
            ruleset=RULESET,
            players=list(PLAYERS),
            options=game_options(False),
            by=Actor.for_user(owner),
            title=f"Floor {index + 1}",
        ).pk
        for index in range(count)
    ]
    connection.close()
    return ids


def hand_queries(user_id: int) -> int:
    """The queries of one hand entry by the phones' scorer, as the server makes it once the
    token is cached: on a game of its own, after the comparison (BEGIN and COMMIT included)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring import services
    from scoring.models import Club, Via
    from scoring.services import Actor

    users = get_user_model().objects
    game = services.start_game(
        club=Club.objects.get(slug="bench"),
        ruleset=RULESET,
        players=list(PLAYERS),
        options=game_options(False),
        by=Actor.for_user(users.get(username="bench-owner")),
    )
    by = Actor.for_user(users.get(pk=user_id), via=Via.API)
    passed = {"dealer": 0, "outcome": "passed_out"}
    services.record_hand(game=game.pk, document=passed, by=by, idempotency_key="bench-warm-up")
    with CaptureQueriesContext(connection) as queries:
        services.record_hand(
            game=game.pk, document=passed | {"dealer": 1}, by=by, idempotency_key="bench-count"
        )
    connection.close()
    return len(queries)


def stored_games(phones: list[Phone], game_ids: list[int], user_id: int) -> list[StoredGame]:
    from django.db import connection

    from scoring.models import Game, IdempotencyRecord
    from scoring.rules import RuleViolation, engine, get

    index_of = {pk: index for index, pk in enumerate(game_ids)}
    records = {
        key: (index_of.get(game_id, -1), response["number"])
        for key, game_id, response in IdempotencyRecord.objects.filter(
            client=f"user:{user_id}"
        ).values_list("key", "game_id", "response")
    }
    games = Game.objects.filter(pk__in=game_ids).prefetch_related("hands").in_bulk()
    result = []
    for index, pk in enumerate(game_ids):
        game = games[pk]
        rows = sorted(game.hands.all(), key=lambda h: h.number)
        mine = [p for p in phones if p.game_index == index]
        try:
            rules = get(game.ruleset)
            replayed = engine.replay(rules, game.options, game.n, [h.document for h in rows])
            replayed_totals = tuple(replayed.totals)
        except RuleViolation:
            replayed_totals = None
        summed = [0] * game.n
        for row in rows:
            summed = [s + d for s, d in zip(summed, row.deltas, strict=True)]
        phone_totals = [0] * game.n
        for phone in mine:
            phone_totals = [t + d for t, d in zip(phone_totals, phone.local.totals, strict=True)]
        result.append(
            StoredGame(
                typed=tuple(hand for phone in mine for hand in phone.typed),
                hands={row.number: row.document for row in rows},
                records=records,
                index=index,
                cached_totals=tuple(game.totals),
                replayed_totals=replayed_totals,
                summed_deltas=tuple(summed),
                phone_totals=tuple(phone_totals),
            )
        )
    connection.close()
    return result


def gunicorn_shape(env: dict[str, str]) -> str:
    """Workers × threads as deploy/gunicorn.conf.py computes them in the server's environment."""
    import runpy
    from unittest import mock

    with mock.patch.dict(os.environ, env, clear=True):
        conf = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    workers, threads = conf["workers"], conf.get("threads", 1)
    preload = ", preloaded" if conf.get("preload_app") else ""
    return (
        f"{workers} workers × {threads} threads ({'gthread' if threads > 1 else 'sync'}{preload})"
    )


def report(results: dict[str, Any]) -> str:
    r = results
    rows = [
        ("hands typed", r["typed"], ""),
        ("hands acknowledged (201)", r["acknowledged"], ""),
        ("hands stored", r["stored"], ""),
        ("lost (acknowledged, not stored)", r["lost_acknowledged"], "0"),
        ("lost (typed, neither)", r["lost_unacknowledged"], "0"),
        ("doubled (stored twice)", r["doubled"], "0"),
        ("games with wrong totals", r["wrong_totals"], "0"),
        ("answers disagreeing with the phone", r["disagree"], "0"),
        ("double sends answered differently", r["twice_disagree"], "0"),
        ("5xx answers", r["server_errors"], "0"),
        ("refused (other 4xx)", r["refused"], "0"),
        ("hand POSTs answered", r["answered"], ""),
        ("  answers dropped by the phone", r["dropped"], ""),
        ("  hands sent twice at once", r["sent_twice"], ""),
        ("  connection errors (retried)", r["connection_errors"], ""),
        ("hand POST p50 / p95 (ms)", f"{r['p50_ms']:.1f} / {r['p95_ms']:.1f}", ""),
        ("hand POST throughput (req/s)", f"{r['hand_rps']:.0f}", f">= {r['bare_rps'] / 2:.0f}"),
        ("bare JSON view throughput (req/s)", f"{r['bare_rps']:.0f}", ""),
        ("hand / bare throughput", f"{r['ratio']:.2f}", ">= 0.50"),
        ("server CPU per hand POST (ms)", _cpu(r["hand_cpu_ms"]), ""),
        ("server CPU per bare GET (ms)", _cpu(r["bare_cpu_ms"]), ""),
        ("bare / hand server CPU", _cpu_ratio(r), ""),
        ("floor POST throughput (req/s)", f"{r['floor_rps']:.0f}", ""),
        ("floor / bare throughput", f"{r['floor_ratio']:.2f}", ""),
        ("server CPU per floor POST (ms)", _cpu(r["floor_cpu_ms"]), ""),
        ("hand / floor throughput (with faults)", f"{r['hand_floor_ratio']:.2f}", ""),
        ("hand / floor server CPU (with faults)", f"{r['hand_floor_cpu']:.2f}", ""),
        (
            "steady hand POST p50 / p95 (ms)",
            f"{r['steady_p50_ms']:.1f} / {r['steady_p95_ms']:.1f}",
            "",
        ),
        ("steady hand POST throughput (req/s)", f"{r['steady_rps']:.0f}", ""),
        ("server CPU per steady hand POST (ms)", _cpu(r["steady_cpu_ms"]), ""),
        (
            "hand / floor throughput (steady)",
            f"{r['steady_floor_ratio']:.2f}",
            f">= {HAND_FLOOR_TARGET:.2f}",
        ),
        ("hand / floor server CPU (steady)", f"{r['steady_floor_cpu']:.2f}", "<= 1.25"),
        ("queries per hand POST (token cached)", r["hand_queries"], ""),
        ("restart: SIGTERM to answering (s)", _restart(r), ""),
        (
            "hand phase: s, client CPU, machine CPU",
            _phase(r["hand_phase"]),
            "",
        ),
        ("bare phase: s, client CPU, machine CPU", _phase(r["bare_phase"]), ""),
        ("floor phase: s, client CPU, machine CPU", _phase(r["floor_phase"]), ""),
        ("steady hand phase: s, client CPU, machine CPU", _phase(r["steady_phase"]), ""),
    ]
    width = max(len(label) for label, _, _ in rows)
    lines = [
        f"Load bench: {r['phones']} phones on {r['games']} games ({r['shared_games']} shared by "
        f"two phones), {r['hands_per_phone']} hands each; drop {r['drop_rate']:.0%}, twice "
        f"{r['dup_rate']:.0%}, {'one full restart mid-run' if r['restart'] else 'no restart'}.",
        f"Server: gunicorn -c deploy/gunicorn.conf.py config.wsgi, {r['gunicorn']}, "
        f"deploy/env.example environment (DEBUG=false, DATABASE_CONN_MAX_AGE="
        f"{r['conn_max_age']}), PostgreSQL {r['postgres']}; client: asyncio, one process.",
        "",
        f"{'':{width}}  {'value':>14}  target",
    ]
    for label, value, target in rows:
        verdict = ""
        if target:
            verdict = f"{target:>8}  {'ok' if r['met'].get(label, True) else 'MISSED'}"
        lines.append(f"{label:{width}}  {value!s:>14}  {verdict}".rstrip())
    if r["log_problems"]:
        lines.append(f"gunicorn log: {r['log_problems']}")
    for example in r["examples"][:10]:
        lines.append(f"  {example}")
    met = (
        "all targets met"
        if all(r["met"].values())
        else "targets MISSED: " + ", ".join(label for label, ok in r["met"].items() if not ok)
    )
    lines += ["", met + "."]
    return "\n".join(lines)


def _restart(r: dict[str, Any]) -> str:
    if r["restart_seconds"] is None:
        return "-"
    steps = r["restart_steps"]
    return f"{steps['stop']:.1f} + {steps['start']:.1f} = {r['restart_seconds']:.1f}"


def _cpu(ms: dict[str, float]) -> str:
    return f"{ms['gunicorn']:.2f} + {ms['postgres']:.2f} pg"


def _cpu_ratio(r: dict[str, Any]) -> str:
    hand, bare = sum(r["hand_cpu_ms"].values()), sum(r["bare_cpu_ms"].values())
    return f"{bare / hand:.2f}" if hand else "-"


def _phase(figures: dict[str, float]) -> str:
    return (
        f"{figures['seconds']:.1f}, {figures['client_cpu_percent_of_one_core']:.0f}%, "
        f"{figures['machine_cpu_busy_percent']:.0f}%"
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=200, help="simulated phones (200)")
    parser.add_argument("--hands", type=int, default=10, help="hands each phone types (10)")
    parser.add_argument("--drop-rate", type=float, default=0.2, help="answers lost (0.2)")
    parser.add_argument("--dup-rate", type=float, default=0.05, help="hands sent twice (0.05)")
    parser.add_argument("--no-restart", action="store_true", help="no gunicorn restart")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--bare-requests", type=int, default=25, help="bare GETs per phone (25)")
    parser.add_argument("--workers", type=int, default=0, help="GUNICORN_WORKERS (the config's)")
    parser.add_argument("--threads", type=int, default=0, help="GUNICORN_THREADS (the config's)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the phones' choices (1)")
    parser.add_argument(
        "--postgres",
        default="postgres://postgres@127.0.0.1:5432",
        help="PostgreSQL server for the scratch database (user with CREATE DATABASE)",
    )
    args = parser.parse_args(argv)
    if args.phones < 1 or args.hands < 1 or args.bare_requests < 1:
        parser.error("--phones, --hands and --bare-requests must be at least 1")
    if not (0 <= args.drop_rate < 1 and 0 <= args.dup_rate < 1):
        parser.error("--drop-rate and --dup-rate must be between 0 and 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sys.path.insert(0, str(ROOT))
    name = f"segnapunti_load_{os.getpid()}"
    database_url = f"{args.postgres.rstrip('/')}/{name}"
    # Ctrl-C and SIGTERM both unwind through the finally blocks below.
    signal.signal(signal.SIGTERM, _interrupt)
    create_database(args.postgres, name)
    server = None
    try:
        with tempfile.TemporaryDirectory(prefix="segnapunti-load-") as tmp:
            from django_setup import setup_django

            setup_django(database_url)
            port = free_port()
            env = server_environment(
                database_url=database_url, port=port, static_root=tmp, args=args
            )
            server = Server(env, port, Path(tmp) / "gunicorn.log")
            try:
                results = run(args, server, database_url)
            except BaseException:
                print(f"gunicorn log (last lines):\n{server.tail()}", file=sys.stderr)
                raise
            finally:
                server.stop()
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(args.postgres, name)
    if args.json:
        print(json.dumps(results, indent=2, default=str))
    else:
        print(report(results))
    # The data targets, and the hand POST's cost beside the floor's (the same server, the same
    # database writes: a ratio the machine's speed and load move little), not the throughputs
    # against the bare view, which depend on the machine.
    judged = [ok for label, ok in results["met"].items() if "throughput" not in label]
    judged.append(results["met"]["hand / floor throughput (steady)"])
    return 0 if all(judged) else 1


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def run(args, server: Server, database_url: str) -> dict[str, Any]:
    from django.db import connection

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
    floor_game_ids = make_floor_games(args.phones)
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        postgres = cursor.fetchone()[0].split()[0]
    connection.close()
    cpu = ServerCpu(server, database_url.rsplit("/", 1)[1])
    cpu.start()
    server.start()
    hands = Run(port=server.port, token=token, drop_rate=args.drop_rate, dup_rate=args.dup_rate)
    cpu.mark()
    hand_figures = asyncio.run(hand_phase(phones, args, server, hands, cpu))
    hand_cpu = cpu.read()
    bare = Run(port=server.port, token=token, drop_rate=0, dup_rate=0)
    cpu.mark()
    bare_figures = asyncio.run(
        steady_phase([bare_request(server.port)] * args.phones, args.bare_requests, bare)
    )
    bare_cpu = cpu.read()
    floor = Run(port=server.port, token=token, drop_rate=0, dup_rate=0)
    cpu.mark()
    floors = [floor_request(server.port, game_id) for game_id in floor_game_ids]
    floor_figures = asyncio.run(steady_phase(floors, args.bare_requests, floor))
    floor_cpu = cpu.read()
    first = {phone.index: len(phone.typed) for phone in phones}
    for phone in phones:
        type_hands(phone, args.bare_requests)
    steady = Run(port=server.port, token=token, drop_rate=0, dup_rate=0)
    cpu.mark()
    steady_figures = asyncio.run(steady_hand_phase(phones, first, steady))
    steady_cpu = cpu.read()
    cpu.stop()
    server.stop()
    # Requests the server worked on: every answer, and the sends whose answer the phone dropped.
    hand_served = sum(hands.statuses.values()) + hands.dropped
    bare_served = sum(bare.statuses.values())
    floor_served = sum(floor.statuses.values())
    steady_served = sum(steady.statuses.values())
    tally = reconcile(stored_games(phones, game_ids, user_id))

    server_errors = sum(n for s, n in hands.statuses.items() if s >= 500)
    server_errors += sum(n for s, n in bare.statuses.items() if s >= 500)
    server_errors += sum(n for s, n in floor.statuses.items() if s >= 500)
    server_errors += sum(n for s, n in steady.statuses.items() if s >= 500)
    hand_rps, bare_rps = hand_figures["throughput"], bare_figures["throughput"]
    floor_rps = floor_figures["throughput"]
    steady_rps = steady_figures["throughput"]
    results = {
        "phones": args.phones,
        "games": len(game_ids),
        "shared_games": sum(shared),
        "hands_per_phone": args.hands,
        "drop_rate": args.drop_rate,
        "dup_rate": args.dup_rate,
        "restart": not args.no_restart,
        "gunicorn": gunicorn_shape(server.env),
        "conn_max_age": server.env.get("DATABASE_CONN_MAX_AGE", "0"),
        "postgres": postgres,
        "typed": tally.typed,
        "acknowledged": tally.acknowledged,
        "stored": tally.stored,
        "lost_acknowledged": tally.lost_acknowledged,
        "lost_unacknowledged": tally.lost_unacknowledged,
        "doubled": tally.doubled,
        "wrong_totals": tally.wrong_totals,
        "disagree": hands.disagree + steady.disagree,
        "twice_disagree": hands.twice_disagree,
        "server_errors": server_errors,
        "refused": len(hands.refused) + len(steady.refused),
        "statuses": {
            str(k): v
            for k, v in sorted(
                (hands.statuses + bare.statuses + floor.statuses + steady.statuses).items()
            )
        },
        "answered": sum(hands.statuses.values()),
        "dropped": hands.dropped,
        "sent_twice": hands.sent_twice,
        "connection_errors": hands.connection_errors,
        "bare_connection_errors": bare.connection_errors,
        "p50_ms": 1000 * percentile(hands.latencies, 0.50),
        "p95_ms": 1000 * percentile(hands.latencies, 0.95),
        "bare_p50_ms": 1000 * percentile(bare.latencies, 0.50),
        "bare_p95_ms": 1000 * percentile(bare.latencies, 0.95),
        "hand_rps": hand_rps,
        "bare_rps": bare_rps,
        "ratio": hand_rps / bare_rps if bare_rps else 0.0,
        "floor_rps": floor_rps,
        "floor_ratio": floor_rps / bare_rps if bare_rps else 0.0,
        "hand_floor_ratio": hand_rps / floor_rps if floor_rps else 0.0,
        "steady_rps": steady_rps,
        "steady_floor_ratio": steady_rps / floor_rps if floor_rps else 0.0,
        "steady_cpu_ms": {k: 1000 * v / max(1, steady_served) for k, v in steady_cpu.items()},
        "steady_p50_ms": 1000 * percentile(steady.latencies, 0.50),
        "steady_p95_ms": 1000 * percentile(steady.latencies, 0.95),
        "steady_phase": steady_figures,
        "floor_cpu_ms": {k: 1000 * v / max(1, floor_served) for k, v in floor_cpu.items()},
        "hand_cpu_ms": {k: 1000 * v / max(1, hand_served) for k, v in hand_cpu.items()},
        "bare_cpu_ms": {k: 1000 * v / max(1, bare_served) for k, v in bare_cpu.items()},
        "hand_queries": hand_queries(user_id),
        "restart_seconds": hand_figures.pop("restart_seconds"),
        "restart_steps": hand_figures.pop("restart_steps"),
        "hand_phase": hand_figures,
        "bare_phase": bare_figures,
        "floor_phase": floor_figures,
        "log_problems": dict(server.log_problems()),
        "examples": tally.examples + hands.refused + steady.refused,
    }
    results["met"] = {
        "lost (acknowledged, not stored)": tally.lost_acknowledged == 0,
        "lost (typed, neither)": tally.lost_unacknowledged == 0,
        "doubled (stored twice)": tally.doubled == 0,
        "games with wrong totals": tally.wrong_totals == 0,
        "answers disagreeing with the phone": hands.disagree == 0,
        "double sends answered differently": hands.twice_disagree == 0,
        "5xx answers": server_errors == 0,
        "refused (other 4xx)": not hands.refused and not steady.refused,
        "hand POST throughput (req/s)": results["ratio"] >= 0.5,
        "hand / bare throughput": results["ratio"] >= 0.5,
        "hand / floor throughput (steady)": results["steady_floor_ratio"] >= HAND_FLOOR_TARGET,
    }
    hand_cpu_ms, floor_cpu_ms, steady_cpu_ms = (
        sum(results[k].values()) for k in ("hand_cpu_ms", "floor_cpu_ms", "steady_cpu_ms")
    )
    results["hand_floor_cpu"] = hand_cpu_ms / floor_cpu_ms if floor_cpu_ms else 0.0
    results["steady_floor_cpu"] = steady_cpu_ms / floor_cpu_ms if floor_cpu_ms else 0.0
    results["met"]["hand / floor server CPU (steady)"] = results["steady_floor_cpu"] <= 1.25
    return results


if __name__ == "__main__":
    sys.exit(main())
