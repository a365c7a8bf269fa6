"""Redis stopped during hand entry, then started again (issue 22, point 4): no 5xx, no hand lost
or doubled, every game that finished rated once the periodic catch-up has run.

    .venv/bin/python bench/redis_fault.py [--phones 30] [--hands 8] [--down-seconds 3]

What it does (bench/load.py's phones, client, server and comparison, imported from it):

1. Starts a ``redis-server`` of its own on a free port (never the machine's 6379), with no
   persistence: it is the cache (``CACHE_URL``, database 0) and the Celery broker (database 1)
   of one gunicorn (``deploy/gunicorn.conf.py``, the production environment of
   deploy/env.example). No Celery worker runs: a queued rating waits in Redis and dies with it.
2. Creates a scratch PostgreSQL database (``--postgres``) with bench/load.py's games, plus
   ``--finishing`` Terziglio games played to 1 point and an account with a password.
3. The phones enter their hands with an API token. Once half are acknowledged, Redis is killed
   (SIGKILL); while it is down: ``/healthz`` must say the cache is degraded, a wrong and a right
   password at ``/login/``, the right PIN at a table link, and the finishing hand of half the
   finishing games (the other half were finished before the kill), all without a 5xx. After
   ``--down-seconds`` Redis is started again, empty, and ``/healthz`` must say ``ok``.
4. Compares the database with the phones (bench/load.py ``reconcile``), then runs the beat task
   ``catch_up_ratings`` as beat would and checks that every finished game has its ratings.
   Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

# bench/ is this script's first path entry: bench/load.py's pieces are imported from it.
from load import (
    HOST,
    Phone,
    Run,
    Server,
    create_database,
    drop_database,
    free_port,
    game_of_phones,
    make_games,
    new_local_game,
    phone_hands,
    reconcile,
    server_environment,
    stored_games,
    type_hands,
)

WIN = {"dealer": 0, "outcome": "played", "soloist": 0, "contract": "chiamo", "soloist_points": 7}
LOGIN = ("bench-login", "a-long-bench-password-17")


class OwnRedis:
    """A redis-server of this script, started and killed by it only."""

    def __init__(self, port: int) -> None:
        self.port, self.process = port, None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("redis-fault needs redis-server (apt-get install redis-server)")
        command = [binary, "--port", str(self.port), "--bind", HOST, "--save", ""]
        self.process = subprocess.Popen([*command, "--appendonly", "no"], stdout=subprocess.DEVNULL)
        for _ in range(100):
            if (
                subprocess.run(
                    ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
                ).stdout.strip()
                == "PONG"
            ):
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()


class Browser:
    """A cookie-keeping HTTP client for the pages (login, PIN) and the finishing hands."""

    def __init__(self, port: int, token: str = "") -> None:
        self.base, self.token = f"http://{HOST}:{port}", token
        self.jar = http.cookiejar.CookieJar()
        no_redirects = type("NoRedirects", (urllib.request.HTTPRedirectHandler,), {})
        no_redirects.redirect_request = lambda *args, **kwargs: None
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), no_redirects
        )

    def send(self, path: str, *, form=None, document=None, headers=None) -> tuple[int, str]:
        sent = dict(headers or {})
        for cookie in self.jar:  # DEBUG off marks them Secure; this bench speaks plain HTTP
            cookie.secure = False
        data = None
        if form is not None:
            csrf = next((c.value for c in self.jar if c.name == "csrftoken"), "")
            data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": csrf}).encode()
        elif document is not None:
            data = json.dumps(document).encode()
            sent["Content-Type"] = "application/json"
        if self.token:
            sent["Authorization"] = f"Token {self.token}"
        request = urllib.request.Request(self.base + path, data=data, headers=sent)
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as refusal:
            return refusal.code, refusal.read().decode(errors="replace")


def make_finishing(count: int) -> tuple[list[int], dict[str, str]]:
    """``count`` Terziglio games to 1 point, an account with a password, one table link."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from scoring import services
    from scoring.models import Club, TableLink
    from scoring.services import Actor

    club = Club.objects.get(slug="bench")
    owner = get_user_model().objects.get(username="bench-owner")
    get_user_model().objects.create_user(LOGIN[0], password=LOGIN[1])
    ids = [
        services.start_game(
            club=club,
            ruleset="terziglio",
            players=["Anna", "Bruno", "Carla"],
            options={"target_score": 1},
            by=Actor.for_user(owner),
            title=f"Finishing {n + 1}",
        ).pk
        for n in range(count)
    ]
    link = TableLink.objects.get(game_id=ids[-1])
    connection.close()
    return ids, {"token": link.token, "pin": link.pin}


