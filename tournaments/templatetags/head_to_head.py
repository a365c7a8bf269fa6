"""``{% head_to_head %}``: the "who beat whom" section of a competition page (public and
organizer), so that the views around it need not know of it. It reads the games in four queries
(``selectors.head_to_head``) and draws nothing before the first game is finished."""

from __future__ import annotations

from django import template

from tournaments.presenters.head_to_head import head_to_head_matrix
from tournaments.selectors.head_to_head import head_to_head_of

register = template.Library()


@register.inclusion_tag("tournaments/partials/head_to_head.html", takes_context=True)
def head_to_head(context):
    competition = context["competition"]
    role = context.get("role")
    return {
        "competition": competition,
        "matrix": head_to_head_matrix(head_to_head_of(competition)),
        # The game pages open for members, and for anyone when the competition is public.
        "links": role is not None or competition.public,
        "LANGUAGE_CODE": context.get("LANGUAGE_CODE"),
    }
