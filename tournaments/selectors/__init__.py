"""Reads of competitions, one module per idea: ``standings`` (recomputed from the games),
``bracket`` (a knockout as drawn and played), ``rounds`` (a round's tables, check-ins, who it
leaves out, the round being played), ``draw`` (who met whom, every round as drawn, a refused
draw), ``entries`` (and the players who may enter) and ``competitions`` (a club's, a game's,
and what the organizer's page lists).

Every read a page, the API, a service or a task makes of more than one row lives here, as plain
rows or model instances with what the caller shows already loaded. Callers use this package's
names (``from tournaments import selectors; selectors.standings_of(...)``).
"""

from tournaments.selectors.bracket import (
    bracket_json,
    bracket_of,
    games_score,
    match_outcomes,
    match_scores,
)
from tournaments.selectors.competitions import (
    adjustments_shown,
    club_competitions,
    competitions_of_game,
    last_event_id,
    rounds_summary,
    schedule_of,
    started,
)
from tournaments.selectors.draw import (
    draw_ended_since,
    draw_refusal,
    drawn_tables,
    meetings,
    participant_count,
)
from tournaments.selectors.entries import (
    active_players,
    entered_players,
    entries_of,
)
from tournaments.selectors.field import still_in_bracket
from tournaments.selectors.rounds import (
    check_ins_by_round,
    current_round,
    last_check_in,
    last_round,
    late_seat_refusal,
    late_seat_tables,
    present_at,
    published_rounds,
    round_after,
    round_fingerprint,
    round_table,
    round_tables,
    round_with_tables,
    rounds_of,
    rounds_with_snapshot_version,
    table_links,
    unseated,
    where_of,
)
from tournaments.selectors.standings import (
    adjustments_of,
    as_json_number,
    labelled,
    results_of,
    seat_entries,
    snapshot_of,
    standings_of,
)

__all__ = [
    "active_players",
    "adjustments_of",
    "adjustments_shown",
    "as_json_number",
    "bracket_json",
    "bracket_of",
    "check_ins_by_round",
    "club_competitions",
    "competitions_of_game",
    "current_round",
    "draw_ended_since",
    "draw_refusal",
    "drawn_tables",
    "entered_players",
    "entries_of",
    "games_score",
    "labelled",
    "last_check_in",
    "last_event_id",
    "last_round",
    "late_seat_refusal",
    "late_seat_tables",
    "match_outcomes",
    "match_scores",
    "meetings",
    "participant_count",
    "present_at",
    "published_rounds",
    "results_of",
    "round_after",
    "round_fingerprint",
    "round_table",
    "round_tables",
    "round_with_tables",
    "rounds_of",
    "rounds_summary",
    "rounds_with_snapshot_version",
    "schedule_of",
    "seat_entries",
    "snapshot_of",
    "standings_of",
    "started",
    "still_in_bracket",
    "table_links",
    "unseated",
    "where_of",
]
