"""The results picture of a big league (issue 35): time to draw it, and to serve it again.

    .venv/bin/python bench/results_picture.py [--players 200] [--hands 6000] [--runs 5]
                                              [--database-url URL]

Builds the league of ``bench/standings.py`` (``--players`` entries, club nights of Terziglio and
Briscola until the games hold ``--hands`` hands; 6000 make about a dozen nights for 200 players),
stores its standings, then prints, for each shape (1080 × 1350, 1200 × 630) and format:

* the render: what the page's cache holds is cleared, ``content_of`` + the drawing (best and
  median of ``--runs``);
* the first request (``GET /p/<club>/<league>/picture/<shape>.<fmt>``, cache cleared: reading,
  drawing, storing) and the second (from the cache), with their SQL queries and whether the second
  drew anything (``tournaments.pictures.RENDERS``);
* the standings after the last round recomputed for a round's picture, and the head-to-head.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from django_setup import run_on_bench_database


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--hands", type=int, default=6000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--database-url", default=None)
    return parser.parse_args(argv)


def timed(call, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return min(times), statistics.median(times)


def run(args: argparse.Namespace) -> int:
    import standings as league_bench
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tournaments import pictures, services
    from tournaments.models import Round
    from tournaments.pictures.png import render_png
    from tournaments.pictures.svg import render_svg
    from tournaments.selectors.head_to_head import head_to_head_of
    from tournaments.selectors.pictures import standings_after

    competition, _games = league_bench.build(
        league_bench.parse_args(["--players", str(args.players), "--hands", str(args.hands)])
    )
    services.store_standings(competition=competition)
    nights = Round.objects.filter(competition=competition).count()
    print(f"league: {args.players} entries, {nights} nights, {args.hands} hands")
    path = f"/p/{competition.club.slug}/{competition.slug}/picture"
    client = Client(HTTP_HOST="localhost")
    for shape in pictures.SHAPES:
        for fmt, draw in (("png", render_png), ("svg", render_svg)):
            best, median = timed(
                lambda draw=draw, shape=shape: draw(pictures.content_of(competition, None), shape),
                args.runs,
            )
            cache.clear()
            drawn = pictures.RENDERS[fmt]
            with CaptureQueriesContext(connection) as first_q:
                started = time.perf_counter()
                first = client.get(f"{path}/{shape}.{fmt}")
                first_ms = (time.perf_counter() - started) * 1000
            with CaptureQueriesContext(connection) as second_q:
                started = time.perf_counter()
                second = client.get(f"{path}/{shape}.{fmt}")
                second_ms = (time.perf_counter() - started) * 1000
            assert first.status_code == second.status_code == 200
            print(
                f"{shape:8} {fmt}: render best {best:6.1f} ms, median {median:6.1f} ms; "
                f"first request {first_ms:6.1f} ms ({len(first_q)} queries), second "
                f"{second_ms:5.1f} ms ({len(second_q)} queries), drawn "
                f"{pictures.RENDERS[fmt] - drawn}x, {len(second.content) // 1024} KiB"
            )
    best, median = timed(lambda: standings_after(competition, nights), args.runs)
    print(
        f"standings after night {nights} (a round's picture): best {best:.1f} ms, median {median:.1f} ms"
    )
    best, median = timed(lambda: head_to_head_of(competition), args.runs)
    print(f"head-to-head: best {best:.1f} ms, median {median:.1f} ms")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return run_on_bench_database(args.database_url, lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
