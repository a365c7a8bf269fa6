"""The mixed phase of bench/spectators.py (``--mixed``): phones entering hands alone, then the
same phones while a thousand spectators poll the public standings; the hand POST's p95 in both,
and how soon every spectator sees the standings that the round's last hand changed. The
docstring of bench/spectators.py says what is measured and the targets."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from load import (
    NETWORK_ERRORS,
    PLAYERS,
    RULESET,
    Connection,
    Phone,
    Run,
    game_options,
    http_request,
    new_local_game,
    percentile,
    send_hand,
    type_hands,
)

STANDINGS = "/p/bench/lega/standings/"
#: A made chiamo: it ends a round-3 game of the bench league (target score 2).
FINISHING_HAND = {
    "dealer": 0,
    "outcome": "played",
    "soloist": 0,
    "contract": "chiamo",
    "soloist_points": 7,
}
#: How often the probe asks for the standings once the round's last hand is in.
PROBE_EVERY = 0.1


def make_phone_games(phones: int) -> tuple[str, list[int], list[int]]:
    """An API token for the league's owner, ``phones`` games of the bench club (Terziglio to a
    score no game reaches) and the ids of the league's third-round games, still in progress."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from scoring import services
    from scoring.models import Club
    from scoring.services import Actor
    from tournaments.models import Round

    club = Club.objects.get(slug="bench")
    owner = get_user_model().objects.get(username="bench-owner")
    token = Token.objects.create(user=owner)
    ids = [
        services.start_game(
            club=club,
            ruleset=RULESET,
            players=list(PLAYERS),
            options=game_options(False),
            by=Actor.for_user(owner),
            title=f"Phone {index + 1}",
        ).pk
        for index in range(phones)
    ]
    # the round published with its games in progress: the third (bench/spectators.py)
    third = Round.objects.filter(competition__slug="lega").order_by("-number").first()
    league = [t.game_id for t in third.tables.all() if t.game_id is not None]
    connection.close()
    return token.key, ids, league


@dataclass
class Seen:
    """One spectator's requests: (sent, answered, status, ETag) each."""

    answers: list[tuple[float, float, int, str]] = field(default_factory=list)
    errors: int = 0


async def paced(phone: Phone, run: Run, every: float, until: float, sent=None) -> None:
    """The phone enters its next typed hand every ``every`` seconds (± 20 %) until ``until``;
    what it has not sent stays typed for the next phase. ``sent(phone, hand, began, answered)``,
    if given, hears of each hand once it is answered (bench/live.py times the screens by it)."""
    conn = Connection(run.port)
    try:
        await asyncio.sleep(phone.rng.uniform(0, every))
        while phone.typed and time.monotonic() < until:
            began = time.monotonic()
            hand = phone.typed.pop(0)
            await send_hand(phone, hand, conn, run)
            if sent is not None:
                sent(phone, hand, began, time.monotonic())
            pause = every * phone.rng.uniform(0.8, 1.2) - (time.monotonic() - began)
            await asyncio.sleep(max(0.0, pause))
    finally:
        conn.close()


async def exchange(conn: Connection, raw: bytes, seen: Seen):
    """One request, again on a new connection when gunicorn closed the idle one."""
    for _attempt in range(2):
        try:
            return await conn.exchange(raw)
        except NETWORK_ERRORS:
            conn.close()
    seen.errors += 1
    return None


def page_request(port: int, cookie: str = "", etag: str = "", *, polled: bool = False) -> bytes:
    """A GET of the standings as a browser sends it: its cookie (the CSRF token the page embeds
    is part of what the whole page's ETag names) and, once it holds one, the ETag. ``polled``:
    the page's own poll every 15 s (htmx, ``HX-Request``: the table alone, its ETag kept by
    the browser's cache apart from the page's, since the answers vary on that header)."""
    headers = ["Accept: text/html", "Accept-Language: en"]
    if polled:
        headers += ["HX-Request: true", "HX-Trigger: standings", "HX-Target: standings"]
    if cookie:
        headers.append(f"Cookie: {cookie}")
    if etag:
        headers.append(f"If-None-Match: {etag}")
    return http_request("GET", STANDINGS, port=port, headers=headers)


def cookie_of(answer, cookie: str) -> str:
    found = answer.headers.get("set-cookie", "")
    return found.split(";", 1)[0] if found else cookie


async def spectate(port: int, every: float, until: asyncio.Event, rng: random.Random) -> Seen:
    """A spectator: a first visit (the whole page) at a random moment of the first period,
    then the page's poll every ``every`` seconds with the cookie and the table's ETag it holds,
    until ``until`` is set."""
    seen, conn, etag, cookie = Seen(), Connection(port), "", ""
    loop = asyncio.get_running_loop()
    next_at = loop.time() + rng.uniform(0, every)
    polled = False
    try:
        while not until.is_set():
            await asyncio.sleep(max(0.0, next_at - loop.time()))
            next_at += every
            sent = time.monotonic()
            answer = await exchange(conn, page_request(port, cookie, etag, polled=polled), seen)
            if answer is None:
                continue
            if answer.status == 200:
                cookie = cookie_of(answer, cookie)
                # The browser keeps the page and the polled table apart (Vary: HX-Request):
                # the first poll holds no ETag of the table yet.
                etag = answer.headers.get("etag", "") if polled else ""
            seen.answers.append((sent, time.monotonic(), answer.status, etag))
            polled = True
    finally:
        conn.close()
    return seen


