"""What a member's screen costs the page server at each event of its game's stream: the event
names the change, the screen fetches its fragment through its page (``/g/<id>/live/`` for a
phone, ``/g/<id>/board/live/`` for a scoreboard) with the ETag it holds.

Two figures each, for a game of the bench as it stands at the end (its hands so far):

- the fetch at an event (the game changed: 200, a render), its database queries, its
  milliseconds of server work (in this process, one request at a time: the page server's own
  work with no queueing) and its bytes;
- the same fetch again with the ETag it got (nothing changed: a reconnection's ``hello``, a poll
  while the stream is down): 304, its queries and milliseconds.

And, from the screens' own records, what the fetches cost them in a phase: how many a second,
their answers (200, 304), their p50/p95 from sending to the answer.
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
            for label, headers in (("changed", {}), ("unchanged", None)):
                if headers is None:
                    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
                took = []
                for _ in range(TIMES):
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
        f = fetches.get(kind, {})
        out.append(
            f"  {kind:6} changed {c['status']} {c['queries']} queries {c['ms']:.1f} ms "
            f"{c['bytes'] / 1024:.1f} KB; unchanged {u['status']} {u['queries']} queries "
            f"{u['ms']:.1f} ms; in phase C {f.get('per_second', 0):.1f}/s "
            f"{f.get('statuses', {})}, p50 {f.get('p50_ms', 0):.0f} ms, "
            f"p95 {f.get('p95_ms', 0):.0f} ms from sending"
        )
    return out
