"""``{% director_calls "round" %}`` / ``{% director_calls "desk" %}``: the open calls of the
tables on the organizer's round page and desk (``tournaments.views.calls.calls_block``), so that
their views need not know of the calls."""

from __future__ import annotations

from django import template

from tournaments.views.calls import calls_block

register = template.Library()


@register.simple_tag(takes_context=True)
def director_calls(context, where: str = "round"):
    round_ = context.get("round") if where == "round" else None
    return calls_block(context["request"], context["competition"], round_, where)
