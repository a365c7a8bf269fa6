"""``{% picture_meta %}`` and ``{% picture_share %}``: the results picture of the page's
competition (or of its closed ``round``) named as the page's Open Graph / Twitter card image, and
offered to share or download under the standings, so that the views need not know of it."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.urls import reverse

from scoring.links import site_url
from tournaments import pictures
from tournaments.models import RoundStatus
from tournaments.views.public import rounds_of
from tournaments.views.standings_cache import snapshot_stamp

register = template.Library()


def _picture(context) -> dict | None:
    """The picture's addresses and text alternative, or None (a round not closed)."""
    request, competition = context["request"], context["competition"]
    round_ = context.get("round")
    if round_ is not None and round_.status != RoundStatus.CLOSED:
        return None
    number = round_.number if round_ is not None else None
    args = [competition.club.slug, competition.slug]
    name, args = ("round-picture", [*args, number]) if number else ("results-picture", args)
    version = _version(request, competition)
    # The snapshot's data when the page read it already (its standings table rendered anew).
    data = request.__dict__.get("_snapshots", {}).get(competition.pk, (None,))[0]

    def url(shape: str, fmt: str = "png") -> str:
        return reverse(name, args=[*args, shape, fmt])

    return {
        "wide": site_url(request, url("wide")),
        "portrait": url("portrait"),
        "svg": url("portrait", "svg"),
        "alt": pictures.picture_alt(
            competition, number=number, version=version, data=None if number else data
        ),
        "title": f"{competition.name} · {competition.club.name}",
        "size": pictures.SHAPES["wide"],
        "file": f"{competition.slug}{f'-{number}' if number else ''}.png",
    }


def _version(request, competition) -> int:
    """The standings' version as the public page read it with its rounds (no query of its
    own), else from the snapshot."""
    rounds = rounds_of(request, competition)
    if rounds and rounds[0].snapshot_version is not None:
        return rounds[0].snapshot_version
    return snapshot_stamp(request, competition)[0]


@register.simple_tag(takes_context=True)
def picture_meta(context) -> str:
    picture = _picture(context)
    if picture is None:
        return ""
    return render_to_string("tournaments/partials/picture_meta.html", {"picture": picture})


@register.simple_tag(takes_context=True)
def picture_share(context) -> str:
    picture = _picture(context)
    if picture is None:
        return ""
    return render_to_string(
        "tournaments/partials/picture_share.html",
        {"picture": picture},
        request=context["request"],
    )
