"""A results picture as SVG, written from the same layout as the PNG (``layout.layout``): a
title and a description (the text alternative) for screen readers, the text as text."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from tournaments.pictures.layout import FAMILY, Content, Rect, layout


def render_svg(content: Content, shape: str) -> str:
    (width, height), items = layout(content, shape)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="t d">',
        f'<title id="t">{escape(content.competition)} · {escape(content.title)}</title>',
        f'<desc id="d">{escape(content.alt())}</desc>',
        f"<g font-family={quoteattr(FAMILY)}>",
    ]
    for item in items:
        if isinstance(item, Rect):
            parts.append(
                f'<rect x="{item.x}" y="{item.y}" width="{item.w}" height="{item.h}" '
                f'fill="{item.fill}"/>'
            )
        else:
            parts.append(
                f'<text x="{item.x}" y="{item.y}" font-size="{item.size}" fill="{item.fill}" '
                f'text-anchor="{item.anchor}"{' font-weight="600"' if item.bold else ""}>'
                f"{escape(item.text)}</text>"
            )
    parts.append("</g></svg>")
    return "\n".join(parts)
