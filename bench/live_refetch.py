"""What a member's screen costs the page server at each event of its game's stream: the event
names the change, the screen fetches its fragment through its page (``/g/<id>/live/`` for a
phone, ``/g/<id>/board/live/`` for a scoreboard) with the ETag it holds.

Two figures each, for a game of the bench as it stands at the end (its hands so far):

- the fetch at an event (the game changed: 200, a render), its database queries, its
  milliseconds of server work (in this process, one request at a time: the page server's own
  work with no queueing) and its bytes;
- the same with no history line kept (``cold``: each line rendered, as every fetch was before
  scoring/presenters/history_rows.py);
- the same fetch again with the ETag it got (nothing changed: a reconnection's ``hello``, a poll
  while the stream is down): 304, its queries and milliseconds.

And, from the screens' own records, what the fetches cost them in a phase: how many a second,
their answers (200, 304), their p50/p95 from sending to the answer.

Alone, on a scratch SQLite database: ``python bench/live_refetch.py [--hands 100]``.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from load import percentile

#: Requests timed for each figure (their median is printed).
TIMES = 9


def server_cost(game_id: int, cookie: str, secret_key: str) -> dict[str, dict[str, Any]]:
    """Queries, milliseconds and bytes of each fragment's fetch, changed and unchanged."""
    from django.conf import settings
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    from scoring.models import Game

    name, _, value = cookie.partition("=")
    out: dict[str, dict[str, Any]] = {}
    hosts = [*settings.ALLOWED_HOSTS, "testserver"]
    with override_settings(SECRET_KEY=secret_key, ALLOWED_HOSTS=hosts):
        client = Client(HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
        client.cookies[name] = value
        for kind, url in (("phone", f"/g/{game_id}/live/"), ("board", f"/g/{game_id}/board/live/")):
            client.get(url)  # warm: the templates compiled, the session's CSRF cookie set
            figures: dict[str, Any] = {"url_kind": kind}
            etag = ""
            for label, headers in (("changed", {}), ("cold", {}), ("unchanged", None)):
                if headers is None:
                    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
                took = []
                for _ in range(TIMES):
                    if label == "cold":
                        cache.clear()  # this process's own (local memory): the servers' stays
                    began = time.perf_counter()
                    with CaptureQueriesContext(connection) as queries:
                        answer = client.get(url, **headers)
                    took.append(time.perf_counter() - began)
                etag = answer.headers.get("ETag", "")
                figures[label] = {
                    "status": answer.status_code,
                    "queries": len(queries),
                    "ms": 1000 * sorted(took)[len(took) // 2],
                    "bytes": len(answer.content),
                }
            out[kind] = figures
        hands = Game.objects.filter(pk=game_id).values_list("hand_count", flat=True).first()
    connection.close()
    out["hands"] = hands or 0
    return out


def screen_fetches(screens: list[dict], window: tuple[float, float]) -> dict[str, dict]:
    """Per kind of member screen: fetches a second in ``window``, their statuses, p50/p95 ms."""
    seconds = max(1e-6, window[1] - window[0])
    out = {}
    for kind in ("phone", "board"):
        took, statuses = [], Counter()
        for screen in screens:
            if screen["kind"] != kind:
                continue
            for sent, answered, status in screen["fetches"]:
                if window[0] <= sent <= window[1]:
                    took.append(answered - sent)
                    statuses[status] += 1
        out[kind] = {
            "per_second": len(took) / seconds,
            "statuses": dict(statuses),
            "p50_ms": 1000 * percentile(took, 0.5),
            "p95_ms": 1000 * percentile(took, 0.95),
        }
    return out


def lines(cost: dict[str, Any], fetches: dict[str, dict]) -> list[str]:
    out = [
        f"Member screens' fetch at an event (server work, one request alone, a game of "
        f"{cost['hands']} hands):"
    ]
    for kind in ("phone", "board"):
        c, u = cost[kind]["changed"], cost[kind]["unchanged"]
        cold = cost[kind].get("cold", c)
        f = fetches.get(kind, {})
        line = (
            f"  {kind:6} changed {c['status']} {c['queries']} queries {c['ms']:.1f} ms "
            f"(every line rendered: {cold['ms']:.1f} ms) {c['bytes'] / 1024:.1f} KB; "
            f"unchanged {u['status']} {u['queries']} queries {u['ms']:.1f} ms"
        )
        if f:
            line += (
                f"; in phase C {f['per_second']:.1f}/s {f['statuses']}, p50 "
                f"{f['p50_ms']:.0f} ms, p95 {f['p95_ms']:.0f} ms from sending"
            )
        out.append(line)
    return out


def main(argv: list[str] | None = None) -> int:
    """``python bench/live_refetch.py [--hands 100]``: the fetch's cost alone, on a scratch
    SQLite database (the demo club, one Terziglio game of ``--hands`` hands)."""
    import argparse

    from django_setup import run_on_bench_database

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--hands", type=int, default=100)
    args = parser.parse_args(argv)

    def measure() -> int:
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.test import Client

        from scoring import services
        from scoring.models import Club
        from scoring.services import Actor

        call_command("loaddemo", verbosity=0)
        user = get_user_model().objects.get(username="demo")
        club = Club.objects.get(slug="circolo-demo")
        by = Actor.for_user(user)
        game = services.start_game(
            club=club,
            ruleset="terziglio",
            players=list(club.players.order_by("pk")[:3]),
            by=by,
            options={"target_score": 1000},
        )
        for n in range(args.hands):
            document = {"dealer": n % 3, "outcome": "passed_out"}
            if n % 2:
                document = {
                    "dealer": n % 3,
                    "outcome": "played",
                    "soloist": n % 3,
                    "contract": "chiamo",
                    "soloist_points": 3 + n % 5,
                }
            services.record_hand(game=game, document=document, by=by)
        client = Client()
        client.force_login(user)
        cookie = (
            f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        )
        cost = server_cost(game.pk, cookie, settings.SECRET_KEY)
        print("\n".join(lines(cost, {})))
        return 0

    return run_on_bench_database(None, measure)


if __name__ == "__main__":
    import sys

    sys.exit(main())
