"""``{% head_to_head %}``: the "who beat whom" section of a competition page (public and
organizer), so that the views around it need not know of it. The page carries only its place
and a link: the matrix comes from ``tournaments.views.head_to_head`` when the section scrolls
into view (htmx), so the page's own queries stay what they were."""

from __future__ import annotations

from django import template

register = template.Library()


@register.inclusion_tag("tournaments/partials/head_to_head_slot.html", takes_context=True)
def head_to_head(context):
    return {"competition": context["competition"]}
