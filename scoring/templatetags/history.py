"""``{% history_rows %}``: the lines of the game's history in the live region, each rendered
once and then read back from the cache (``scoring.presenters.history_rows``)."""

from __future__ import annotations

from django import template

from scoring.presenters.history_rows import rendered

register = template.Library()


@register.simple_tag(takes_context=True)
def history_rows(context):
    return rendered(
        context["game"].pk,
        context.get("history") or (),
        lowest_wins=bool(context.get("lowest_wins")),
        just_entered=context.get("just_entered"),
    )
