"""The bump chart of a big competition: time to compute and draw the standings over the rounds.

    .venv/bin/python bench/charts.py [--players 200] [--rounds 12] [--runs 5]
                                     [--database-url URL] [--seed 1]

Builds, like ``bench/standings.py`` (its ``build``, bulk inserts, every game's hands played by
the real rules engine), a league of ``--players`` entries and keeps its first ``--rounds`` club
nights; then measures, best and median of ``--runs``:

* ``standings_history``: the standings after each round (``selectors.standings_history``: the
  games read once, ``standings_from`` once per round), and its SQL queries;
* ``bump_chart``: the chart's geometry from that history (``presenters.bump``);
* the partial ``tournaments/partials/bump_chart.html`` rendered (and its size in bytes);
* the page's path on a second view: ``views.bump.bump_context``, the history from the cache.

Nothing is asserted: the script prints figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from django_setup import run_on_bench_database


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200, help="entries (default 200)")
    parser.add_argument("--rounds", type=int, default=12, help="rounds kept (default 12)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs (default 5)")
    parser.add_argument("--database-url", default=None, help="a scratch database (else SQLite)")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


def timed(function, runs: int) -> tuple[float, float, object]:
    """Best and median milliseconds of ``runs`` calls, and the last answer."""
    times, answer = [], None
    for _ in range(runs):
        started = time.perf_counter()
        answer = function()
        times.append((time.perf_counter() - started) * 1000)
    return min(times), statistics.median(times), answer


def run(args: argparse.Namespace) -> int:
    from django.core.cache import cache
    from django.db import connection
    from django.template.loader import render_to_string
    from django.test.utils import CaptureQueriesContext
    from standings import build

    from tournaments import selectors
    from tournaments.models import Round
    from tournaments.presenters.bump import bump_chart
    from tournaments.views.bump import bump_context

    # About 650 hands a night for 200 players: enough hands for the nights wanted, then the
    # nights after them removed.
    build_args = argparse.Namespace(players=args.players, hands=700 * args.rounds, seed=args.seed)
    started = time.perf_counter()
    competition, _games = build(build_args)
    Round.with_deleted.filter(competition=competition, number__gt=args.rounds).delete()
    built_s = time.perf_counter() - started
    rounds = Round.objects.filter(competition=competition).count()

    history_best, history_median, history = timed(
        lambda: selectors.standings_history(competition), args.runs
    )
    with CaptureQueriesContext(connection) as queries:
        selectors.standings_history(competition)
    chart_best, chart_median, chart = timed(
        lambda: bump_chart(history, best_of=competition.best_of), args.runs
    )
    context = {"bump": chart, "bump_mine": None, "competition": competition}
    render_best, render_median, html = timed(
        lambda: render_to_string("tournaments/partials/bump_chart.html", context), args.runs
    )
    stamp = (1, None)
    cache.clear()
    first_best, _m, _c = timed(lambda: bump_context(competition, stamp), 1)
    cached_best, cached_median, _c = timed(lambda: bump_context(competition, stamp), args.runs)

    print(
        f"Bump chart bench on {connection.vendor}: {args.players} entries, {rounds} rounds "
        f"(built in {built_s:.1f} s), {len(chart['lines'])} lines drawn, "
        f"chart {chart['width']}x{chart['height']}."
    )
    print()
    header = f"{'':<38}{'best ms':>10}{'median ms':>11}"
    print(header)
    print("-" * len(header))
    rows = (
        (f"standings_history ({len(queries)} queries)", history_best, history_median),
        ("bump_chart (geometry)", chart_best, chart_median),
        (f"partial rendered ({len(html.encode()) // 1024} KiB)", render_best, render_median),
        ("bump_context, first view (computes)", first_best, first_best),
        ("bump_context, next views (cache)", cached_best, cached_median),
    )
    for label, best, median in rows:
        print(f"{label:<38}{best:>10.1f}{median:>11.1f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return run_on_bench_database(args.database_url, lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
