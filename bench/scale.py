"""A federation's history: does the cost of one club's operations depend on the other clubs?

    .venv/bin/python bench/scale.py [--clubs 2000] [--hands 10000000] [--small]
                                    [--database-url postgres://…/scale] [--runs 15] [--reuse]

Builds two scratch PostgreSQL databases (``--database-url`` names the big one, default
``scale_big`` on the local server; the small one is its name + ``_small``; both are dropped
and made again unless ``--reuse``): in the small one a single club, in the big one a federation
of ``--clubs`` clubs holding ``--hands`` hands in all, the same club among them. The clubs are made by bench/scale_data.py: the demo club (every game, corrections,
abandoned games, a tournament, a league, through the services), a competition of every other
format, finished games of every ruleset played by the rules engine until the club holds its
share of the hands, seats, audit events, idempotency records, ratings; then copies made by the
database itself. ``--small``: 60 clubs, 60,000 hands (CI): there the queries must be the same, and the
times are printed but not judged (too short and too noisy on a shared machine).

Then (each database settled first as a night's housekeeping leaves it: ``settle``), on that
club in both databases, it measures in-process (Django's test client on the real
URLs, or the service or command the periodic task calls) the median time of ``--runs`` runs in
each, the two databases taking turns call by call (bench/scale_timing.py: the load of a shared
machine's neighbours then weighs on both alike), and the SQL queries of one: a hand POST, a
correction, the game page, the club page, the public standings, the leaderboard, a player
page, the ratings update at a game's end, ``check_games --club``, ``export_club``; and the
periodic tasks after the same recent changes in both databases (the nightly check of the games
changed, the purge of idempotency records, a club's ratings recomputed). It prints one row per
operation with the ratio big/small, the size of every table and index, and exits 1 when a
ratio exceeds its target (1.25) or the query counts differ.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

# Its sibling modules (django_setup, scale_data, hand_entry) are imported by their own names,
# as a script's are: tests/bench/test_query_plans.py imports this module as ``bench.scale``.
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from django_setup import setup_django
from scale_timing import QUICK_FACTOR, QUICK_MS, close_all, measure, use

RATIO_TARGET = 1.25
MEASURED = "circolo-misurato"
#: Operations too slow to run as many times as the others (a whole club replayed or written):
#: under a CI run's load a call of these takes from 0.8 to 1.5 times its median, and the median
#: of five calls was seen 1.46 times the other database's.
HEAVY_RUNS = 9
#: Times under this are compared as if they were this long (a ratio of two tiny numbers measures
#: the machine's noise, not the database).
FLOOR_MS = 2.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=2000, help="clubs (default 2000)")
    parser.add_argument(
        "--hands", type=int, default=10_000_000, help="hands in all (default 10,000,000)"
    )
    parser.add_argument("--small", action="store_true", help="60 clubs, 60,000 hands (CI)")
    parser.add_argument("--runs", type=int, default=15, help="timed runs per operation")
    parser.add_argument(
        "--database-url",
        default="postgres://postgres@127.0.0.1:5432/scale_big",
        help="the big scratch database (made again); the small one is its name + _small",
    )
    parser.add_argument("--reuse", action="store_true", help="measure the databases built before")
    parser.add_argument("--keep", action="store_true", help="leave both databases afterwards")
    parser.add_argument(
        "--build-only", action="store_true", help="build and keep both databases, measure nothing"
    )
    args = parser.parse_args(argv)
    if args.small:
        args.clubs, args.hands = 60, 60_000
    if args.clubs < 3 or args.hands < args.clubs or args.runs < 1:
        parser.error("--clubs must be at least 3, --hands at least --clubs, --runs at least 1")
    return args


# ---------------------------------------------------------------------------------------------
# Databases


def admin(url: str, *statements: str) -> None:
    import psycopg

    parts = urlparse(url)
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def build(args, big: str, small: str) -> dict[str, float]:
    import scale_data
    from django.core.management import call_command

    url = args.database_url
    admin(url, f'DROP DATABASE IF EXISTS "{small}"', f'CREATE DATABASE "{small}"')
    use(small)
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    scale_data.build_club(slug=MEASURED, hands=args.hands // args.clubs)
    small_s = time.perf_counter() - started
    use(big)
    started = time.perf_counter()
    scale_data.federation(clubs=args.clubs, hands=args.hands, measured=MEASURED)
    big_s = time.perf_counter() - started
    vacuum()
    use(small)
    vacuum()
    return {"small": small_s, "big": big_s}


def vacuum() -> None:
    """Vacuum and analyze the whole database, as autovacuum leaves a server's tables long
    before a day's work. Rows just copied in bulk have no hint bits and no visibility map yet:
    the first statements to read them write their pages back, and autovacuum works through
    twelve gigabytes for minutes after the build, both on the big database only. Without this,
    the first operations timed there (the commits of a correction or a purge) paid for that
    work, not for the federation's size."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")


