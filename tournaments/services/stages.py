"""A knockout stage's own match length: Swiss rounds to one hand, then semi-finals best of 3 and
a final best of 5, say. The lengths are settings of the competition (``STAGE_LENGTHS``, in hands
to win, by round of the bracket: before the semi-finals, the semi-finals with the third-place
match, the final); a stage left empty plays the game's house rule.

A length is read when a round's games start (``publish_round``) or are seated again (a change
of a published round), by ``_tables.table_options``: a round already published keeps its
games' length. Only a single-elimination bracket has them (a knockout, the knockout of a Swiss
cut); a double elimination plays every match to the house rule. Private to
``tournaments.services``; the checks here run with the other settings' (``competitions``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules.base import Problems
from scoring.rules.reading import is_int
from tournaments.models import STAGE_LENGTH_MAX, STAGE_LENGTHS, Format


def check_stage(
    problems: Problems, format: str, cut_to: int | None, settings: Mapping[str, Any]
) -> None:
    """Each stage length empty or 1 to ``STAGE_LENGTH_MAX`` hands to win (``range``), and only
    for a competition with a single-elimination stage (``inconsistent``): a knockout, or a Swiss
    that cuts to one. A third-place match needs two semi-finals: a cut to four or more."""
    knockout = format == Format.KNOCKOUT or (format == Format.SWISS and cut_to)
    for field in STAGE_LENGTHS:
        value = settings.get(field)
        if value is None:
            continue
        if not is_int(value) or not 1 <= value <= STAGE_LENGTH_MAX:
            problems.add(field, "range", min=1, max=STAGE_LENGTH_MAX, value=value)
        elif not knockout:
            problems.add(field, "inconsistent", reason="length_needs_knockout")
    if settings.get("third_place") and format == Format.SWISS and is_int(cut_to) and cut_to < 4:
        problems.add("third_place", "inconsistent", reason="third_place_needs_four", value=cut_to)