def finish(browser: Browser, game_id: int) -> int:
    status, _ = browser.send(
        f"/api/v1/games/{game_id}/hands/",
        document=WIN,
        headers={"Idempotency-Key": f"finish-{game_id}"},
    )
    return status


def during_outage(port: int, token: str, games: list[int], link: dict[str, str]) -> dict:
    """The requests made while Redis is down: their statuses (none may be a 5xx)."""
    statuses: dict[str, int] = {}
    health_status, health = Browser(port).send("/healthz")
    statuses["healthz"] = health_status
    degraded = json.loads(health) == {"status": "degraded", "cache": "fail"}
    api = Browser(port, token)
    for game_id in games:
        statuses[f"finishing hand of game {game_id}"] = finish(api, game_id)
    person = Browser(port)
    person.send("/login/")
    statuses["login, wrong password"] = person.send(
        "/login/", form={"username": LOGIN[0], "password": "nope"}
    )[0]
    statuses["login, right password"] = person.send(
        "/login/", form={"username": LOGIN[0], "password": LOGIN[1]}
    )[0]
    phone = Browser(port)
    phone.send(f"/t/{link['token']}/")
    statuses["table link, right PIN"] = phone.send(f"/t/{link['token']}/", form=link)[0]
    return {"statuses": statuses, "healthz_degraded": degraded}


