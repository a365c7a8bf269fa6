"""Reads of competitions, one module per idea: ``standings`` (recomputed from the games),
``bracket`` (a knockout as drawn and played), ``rounds`` (a round's tables, who it leaves out),
``draw`` (who met whom, every round as drawn), ``entries`` and ``competitions``.

Every read a page, the API, a service or a task makes of more than one row lives here, as plain
rows or model instances with what the caller shows already loaded. Callers use this package's
names (``from tournaments import selectors; selectors.standings_of(...)``).
"""

from tournaments.selectors.bracket import bracket_json, bracket_of, match_outcomes
from tournaments.selectors.competitions import competitions_of_game
from tournaments.selectors.draw import draw_refusal, drawn_tables, meetings
from tournaments.selectors.entries import active_players, entered_players, entries_of
from tournaments.selectors.rounds import (
    late_seat_refusal,
    late_seat_tables,
    published_rounds,
    rounds_of,
    unseated,
    where_of,
)
from tournaments.selectors.standings import (
    adjustments_of,
    as_json_number,
    labelled,
    results_of,
    seat_entries,
    standings_of,
)

__all__ = [
    "active_players",
    "adjustments_of",
    "as_json_number",
    "bracket_json",
    "bracket_of",
    "competitions_of_game",
    "draw_refusal",
    "drawn_tables",
    "entered_players",
    "entries_of",
    "labelled",
    "late_seat_refusal",
    "late_seat_tables",
    "match_outcomes",
    "meetings",
    "published_rounds",
    "results_of",
    "rounds_of",
    "seat_entries",
    "standings_of",
    "unseated",
    "where_of",
]
