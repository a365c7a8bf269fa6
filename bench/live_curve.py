"""bench/live.py ``--curve``: the same figures at several sizes, one line each, so that a reader
sees where they bend: per kind of screen the event's latency from the hand POST's 201 (p50 /
p95 / max, ms), the hand POST p95 without streams (A) and with them (C), and the cores each
side kept busy in C (bench/live_cpu.py), against the machine's.
"""

from __future__ import annotations

from typing import Any

KINDS = ("phone", "board", "standings", "projector")


def row(phones: int, streams: int, latency: dict, post: dict, cpu: dict) -> dict[str, Any]:
    """One size's figures: ``latency`` per kind ({n, missed, answered_p50_ms, ...}), ``post``
    per phase A and C ({p95_ms, ...}), ``cpu`` per phase A and C (cores per side)."""
    return {"phones": phones, "streams": streams, "latency": latency, "post": post, "cpu": cpu}


def lines(rows: list[dict[str, Any]]) -> list[str]:
    head = f"{'phones':>6}{'streams':>8}"
    for kind in KINDS:
        head += f"{kind + ' p50/p95/max':>22}"
    head += f"{'POST p95 A/C ms':>17}{'ratio':>7}"
    out = ["The curve: event latency from the POST's 201 (ms), hand POST p95, C's cores", head]
    for r in rows:
        line = f"{r['phones']:>6}{r['streams']:>8}"
        for kind in KINDS:
            f = r["latency"].get(kind)
            cell = "-"
            if f:
                cell = (
                    f"{f['answered_p50_ms']:.0f}/{f['answered_p95_ms']:.0f}/"
                    f"{f['answered_max_ms']:.0f}"
                )
                if f["missed"]:
                    cell += f" ({f['missed']} missed)"
            line += f"{cell:>22}"
        a, c = r["post"]["A"]["p95_ms"], r["post"]["C"]["p95_ms"]
        line += f"{f'{a:.0f}/{c:.0f}':>17}{(c / a if a else 0):>7.2f}"
        out.append(line)
    out.append("")
    sides = ["gunicorn", "stream server", "postgres", "celery", "redis"]
    clients = ["client: phones", "client: screens"]
    out.append(
        f"{'phones':>6}{'streams':>8}"
        + "".join(f"{side[:13]:>14}" for side in [*sides, "clients"])
        + f"{'ours':>8}{'machine':>9}  (cores busy in C, of {rows[0]['cpu']['C']['cores']:.0f})"
        if rows
        else ""
    )
    for r in rows:
        cpu = r["cpu"]["C"]
        out.append(
            f"{r['phones']:>6}{r['streams']:>8}"
            + "".join(f"{cpu.get(side, 0):>14.2f}" for side in sides)
            + f"{sum(cpu.get(side, 0) for side in clients):>14.2f}"
            + f"{cpu['ours']:>8.2f}{cpu['machine']:>9.2f}"
        )
    return out