async def hand_phase(phones, args, server: Server, run: Run, redis: OwnRedis, fault) -> None:
    run.half_at = max(1, len(phones) * args.hands // 2)

    async def outage() -> None:
        await run.half.wait()
        redis.kill()
        fault["down"] = await asyncio.to_thread(
            during_outage, server.port, run.token, fault["late"], fault["link"]
        )
        await asyncio.sleep(args.down_seconds)
        redis.start()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            _, body = await asyncio.to_thread(Browser(server.port).send, "/healthz")
            if json.loads(body) == {"status": "ok"}:
                fault["healthz_back"] = True
                return
            await asyncio.sleep(0.5)

    tasks = [asyncio.create_task(phone_hands(p, run)) for p in phones]
    fault_task = asyncio.create_task(outage())
    await asyncio.gather(*tasks)
    await fault_task


def ratings_caught_up(game_ids: list[int]) -> tuple[int, list[int]]:
    """Runs beat's catch-up; the games among ``game_ids`` still without ratings after it."""
    from django.db import connection

    from scoring import tasks
    from scoring.models import RatingStep

    rated = tasks.catch_up_ratings()
    missing = [g for g in game_ids if not RatingStep.objects.filter(game_id=g).exists()]
    connection.close()
    return rated, missing


def run(args, server: Server, redis: OwnRedis) -> dict:
    phone_games = game_of_phones(args.phones)
    token, user_id, game_ids, shared = make_games(phone_games)
    finishing, link = make_finishing(args.finishing)
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
    redis.start()
    server.start()
    half = len(finishing) // 2
    early = {g: finish(Browser(server.port, token), g) for g in finishing[:half]}
    fault = {"late": finishing[half:], "link": link, "healthz_back": False}
    hands = Run(port=server.port, token=token, drop_rate=args.drop_rate, dup_rate=0.0)
    asyncio.run(hand_phase(phones, args, server, hands, redis, fault))
    server.stop()
    tally = reconcile(stored_games(phones, game_ids, user_id))
    rated, unrated = ratings_caught_up(finishing)
    down = fault.get("down", {"statuses": {}, "healthz_degraded": False})
    results = {
        "typed": tally.typed,
        "stored": tally.stored,
        "lost": tally.lost_acknowledged + tally.lost_unacknowledged,
        "doubled": tally.doubled,
        "wrong_totals": tally.wrong_totals,
        "hand_5xx": sum(n for status, n in hands.statuses.items() if status >= 500),
        "refused": len(hands.refused),
        "early_finishing": early,
        "during_outage": down["statuses"],
        "healthz_degraded_while_down": down["healthz_degraded"],
        "healthz_ok_after": fault["healthz_back"],
        "caught_up_ratings": rated,
        "unrated_finished_games": unrated,
        "log_problems": dict(server.log_problems()),
    }
    expected_down = {"login, wrong password": 200, "login, right password": 302}
    expected_down["table link, right PIN"] = 302
    down_ok = bool(down["statuses"]) and all(
        status == expected_down.get(name, 201 if name.startswith("finishing") else 200)
        for name, status in down["statuses"].items()
    )
    results["ok"] = (
        down_ok
        and all(status == 201 for status in early.values())
        and not any(results[k] for k in ("lost", "doubled", "wrong_totals", "hand_5xx", "refused"))
        and results["healthz_degraded_while_down"]
        and results["healthz_ok_after"]
        and not unrated
    )
    return results


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=30, help="simulated phones (30)")
    parser.add_argument("--hands", type=int, default=8, help="hands each phone types (8)")
    parser.add_argument("--finishing", type=int, default=6, help="games played to the end (6)")
    parser.add_argument("--down-seconds", type=float, default=3.0, help="Redis down for (3)")
    parser.add_argument("--drop-rate", type=float, default=0.1, help="answers lost (0.1)")
    parser.add_argument("--workers", type=int, default=2, help="GUNICORN_WORKERS (2)")
    parser.add_argument("--threads", type=int, default=0, help="GUNICORN_THREADS (the config's)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the phones' choices (1)")
    parser.add_argument(
        "--postgres",
        default="postgres://postgres@127.0.0.1:5432",
        help="PostgreSQL server for the scratch database (user with CREATE DATABASE)",
    )
    args = parser.parse_args(argv)
    if args.finishing < 2:
        parser.error("--finishing must be at least 2 (half before the fault, half during)")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    name = f"segnapunti_redis_fault_{os.getpid()}"
    database_url = f"{args.postgres.rstrip('/')}/{name}"
    signal.signal(signal.SIGTERM, _interrupt)
    redis = OwnRedis(free_port())
    create_database(args.postgres, name)
    try:
        with tempfile.TemporaryDirectory(prefix="segnapunti-redis-fault-") as tmp:
            from django_setup import setup_django

            setup_django(database_url)
            port = free_port()
            env = server_environment(
                database_url=database_url, port=port, static_root=tmp, args=args
            )
            env["CACHE_URL"] = f"redis://{HOST}:{redis.port}/0"
            env["CELERY_BROKER_URL"] = f"redis://{HOST}:{redis.port}/1"
            # As a deploy does (deploy/README.md): the pages' static files, with their manifest.
            subprocess.run(
                [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                cwd=Path(__file__).resolve().parent.parent,
                env=env | {"DJANGO_SETTINGS_MODULE": "config.settings"},
                check=True,
            )
            server = Server(env, port, Path(tmp) / "gunicorn.log")
            try:
                results = run(args, server, redis)
            except BaseException:
                print(f"gunicorn log (last lines):\n{server.tail()}", file=sys.stderr)
                raise
            finally:
                server.stop()
                log = server.tail(2000)
    finally:
        redis.kill()
        from django.db import connections

        connections.close_all()
        drop_database(args.postgres, name)
    print(json.dumps(results, indent=2, default=str))
    for line in log.splitlines():
        if re.search(r'" 5\d\d ', line) or re.match(r"\w*(Error|Exception)\b", line):
            print(f"gunicorn: {line}", file=sys.stderr)
    print("no 5xx, nothing lost, ratings caught up." if results["ok"] else "FAIL: see above.")
    return 0 if results["ok"] else 1


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