async def finish_round(port: int, token: str, games: list[int]) -> tuple[float, list[int]]:
    """The round's tables enter their last hand at once: (when the last was acknowledged,
    their statuses)."""

    async def one(game_id: int) -> int:
        conn = Connection(port)
        body = json.dumps(FINISHING_HAND).encode()
        headers = (f"Authorization: Token {token}", f"Idempotency-Key: last-{game_id}")
        try:
            answer = await conn.exchange(
                http_request(
                    "POST", f"/api/v1/games/{game_id}/hands/", port=port, body=body, headers=headers
                )
            )
        finally:
            conn.close()
        return answer.status

    statuses = await asyncio.gather(*(one(g) for g in games))
    return time.monotonic(), list(statuses)


async def probe(port: int, since: float, held: tuple[str, str], stop: asyncio.Event):
    """Seconds from ``since`` until the server first answers the standings with another ETag
    than the one ``held`` (ETag, cookie), polled every ``PROBE_EVERY`` s; None if never."""
    conn, seen = Connection(port), Seen()
    old, cookie = held
    try:
        while not stop.is_set():
            answer = await exchange(conn, page_request(port, cookie, old, polled=True), seen)
            if answer is not None and answer.status == 200 and answer.headers.get("etag") != old:
                return time.monotonic() - since
            await asyncio.sleep(PROBE_EVERY)
    finally:
        conn.close()
    return None


async def visit(port: int, cookie: str = "") -> tuple[str, str]:
    """(ETag, cookie) of the standings table as the page polls it (no ``If-None-Match``)."""
    conn, seen = Connection(port), Seen()
    try:
        answer = await exchange(conn, page_request(port, cookie, polled=True), seen)
    finally:
        conn.close()
    if answer is None or answer.status != 200:
        raise RuntimeError(f"{STANDINGS}: no page ({answer and answer.status})")
    return answer.headers["etag"], cookie_of(answer, cookie)


def phase_figures(run: Run) -> dict[str, Any]:
    return {
        "hands": run.acknowledged,
        "p50_ms": 1000 * percentile(run.latencies, 0.50),
        "p95_ms": 1000 * percentile(run.latencies, 0.95),
        "statuses": {str(k): v for k, v in sorted(run.statuses.items())},
        "refused": run.refused[:5],
    }


async def mixed(
    port: int, token: str, phones: list[Phone], league: list[int], args
) -> dict[str, Any]:
    alone = Run(port=port, token=token, drop_rate=0, dup_rate=0)
    until = time.monotonic() + args.seconds
    await asyncio.gather(*(paced(p, alone, args.hand_every, until) for p in phones))

    held = await visit(port)
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    spectators = [
        asyncio.create_task(
            spectate(port, args.poll_every, stop, random.Random(rng.getrandbits(64)))
        )
        for _ in range(args.spectators)
    ]
    # The spectators arrive, each opening the page at a random moment of a period; the phones
    # go on meanwhile, timed apart (no target: a thousand first visits in 15 s is a storm of its
    # own), and phase B is timed once every spectator is polling.
    arriving = Run(port=port, token=token, drop_rate=0, dup_rate=0)
    until = time.monotonic() + args.poll_every + 1
    await asyncio.gather(*(paced(p, arriving, args.hand_every, until) for p in phones))
    together = Run(port=port, token=token, drop_rate=0, dup_rate=0)
    until = time.monotonic() + args.seconds
    playing = asyncio.gather(*(paced(p, together, args.hand_every, until) for p in phones))
    await asyncio.sleep(args.seconds / 3)
    first_hand = time.monotonic()
    last_hand, statuses = await finish_round(port, token, league)
    probing = asyncio.create_task(probe(port, last_hand, held, stop))
    # Until every spectator has polled once after the last hand, and the phones are done.
    await asyncio.sleep(max(0.0, last_hand + args.poll_every + 2 - time.monotonic()))
    await playing
    stop.set()
    seen = await asyncio.gather(*spectators)
    server_lag = await probing
    after, _cookie = await visit(port, held[1])
    return {
        "alone": phase_figures(alone),
        "arriving": phase_figures(arriving),
        "together": phase_figures(together),
        "round_hands": statuses,
        "staleness": staleness(seen, first_hand, last_hand, args.poll_every),
        "server_lag_s": server_lag,
        "changed": after != held[0],
        "spectator_answers": dict(sum((Counter(a[2] for a in s.answers) for s in seen), Counter())),
        "spectator_errors": sum(s.errors for s in seen),
    }


