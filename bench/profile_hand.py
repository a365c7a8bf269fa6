"""Where a hand POST's server time goes: the real WSGI application, in-process, under cProfile.

    .venv/bin/python bench/profile_hand.py [--hands 2000] [--database-url URL] [--top 30]
        [--cache-url redis://127.0.0.1:6379/14]

Sets Django up with the production settings of ``deploy/env.example`` (DEBUG off, persistent
connections, prepared statements on PostgreSQL) on a scratch database (a fresh temporary SQLite
file without ``--database-url``), makes a scorer with an API token, a club and Terziglio games
through the services, then calls the WSGI application itself (``config.wsgi``: every middleware,
DRF, the service, the rules) for ``--hands`` hand POSTs, each with its own ``Idempotency-Key``,
and as many POSTs of ``bench/load_urls.py``'s floor view (the same database writes behind the
same middleware, no token, no rules, no validation). It prints the CPU time per request of each
(``time.process_time``: this process only, so other work on the machine does not count), their
ratio, and, for the hand POST, the functions where the time goes (cProfile, by own time and by
cumulative time, and summed by area: middleware, DRF, authentication, rules, services, database
driver, JSON). The database server's own CPU is not in these figures: ``bench/load.py`` measures
it on the real stack.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

#: What each area's functions' file names contain (the first match wins).
AREAS = (
    ("database driver", ("psycopg", "sqlite3")),
    ("Django ORM", ("django/db/",)),
    ("rules engine", ("scoring/rules/",)),
    ("services", ("scoring/services/",)),
    ("DRF", ("rest_framework/",)),
    ("middleware and handler", ("django/core/handlers", "django/middleware", "config/middleware")),
    ("JSON", ("json/",)),
    ("cache (Redis)", ("redis/", "django/core/cache")),
    ("API views", ("scoring/api/",)),
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hand POSTs (default 2000)")
    parser.add_argument("--database-url", default=None, help="a scratch PostgreSQL database")
    parser.add_argument("--cache-url", default=None, help="a Redis cache, as CACHE_URL")
    parser.add_argument("--top", type=int, default=30, help="functions listed (default 30)")
    parser.add_argument("--save", default=None, help="also write the profile to this file")
    args = parser.parse_args(argv)
    if args.hands < 10:
        parser.error("--hands must be at least 10")
    return args


def production_environment(database_url: str | None, cache_url: str | None) -> None:
    for line in (ROOT / "deploy" / "env.example").read_text().splitlines():
        name, sep, value = line.partition("=")
        if sep and not name.startswith("#"):
            os.environ.setdefault(name.strip(), value.strip())
    os.environ.update(
        SECRET_KEY="bench-" + uuid.uuid4().hex * 2,
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="false",
        CELERY_BROKER_URL="",
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        DATABASE_PREPARE="true",
    )
    if cache_url:
        os.environ["CACHE_URL"] = cache_url
    else:
        os.environ.pop("CACHE_URL", None)


def call(application, method: str, path: str, body: bytes, headers: dict[str, str]) -> int:
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": "testserver",
        "REMOTE_ADDR": "127.0.0.1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    for name, value in headers.items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    status = []
    chunks = application(environ, lambda s, h, e=None: status.append(s))
    try:
        b"".join(chunks)
    finally:
        getattr(chunks, "close", lambda: None)()
    return int(status[0].split()[0])


def area_of(filename: str) -> str:
    for area, needles in AREAS:
        if any(needle in filename for needle in needles):
            return area
    return "other"


def summary(profile: cProfile.Profile, requests: int, top: int) -> str:
    stats = pstats.Stats(profile)
    total = sum(own for _cc, _nc, own, _cum, _callers in stats.stats.values())
    areas: Counter[str] = Counter()
    for (filename, _line, _name), (_cc, _nc, own, _cum, _callers) in stats.stats.items():
        areas[area_of(filename)] += own
    lines = [f"own time by area (ms per hand POST; profiled total {1000 * total / requests:.2f})"]
    for area, own in areas.most_common():
        lines.append(f"  {area:<24} {1000 * own / requests:6.3f}  {100 * own / total:5.1f} %")
    for key, title in (("tottime", "own time"), ("cumulative", "cumulative time")):
        out = io.StringIO()
        pstats.Stats(profile, stream=out).strip_dirs().sort_stats(key).print_stats(top)
        lines += ["", f"top {top} functions by {title} (all {requests} hand POSTs):"]
        lines += [line for line in out.getvalue().splitlines() if line.strip()][3:]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    # Imported once Django is set up (main).
    import load
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scoring import services
    from scoring.models import Role
    from scoring.rules import engine
    from scoring.services import Actor, members

    users = get_user_model().objects
    owner = users.create_user("profile-owner", password=None)
    scorer = users.create_user("profile-scorer", password=None)
    club = services.create_club(name="Profile club", slug="profile", by=Actor.for_user(owner))
    invited = members.invite(club=club, by=Actor.for_user(owner), role=Role.SCORER)
    members.accept_invitation(token=invited.token, by=Actor.for_user(scorer))
    token = Token.objects.create(user=scorer).key

    def new_game() -> int:
        return services.start_game(
            club=club,
            ruleset=load.RULESET,
            players=list(load.PLAYERS),
            options=load.game_options(False),
            by=Actor.for_user(owner),
        ).pk

    from django.core.wsgi import get_wsgi_application

    application = get_wsgi_application()
    rng = load.random.Random(7)
    games = []  # (game id, the phone's copy of it): 20 games, hands spread over them
    for _ in range(20):
        games.append([new_game(), load.new_local_game(False)])
    bodies = []
    for index in range(args.hands + 20):
        game = games[index % len(games)]
        game[1] = engine.play(game[1], load.next_hand(game[1], rng))
        document = dict(game[1].hands[-1].document)
        bodies.append((game[0], json.dumps(document).encode()))
    auth = {"Authorization": f"Token {token}"}

    def post_hand(game_id: int, body: bytes) -> None:
        headers = {**auth, "Idempotency-Key": uuid.uuid4().hex}
        status = call(application, "POST", f"/api/v1/games/{game_id}/hands/", body, headers)
        if status != 201:
            raise SystemExit(f"hand POST answered {status}")

    def post_floor(game_id: int) -> None:
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        status = call(application, "POST", f"/bench/floor/{game_id}/", b"", headers)
        if status != 201:
            raise SystemExit(f"floor POST answered {status}")

    for game_id, body in bodies[:20]:  # warm-up: imports, prepared statements, caches
        post_hand(game_id, body)
    floor_games = [new_game() for _ in range(20)]
    for game_id in floor_games:
        post_floor(game_id)

    # Alternating blocks of each, so that whatever else the machine runs weighs on both alike.
    spent = {"hand": 0.0, "floor": 0.0}
    block = 50
    for start in range(20, args.hands + 20, block):
        began = time.process_time()
        for game_id, body in bodies[start : start + block]:
            post_hand(game_id, body)
        spent["hand"] += time.process_time() - began
        began = time.process_time()
        for index in range(start, min(start + block, args.hands + 20)):
            post_floor(floor_games[index % len(floor_games)])
        spent["floor"] += time.process_time() - began
    hand_ms, floor_ms = (1000 * spent[k] / args.hands for k in ("hand", "floor"))

    more = []
    for index in range(args.hands):
        game = games[index % len(games)]
        game[1] = engine.play(game[1], load.next_hand(game[1], rng))
        document = dict(game[1].hands[-1].document)
        more.append((game[0], json.dumps(document).encode()))
    profile = cProfile.Profile(time.process_time)
    profile.enable()
    for game_id, body in more:
        post_hand(game_id, body)
    profile.disable()
    if args.save:
        profile.dump_stats(args.save)

    print(f"CPU per hand POST (this process):  {hand_ms:.3f} ms")
    print(f"CPU per floor POST (this process): {floor_ms:.3f} ms")
    print(f"hand / floor CPU:                  {hand_ms / floor_ms:.2f}")
    print()
    print(summary(profile, args.hands, args.top))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    production_environment(args.database_url, args.cache_url)
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp(prefix="segnapunti-bench-")) / "db")
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.load_settings"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