def settle() -> None:
    """Leave the database as a night's housekeeping and autovacuum leave it before a day's work:
    the idempotency records and forms sent once past their time purged, their tables vacuumed
    and analyzed. The federation's copies carry the template's records, made an hour before the
    build: two days after it they all expire at once, and with the statistics of the build
    ("every record is older than the cutoff") the purge measured would read the whole table,
    2,500 pages in the big database and 85 in the small one, where a production server's
    autovacuum keeps the statistics of a purged table current."""
    from django.db import connection

    from scoring.models import FormSubmission, IdempotencyRecord
    from scoring.services import housekeeping

    housekeeping.purge_idempotency_records()
    tables = ", ".join(f'"{m._meta.db_table}"' for m in (IdempotencyRecord, FormSubmission))
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM (ANALYZE) {tables}")


# ---------------------------------------------------------------------------------------------
# The operations


class Scene:
    """What the operations act on, made alike in both databases before anything is timed."""

    def __init__(self):
        from django.contrib.auth import get_user_model
        from django.db.models import Count
        from django.utils import timezone
        from rest_framework.authtoken.models import Token
        from rest_framework.test import APIClient

        from scoring import services
        from scoring.models import Club, Game, Player
        from scoring.services import Actor
        from tournaments.demo import LEAGUE_SLUG

        self.club = Club.objects.get(slug=MEASURED)
        self.owner = get_user_model().objects.get(username=f"owner-{MEASURED}")
        self.by = Actor.for_user(self.owner)
        token, _ = Token.objects.get_or_create(user=self.owner)
        self.api = APIClient()
        self.api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        self.page = APIClient()
        self.page.force_login(self.owner)
        self.public = APIClient()
        players = list(Player.objects.filter(club=self.club).order_by("pk"))
        self.long_game = services.start_game(
            club=self.club,
            ruleset="terziglio",
            players=players[:3],
            options={"target_score": 1000},
            by=self.by,
        )
        self.posted = self.corrected = 0
        self.big_game = (
            Game.objects.filter(club=self.club, status="finished")
            .order_by("-hand_count", "created_at")
            .first()
        )
        self.player = (
            Player.objects.filter(club=self.club)
            .annotate(played=Count("seats"))
            .order_by("-played", "pk")
            .first()
        )
        self.league = LEAGUE_SLUG
        self.players = players
        self.started = timezone.now()

    def hours(self) -> float:
        """The hours since the scene was set: the nightly task run now sees the bench's own
        changes as the day's (the federation was built before, its last run checked that)."""
        from django.utils import timezone

        return (timezone.now() - self.started).total_seconds() / 3600

    def post_hand(self):
        from hand_entry import hand_document

        response = self.api.post(
            f"/api/v1/games/{self.long_game.pk}/hands/",
            hand_document(self.posted),
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"scale-{self.long_game.pk}-{self.posted}",
        )
        self.posted += 1
        return expect(response, 201)

    def hand_etag(self) -> str:
        return expect(self.api.get(f"/api/v1/games/{self.long_game.pk}/hands/1/"), 200)["ETag"]

    def correct_hand(self, etag: str):
        from hand_entry import hand_document

        document = dict(hand_document(0))
        document["soloist_points"] = 4 if self.corrected % 2 == 0 else 7
        self.corrected += 1  # the next correction puts it back
        response = self.api.put(
            f"/api/v1/games/{self.long_game.pk}/hands/1/",
            document,
            format="json",
            HTTP_IF_MATCH=etag,
        )
        return expect(response, 200)

    def get(self, client, url: str):
        return lambda: expect(client.get(url), 200)

    def finished_game(self):
        """A Briscola game between two players, finished (not rated: the timing rates it)."""
        from scoring import services
        from scoring.signals import game_changed

        game_changed.disconnect(dispatch_uid="scoring-ratings")
        try:
            return services.start_game(
                club=self.club,
                ruleset="briscola",
                players=self.players[3:5],
                hands=[{"dealer": 0, "points": [70, 50]}, {"dealer": 1, "points": [80, 40]}],
                by=self.by,
            )
        finally:
            from scoring.tasks import rate_changed_game

            game_changed.connect(rate_changed_game, dispatch_uid="scoring-ratings")

    def operations(self) -> list[tuple[str, object, object, int]]:
        """(name, set-up returning the timed call's argument or None, timed call, runs)."""
        from django.core.management import call_command

        from scoring.services import ratings

        slug = self.club.slug
        quiet = {"stdout": io.StringIO(), "stderr": io.StringIO()}
        return [
            ("hand POST (API)", None, lambda _: self.post_hand(), 0),
            ("correction (API PUT)", self.hand_etag, self.correct_hand, 0),
            ("game page", None, lambda _: self.get(self.page, f"/g/{self.big_game.pk}/")(), 0),
            ("club page", None, lambda _: self.get(self.page, f"/c/{slug}/")(), 0),
            (
                "public standings",
                None,
                lambda _: self.get(self.public, f"/p/{slug}/{self.league}/standings/")(),
                0,
            ),
            ("leaderboard", None, lambda _: self.get(self.page, f"/c/{slug}/leaderboard/")(), 0),
            (
                "player page",
                None,
                lambda _: self.get(self.page, f"/c/{slug}/players/{self.player.pk}/")(),
                0,
            ),
            (
                "ratings at a game's end",
                self.finished_game,
                lambda game: ratings.rate_game(game=game),
                0,
            ),
            (
                "check_games --club",
                None,
                lambda _: call_command("check_games", club=slug, **quiet),
                HEAVY_RUNS,
            ),
            (
                "export_club",
                None,
                lambda _: call_command("export_club", slug, output=os.devnull, **quiet),
                HEAVY_RUNS,
            ),
        ]


