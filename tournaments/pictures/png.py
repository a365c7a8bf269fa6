"""A results picture as PNG, drawn with Pillow from its layout (``layout.layout``)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from tournaments.pictures.layout import Content, Rect, font, layout

ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}


def render_png(content: Content, shape: str) -> bytes:
    size, items = layout(content, shape)
    image = Image.new("RGB", size, "#ffffff")
    draw = ImageDraw.Draw(image)
    for item in items:
        if isinstance(item, Rect):
            draw.rectangle(
                (item.x, item.y, item.x + item.w - 1, item.y + item.h - 1), fill=item.fill
            )
        else:
            draw.text(
                (item.x, item.y), item.text, fill=item.fill, font=font(item.size, item.bold),
                anchor=ANCHORS[item.anchor],
            )  # fmt: skip
    out = io.BytesIO()
    image.save(out, format="PNG")  # optimize=True halves nothing worth its 3x time
    return out.getvalue()
