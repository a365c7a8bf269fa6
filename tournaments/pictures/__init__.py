"""The results picture of a competition (issue 35, point 3): the standings after a closed round,
or the final standings, as an image a club posts in its members' chat and on its social pages,
and that a link to the public page shows as its preview (``og:image``).

Two shapes (``SHAPES``: 1080 × 1350 for a phone's post, 1200 × 630 for a link preview), two
formats (PNG drawn with Pillow, SVG written from the same layout), in the club's language. Drawn
once per standings version (``picture``: the snapshot's version names it in the cache), so a
second request, or a thousand chat previews, cost a cache read. Modules: ``content`` (what it
says), ``layout`` (where it goes), ``png`` and ``svg`` (drawing it).
"""

from __future__ import annotations

import hashlib
from collections import Counter

from tournaments.models import Competition
from tournaments.pictures.content import content_of
from tournaments.pictures.layout import SHAPES, Content
from tournaments.pictures.png import render_png
from tournaments.pictures.svg import render_svg
from tournaments.views.standings_cache import render_once

FORMATS = {"png": "image/png", "svg": "image/svg+xml"}
#: Pictures drawn by this process, by format (what the tests and ``bench/results_picture.py``
#: count to tell a render from a cache read).
RENDERS: Counter[str] = Counter()

__all__ = [
    "FORMATS",
    "RENDERS",
    "SHAPES",
    "Content",
    "content_of",
    "picture",
    "picture_alt",
    "picture_key",
]


def picture_key(competition: Competition, number: int | None, shape: str, fmt: str, version: int):
    """Where a picture is kept: the standings' version, the round, the shape and format, and
    what it shows besides the standings (names, language, whether final)."""
    club = competition.club
    shown = (club.name, club.language, competition.name, competition.finalized_at)
    digest = hashlib.sha256(repr(shown).encode()).hexdigest()[:16]
    return f"results-picture:{competition.pk}:{version}:{number or 0}:{shape}:{fmt}:{digest}"


def picture(competition: Competition, *, number: int | None, shape: str, fmt: str, version: int):
    """The picture's bytes, drawn once per version (``render_once``: concurrent requests wait
    for one render)."""
    return render_once(
        picture_key(competition, number, shape, fmt, version),
        lambda: _draw(content_of(competition, number), shape, fmt),
    )


def picture_alt(
    competition: Competition, *, number: int | None, version: int, data: dict | None = None
) -> str:
    """The picture's text alternative (``Content.alt``), kept beside it in the cache
    (``data``: the standings snapshot's, when the caller has read it already)."""
    return render_once(
        picture_key(competition, number, "any", "alt", version),
        lambda: content_of(competition, number, data, dated=False).alt(),
    )


def _draw(content: Content, shape: str, fmt: str) -> bytes:
    RENDERS[fmt] += 1
    if fmt == "svg":
        return render_svg(content, shape).encode()
    return render_png(content, shape)