def periodic(scene) -> list[tuple[str, object, object, int]]:
    """The periodic tasks, each after the same recent change in both databases."""
    from scoring import tasks
    from scoring.models import IdempotencyRecord
    from scoring.services import housekeeping, ratings

    def expired():
        """50 records of three days ago, each the answer of a hand POST as the API stores it
        (the last one of the bench's game: about 1 KB, as a real record is). Records of a few
        bytes fitted in the slivers of free space that the copies leave at the end of their
        pages in a freshly built federation, one record a page: the purge then dirtied fifty
        pages in the big database where it dirtied two in the small one."""
        from django.utils import timezone

        long_ago = timezone.now() - timezone.timedelta(days=3)
        answer = (
            IdempotencyRecord.objects.filter(game=scene.long_game, status_code=201)
            .order_by("-pk")
            .values_list("response", flat=True)
            .first()
        )
        if answer is None:
            scene.post_hand()
            return expired()
        IdempotencyRecord.objects.bulk_create(
            IdempotencyRecord(
                client=f"user:{scene.owner.pk}",
                key=f"expired-{time.perf_counter_ns()}-{i}",
                game=scene.long_game,
                fingerprint="0" * 64,
                status_code=201,
                response=answer,
                created_at=long_ago,
            )
            for i in range(50)
        )

    return [
        (
            "nightly check_games (changed games)",
            None,
            lambda _: tasks.check_games(hours=scene.hours()),
            0,
        ),
        (
            "purge idempotency records",
            expired,
            lambda _: housekeeping.purge_idempotency_records(),
            0,
        ),
        (
            "club ratings recomputed",
            None,
            lambda _: ratings.recompute_club(club=scene.club),
            HEAVY_RUNS,
        ),
    ]


def expect(response, code: int):
    if response.status_code != code:
        raise AssertionError(f"HTTP {response.status_code}: {response.content[:300]!r}")
    return response


