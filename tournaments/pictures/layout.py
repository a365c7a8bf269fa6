"""Where everything goes on a results picture: the content (``Content``) laid out for one shape
as a list of rectangles and lines of text, which ``png`` draws with Pillow and ``svg`` writes as
SVG, so that both say the same in the same places.

The text is set in Source Sans Pro, from the ``font-source-sans-pro`` package (Adobe's font under
the SIL Open Font License, as TTF files in a pure-Python wheel: no system fonts, no font file of
ours). Pillow's own default font (``ImageFont.load_default``) has no accented letters nor the
euro sign, which every Italian and French picture needs. A name too long for its column is cut
with an ellipsis, measured with the same font.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import font_source_sans_pro
from PIL import ImageFont

#: The shapes a picture is drawn in: a phone's portrait post, and a link preview's card.
SHAPES = {"portrait": (1080, 1350), "wide": (1200, 630)}

PAPER, INK, BAND, ON_BAND, SOFT, RULE = (
    "#fbfaf5",
    "#1a1a1a",
    "#14532d",
    "#ffffff",
    "#eef3ec",
    "#c9d3c6",
)
MUTED = "#4a4a4a"


@dataclass(frozen=True)
class Line:
    rank: str
    name: str
    points: str


@dataclass(frozen=True)
class Prize:
    place: str
    name: str
    prize: str


@dataclass(frozen=True)
class Content:
    """What a picture says, already in the club's language."""

    club: str
    competition: str
    title: str
    points_label: str
    lines: tuple[Line, ...]
    prizes_label: str
    prizes: tuple[Prize, ...]
    footer: str

    def alt(self) -> str:
        """The picture in words: its text alternative (``alt``, ``og:image:alt``)."""
        parts = [f"{self.club} · {self.competition} · {self.title}:"]
        parts.append(
            "; ".join(f"{x.rank}. {x.name}, {x.points} {self.points_label}" for x in self.lines)
        )
        if self.prizes:
            parts.append(
                f"{self.prizes_label}: "
                + "; ".join(f"{p.place}. {p.name}, {p.prize}" for p in self.prizes)
            )
        return " ".join(parts) + "."


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    w: int
    h: int
    fill: str


@dataclass(frozen=True)
class Text:
    """A line of text at its baseline ``y``; ``anchor`` "start", "middle" or "end" at ``x``."""

    x: int
    y: int
    text: str
    size: int
    fill: str
    anchor: str = "start"
    bold: bool = False


@dataclass(frozen=True)
class Frame:
    """The measures of one shape."""

    club: int
    name: int
    title: int
    row: int
    row_height: int
    rows: int
    prize: int
    split: int | None  # wide: the prizes in a right column from this x


FRAMES = {
    "portrait": Frame(club=40, name=72, title=46, row=48, row_height=74, rows=10, prize=36,
                      split=None),
    "wide": Frame(club=30, name=58, title=36, row=40, row_height=60, rows=5, prize=30,
                  split=700),
}  # fmt: skip

MARGIN = 56


FACES = {
    False: font_source_sans_pro.font_files_ttf["SourceSansPro"],
    True: font_source_sans_pro.font_files_ttf["SourceSansProSemibold"],
}
#: The font the SVG names (a viewer without it uses a sans-serif of its own).
FAMILY = "Source Sans Pro, Source Sans 3, Helvetica, Arial, sans-serif"


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FACES[bold], size)


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels at ``size``."""
    measure = font(size, bold).getlength
    if measure(text) <= width:
        return text
    while text and measure(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def layout(content: Content, shape: str) -> tuple[tuple[int, int], list[Rect | Text]]:
    """The picture's size and what it draws, in painting order."""
    width, height = SHAPES[shape]
    frame = FRAMES[shape]
    inner = width - 2 * MARGIN
    band, texts = _band(content, frame, inner)
    items: list[Rect | Text] = [Rect(0, 0, width, height, PAPER), Rect(0, 0, width, band, BAND)]
    items += texts
    right = frame.split - MARGIN // 2 if frame.split and content.prizes else width - MARGIN
    items += _lines(content, frame, band, right)
    items += _prizes(content, frame, band, width, height)
    items.append(Text(MARGIN, height - 22, fit(content.footer, 26, inner), 26, MUTED))
    return (width, height), items


def _band(content: Content, frame: Frame, inner: int) -> tuple[int, list[Text]]:
    """The green band's height, and its club, competition and title, one under the other."""
    y = MARGIN + frame.club
    items = [Text(MARGIN, y, fit(content.club, frame.club, inner), frame.club, ON_BAND)]
    y += int(frame.name * 1.3)
    name = fit(content.competition, frame.name, inner, bold=True)
    items.append(Text(MARGIN, y, name, frame.name, ON_BAND, bold=True))
    y += int(frame.title * 1.5)
    items.append(Text(MARGIN, y, fit(content.title, frame.title, inner), frame.title, ON_BAND))
    return y + int(MARGIN * 0.6), items


def _lines(content: Content, frame: Frame, band: int, right: int) -> list[Rect | Text]:
    items: list[Rect | Text] = []
    top = band + 20
    rank_width = int(font(frame.row, True).getlength("000")) + 16
    for i, line in enumerate(content.lines[: frame.rows]):
        y = top + i * frame.row_height
        if i % 2 == 0:
            items.append(Rect(MARGIN // 2, y, right - MARGIN // 2 + 16, frame.row_height, SOFT))
        base = y + frame.row_height // 2 + frame.row // 3
        points = line.points
        points_width = font(frame.row, True).getlength(points) + 24
        name_width = right - MARGIN - rank_width - points_width
        items += [
            Text(MARGIN + rank_width - 16, base, line.rank, frame.row, INK, "end", bold=True),
            Text(MARGIN + rank_width, base, fit(line.name, frame.row, name_width), frame.row, INK),
            Text(right, base, points, frame.row, INK, "end", bold=True),
        ]
    return items


def _prizes(
    content: Content, frame: Frame, band: int, width: int, height: int
) -> list[Rect | Text]:
    if not content.prizes:
        return []
    if frame.split:  # beside the standings
        x, y, shown = frame.split + MARGIN // 2, band + 20 + frame.prize + 8, 4
        column = width - x - MARGIN
        items: list[Rect | Text] = [Rect(frame.split, band, 4, height - band - 60, RULE)]
    else:  # under them
        x, column, shown = MARGIN, width - 2 * MARGIN, 3
        y = band + 20 + frame.rows * frame.row_height + 16 + 20 + frame.prize
        items = [Rect(MARGIN, y - frame.prize - 20, column, 3, RULE)]
    label = fit(content.prizes_label, frame.prize, column, bold=True)
    items.append(Text(x, y, label, frame.prize, BAND, bold=True))
    for prize in content.prizes[:shown]:
        y += int(frame.prize * 1.4)
        if frame.split:  # a narrow column: the prize under the name
            items.append(
                Text(
                    x, y, fit(f"{prize.place}. {prize.name}", frame.prize, column), frame.prize, INK
                )
            )
            y += int(frame.prize * 1.2)
            items.append(
                Text(x + 24, y, fit(prize.prize, frame.prize, column - 24), frame.prize, MUTED)
            )
            continue
        text = f"{prize.place}. {prize.name} · {prize.prize}"
        items.append(Text(x, y, fit(text, frame.prize, column), frame.prize, INK))
    return items
