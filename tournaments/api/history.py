"""``?after_round=N`` on the standings endpoint: the standings as they stood after round N
(``selectors.standings_after``, what the bump chart draws). N must be a whole number among the
rounds played (``selectors.played_rounds``); anything else is a 400 naming ``after_round``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter

from scoring.rules import RuleViolation
from scoring.rules.reading import Problem
from tournaments import selectors
from tournaments.models import Competition

AFTER_ROUND = OpenApiParameter(
    "after_round",
    {"type": "integer", "minimum": 1, "maximum": 999999},  # a round's number, six digits
    OpenApiParameter.QUERY,
    required=False,
    description="The standings as they stood after this round (a league: this night), "
    "computed from the games of rounds 1 to N only; a round played so far (the answer's "
    "`rounds_played`), else 400 naming `after_round`.",
)


def after_round_of(request, competition: Competition) -> dict[str, Any] | None:
    """The standings after the round ``?after_round`` names (with ``rounds_played``), None
    without the parameter; a ``RuleViolation`` on ``after_round`` (400) when it is not a whole
    number or not a round played."""
    text = request.query_params.get("after_round")
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 6:
        raise RuleViolation([Problem("after_round", "type", {"expected": "integer"})])
    played = selectors.played_rounds(competition)
    number = int(text)
    if number not in played:
        raise RuleViolation(
            [Problem("after_round", "range", {"min": 1, "max": max(played, default=0)})]
        )
    return selectors.standings_after(competition, number) | {"rounds_played": played}