def sizes() -> list[tuple[str, int, int, int]]:
    """(table, rows estimated, table bytes, index bytes) of the app's tables, biggest first."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, reltuples::bigint, pg_table_size(oid), pg_indexes_size(oid) "
            "FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace "
            "AND (relname LIKE 'scoring_%' OR relname LIKE 'tournaments_%' "
            "OR relname = 'auth_user') ORDER BY pg_total_relation_size(oid) DESC"
        )
        return cursor.fetchall()


def run_all(args, big: str, small: str) -> dict:
    """Every operation, measured in both databases at once: the two take turns call by call
    (``measure``), the same operations in the same order in each."""
    names = {"small": small, "big": big}
    operations = {}
    for key, name in names.items():
        use(name)
        scene = Scene()
        operations[key] = scene.operations() + periodic(scene)
    results: dict[str, dict] = {}
    for i, (label, _setup, _call, runs) in enumerate(operations["small"]):
        calls = {key: (names[key], *operations[key][i][1:3]) for key in names}
        row = results[label] = {}
        for key, (ms, queries) in measure(calls, runs or args.runs).items():
            row[key] = ms
            row[f"{key}_queries"] = queries
        print(
            f"  {label}: {row['small']:.1f} ms small, {row['big']:.1f} ms big, "
            f"{row['small_queries']}/{row['big_queries']} queries",
            file=sys.stderr,
            flush=True,
        )
    return results


def report(args, built, results, big_sizes, small_sizes) -> int:
    from scoring.models import Club, Game, Hand

    print(
        f"Scale bench: {Club.objects.count():,} clubs, {Game.objects.count():,} games, "
        f"{Hand.objects.count():,} hands in the big database; the club measured alone in the "
        f"small one. Built in {built.get('big', 0):.0f} s (big) and {built.get('small', 0):.0f}"
        f" s (small). Median of {args.runs} runs ({HEAVY_RUNS} for the heavy ones, "
        f"{args.runs * QUICK_FACTOR} for those under {QUICK_MS:.0f} ms)."
    )
    print()
    header = f"{'operation':<38}{'small ms':>10}{'big ms':>10}{'ratio':>7}{'queries':>10}  verdict"
    print(header)
    print("-" * len(header))
    failed = 0
    for label, row in results.items():
        ratio = max(row["big"], FLOOR_MS) / max(row["small"], FLOOR_MS)
        same = row["big_queries"] == row["small_queries"]
        queries = (
            f"{row['small_queries']}" if same else f"{row['small_queries']}/{row['big_queries']}"
        )
        # At --small (CI, a shared machine, 60 clubs) the times are too short and too noisy to
        # judge: the same queries are; the ratios are judged at the default size.
        timed_ok = ratio <= RATIO_TARGET or args.small
        ok = timed_ok and same
        failed += not ok
        verdict = "ok" if ratio <= RATIO_TARGET else "over (not judged at --small)"
        print(
            f"{label:<38}{row['small']:>10.1f}{row['big']:>10.1f}{ratio:>7.2f}{queries:>10}  "
            f"{(verdict if timed_ok else 'OVER TARGET') if same else 'QUERIES DIFFER'}"
        )
    print()
    print(
        f"Ratio: median big / median small (times under {FLOOR_MS:.0f} ms count as "
        f"{FLOOR_MS:.0f} ms); target <= {RATIO_TARGET}, and the same queries."
    )
    print()
    small_of = {name: (rows, table, index) for name, rows, table, index in small_sizes}
    header = f"{'table':<32}{'rows big':>14}{'table MB':>10}{'index MB':>10}{'rows small':>12}"
    print(header)
    print("-" * len(header))
    for name, rows, table, index in big_sizes:
        print(
            f"{name:<32}{max(rows, 0):>14,}{table / 2**20:>10.1f}{index / 2**20:>10.1f}"
            f"{max(small_of.get(name, (0,))[0], 0):>12,}"
        )
    total = sum(t + i for _n, _r, t, i in big_sizes)
    print(f"{'all':<32}{'':>14}{total / 2**30:>19.2f} GB (tables and indexes)")
    print()
    print(f"{'All within target.' if not failed else f'{failed} operation(s) over target.'}")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    big = urlparse(args.database_url).path.lstrip("/")
    small = f"{big}_small"
    if not args.reuse:
        admin(args.database_url, f'DROP DATABASE IF EXISTS "{big}"', f'CREATE DATABASE "{big}"')
    setup_django(args.database_url)
    from django.core.management import call_command

    try:
        built = {} if args.reuse else build(args, big, small)
        if args.build_only:
            print(f"Built in {built['big']:.0f} s (big) and {built['small']:.0f} s (small).")
            return 0
        if args.reuse:
            use(small)
            call_command("migrate", verbosity=0)
        for name in (small, big):
            use(name)
            settle()
        use(big)
        big_sizes = sizes()
        use(small)
        small_sizes = sizes()
        results = run_all(args, big, small)
        use(big)
        return report(args, built, results, big_sizes, small_sizes)
    finally:
        close_all()
        if not (args.keep or args.build_only):
            admin(
                args.database_url,
                f'DROP DATABASE IF EXISTS "{big}"',
                f'DROP DATABASE IF EXISTS "{small}"',
            )


if __name__ == "__main__":
    sys.exit(main())