def staleness(seen: list[Seen], first: float, last: float, every: float) -> dict[str, Any]:
    """When each spectator first held the standings the round's last hands made: the table of
    its first answer to a request sent after ``last`` (the last of them acknowledged), which
    is either that answer (a 200) or, for a 304, the last 200 it had, if that came from a
    request sent after ``first`` (when they were sent). Counted from ``last``: when that
    request was sent and when its table arrived (0 for a table held before ``last``)."""
    sent_after, answered_after, missed = [], [], 0
    for spectator in seen:
        answers = spectator.answers
        index = next((i for i, a in enumerate(answers) if a[0] >= last), None)
        if index is None:
            missed += 1
            continue
        sent, answered, status, _etag = answers[index]
        if status == 304:
            table = next((a for a in reversed(answers[:index]) if a[2] == 200), None)
            if table is None or table[0] < first:
                missed += 1
                continue
            answered = table[1]
        sent_after.append(max(0.0, sent - last))
        answered_after.append(max(0.0, answered - last))
    return {
        "spectators": len(seen),
        "missed": missed,
        "sent_max_s": max(sent_after, default=0.0),
        "answered_median_s": percentile(answered_after, 0.5),
        "answered_max_s": max(answered_after, default=0.0),
        "within_target": missed == 0 and max(sent_after, default=0.0) <= every,
    }


def make_phones(game_ids: list[int], hands: int, seed: int) -> list[Phone]:
    seeds = random.Random(seed)
    phones = []
    for index, game_id in enumerate(game_ids):
        phone = Phone(
            index=index,
            game_index=index,
            game_id=game_id,
            shared=False,
            rng=random.Random(seeds.getrandbits(64)),
            local=new_local_game(False),
        )
        type_hands(phone, hands)
        phones.append(phone)
    return phones


def report(r: dict[str, Any], args) -> str:
    alone, together, stale = r["alone"], r["together"], r["staleness"]
    ratio = together["p95_ms"] / alone["p95_ms"] if alone["p95_ms"] else 0.0
    lag = "never" if r["server_lag_s"] is None else f"{r['server_lag_s']:.2f} s"
    lines = [
        f"Mixed phase: {args.phones} phones entering a hand every {args.hand_every:g} s each "
        f"for {args.seconds:g} s, alone, then with {args.spectators} spectators polling "
        f"{STANDINGS} every {args.poll_every:g} s.",
        f"Server: gunicorn, {r['gunicorn']}, deploy/env.example environment, PostgreSQL, "
        "cache in Redis.",
        "",
        f"{'':44}{'value':>12}  target",
        f"{'hand POSTs, phones alone (acknowledged)':44}{alone['hands']:>12}",
        f"{'hand POST p50 / p95, alone (ms)':44}{alone['p50_ms']:>5.1f} / {alone['p95_ms']:<5.1f}",
        f"{'hand POSTs, while the spectators arrive':44}{r['arriving']['hands']:>12}",
        f"{'hand POST p50 / p95, while they arrive (ms)':44}"
        f"{r['arriving']['p50_ms']:>5.1f} / {r['arriving']['p95_ms']:<5.1f}  (no target)",
        f"{'hand POSTs, with spectators polling':44}{together['hands']:>12}",
        f"{'hand POST p50 / p95, with them polling (ms)':44}"
        f"{together['p50_ms']:>5.1f} / {together['p95_ms']:<5.1f}",
        f"{'p95 with / without spectators':44}{ratio:>12.2f}  <= 1.20 "
        f"{'ok' if ratio <= 1.2 else 'MISSED'}",
        f"{'spectator answers (status: count)':44}{json.dumps(r['spectator_answers']):>12}",
        f"{'spectator connection errors':44}{r['spectator_errors']:>12}",
        f"{'round-3 last hands (statuses)':44}{json.dumps(Counter(r['round_hands'])):>12}",
        f"{'server serves the new standings after':44}{lag:>12}",
        f"{'spectators who never saw them':44}{stale['missed']:>12}  0",
        f"{'latest first request that saw them (s)':44}{stale['sent_max_s']:>12.2f}  "
        f"<= {args.poll_every:g} {'ok' if stale['within_target'] else 'MISSED'}",
        f"{'seen by the median / last spectator after (s)':44}"
        f"{stale['answered_median_s']:>5.2f} / {stale['answered_max_s']:<5.2f}",
    ]
    return "\n".join(lines)


def met(r: dict[str, Any]) -> bool:
    alone, together = r["alone"], r["together"]
    server_errors = sum(
        n
        for phase in (alone, r["arriving"], together)
        for s, n in phase["statuses"].items()
        if int(s) >= 500
    ) + sum(n for s, n in r["spectator_answers"].items() if int(s) >= 500)
    return (
        r["changed"]
        and set(r["round_hands"]) == {201}
        and not alone["refused"]
        and not r["arriving"]["refused"]
        and not together["refused"]
        and server_errors == 0
        and together["p95_ms"] <= 1.2 * alone["p95_ms"]
        and r["staleness"]["within_target"]
    )
