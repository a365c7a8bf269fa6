"""The lines of a game's history, each rendered once and kept in the cache.

The other phone of a table and every member's screen fetch the game's live region at each event
of its stream (``/g/<id>/live/``), and the region holds the whole history: at a hundred hands,
rendering its lines was three quarters of the fetch (bench/live.py prints the fetch's cost).
A hand's line changes only with what it shows, so each line is kept under a digest of exactly
that (its number, marks, words, deltas and running totals, the game, whether lowest wins,
whether it was just entered, the language and the URL prefix): a new hand renders one line and
reads the others back in one ``get_many``; a correction changes the lines whose figures changed,
and those alone miss. The cache is a cache: with Redis down (config/cache.py) the lines come
from the process's memory or are rendered, as before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from django.core.cache import cache
from django.template.loader import get_template
from django.urls import get_script_prefix
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

TEMPLATE = "scoring/partials/history_row.html"
#: An evening's game is fetched again and again; a finished one is rarely read.
KEEP_SECONDS = 6 * 3600
#: What of a history line (presenters.games._history_line) its HTML shows.
SHOWN = ("number", "corrected", "waiting", "rejected", "summary", "dealer", "cells")


def _key(game_id: int, line: dict, lowest_wins: bool, just: bool) -> str:
    shown = tuple(line[name] for name in SHOWN)
    parts = (game_id, shown, lowest_wins, just, get_language(), get_script_prefix())
    return "hrow:" + hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def rendered(
    game_id: int, history: Sequence[dict], *, lowest_wins: bool, just_entered=None
) -> SafeString:
    """The HTML of every line of ``history`` in its order; only the lines not kept are
    rendered (and kept)."""
    keys = [_key(game_id, line, lowest_wins, line["number"] == just_entered) for line in history]
    kept = cache.get_many(keys) if keys else {}
    missing = {}
    template = None
    out = []
    for key, line in zip(keys, history, strict=True):
        html = kept.get(key)
        if html is None:
            template = template or get_template(TEMPLATE)
            html = template.render(
                {
                    "h": line,
                    "game_id": game_id,
                    "lowest_wins": lowest_wins,
                    "just": line["number"] == just_entered,
                }
            )
            missing[key] = html
        out.append(html)
    if missing:
        cache.set_many(missing, KEEP_SECONDS)
    # Each line was rendered by its template, which escapes what it shows.
    return mark_safe("".join(out))
